import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { AuditFilters } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/client.ts';
import { likePattern } from '../../lib/pagination.ts';

export interface AuditRow {
  id: string | number;
  at_ms: string | number;
  user_id: number | null;
  username: string | null;
  first_name: string | null;
  last_name: string | null;
  role: string | null;
  action: string;
  object_type: string;
  object_id: string;
  object_name: string | null;
  ip: string;
  user_agent: string;
}

/**
 * Who reads the log: the systems a customer (or a limited token) may see, null for all; and
 * whether the addresses and user agents of the provider's staff are shown. A customer sees
 * those of their own users only: an analyst's, an administrator's, a service token's or the
 * system's entry names the actor but never where they worked from (issue 25, item 18).
 */
export interface AuditView {
  scope: number[] | null;
  staffAddresses: boolean;
}

const intArray = (ids: number[]) =>
  sql`ARRAY[${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )}]::int[]`;
const textArray = (values: string[]) =>
  sql`ARRAY[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::text[]`;

/** The entry was made by one of the customers' own users (not staff, a token of staff, nor the system). */
const BY_CUSTOMER = sql`u.role = 'customer'`;

/** `column` as the view may show it: blank on the entries of the provider's staff for a customer. */
const shown = (column: SQL, view: AuditView): SQL =>
  view.staffAddresses ? column : sql`CASE WHEN ${BY_CUSTOMER} THEN ${column} ELSE '' END`;

/**
 * The conditions of a filter over `audit_log a` joined to `users u`. Customers (a scope) see the
 * entries whose systems are all theirs (GIN index on system_ids); staff (null) see everything.
 */
function conditions(f: AuditFilters, { scope, staffAddresses }: AuditView): SQL {
  const c: SQL[] = [sql`TRUE`];
  if (scope)
    c.push(sql`cardinality(a.system_ids) > 0 AND a.system_ids <@ ${intArray(scope.length ? scope : [0])}`);
  if (f.action__in) c.push(sql`a.action = ANY(${textArray(f.action__in)})`);
  if (f.object_type__in) c.push(sql`a.object_type = ANY(${textArray(f.object_type__in)})`);
  if (f.object_id) c.push(sql`a.object_id = ${f.object_id}`);
  if (f.user__in) c.push(sql`a.user_id = ANY(${intArray(f.user__in)})`);
  if (f.at__gte !== undefined) c.push(sql`a.at >= to_timestamp(${f.at__gte / 1000})`);
  if (f.at__lte !== undefined) c.push(sql`a.at <= to_timestamp(${f.at__lte / 1000})`);
  if (f.ip) {
    c.push(sql`a.ip LIKE ${`${f.ip.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`}`);
    // a hidden address is not found by its prefix either
    if (!staffAddresses) c.push(BY_CUSTOMER);
  }
  if (f.search) {
    const p = likePattern(f.search);
    c.push(sql`(a.action ILIKE ${p} OR a.object_id ILIKE ${p} OR u.username ILIKE ${p})`);
  }
  return sql.join(c, sql` AND `);
}

/** How an entry's `object_id` spells the subject's key: its pattern and the key's SQL type. */
const ID_TYPES = {
  int: { pattern: '^[0-9]{1,9}$', cast: sql`int` },
  bigint: { pattern: '^[0-9]{1,18}$', cast: sql`bigint` },
  uuid: {
    pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
    cast: sql`uuid`,
  },
} as const;

/**
 * Where each kind of subject keeps its name. `scope` limits the lookup to the reader's systems:
 * `system` (one column), `systems` (an array, all of them the reader's), `user` (a member of one),
 * `shared` (null: every system's), none (global objects: documents, rules).
 */
const SUBJECTS: Record<
  string,
  { table: string; key: string; id: keyof typeof ID_TYPES; name: string; scope?: string }
> = {
  user: {
    table: 'users',
    key: 'id',
    id: 'int',
    name: "coalesce(nullif(trim(s.first_name || ' ' || s.last_name), ''), s.username)",
    scope: 'user',
  },
  incident: { table: 'incidents', key: 'key', id: 'bigint', name: 's.summary', scope: 'system_id' },
  document: { table: 'documents', key: 'id', id: 'int', name: 's.title' },
  report: { table: 'reports', key: 'id', id: 'int', name: 's.name', scope: 'system_ids' },
  report_task: { table: 'report_schedules', key: 'id', id: 'int', name: 's.name', scope: 'system_ids' },
  task: { table: 'tasks', key: 'id', id: 'bigint', name: 's.subject', scope: 'system_id' },
  rule: { table: 'rules', key: 'id', id: 'int', name: 's.name' },
  log_source: { table: 'log_sources', key: 'id', id: 'int', name: 's.name', scope: 'system_id' },
  link_template: { table: 'link_templates', key: 'id', id: 'int', name: 's.name', scope: 'shared' },
  service_token: { table: 'service_tokens', key: 'id', id: 'uuid', name: 's.name', scope: 'system_ids' },
  system: { table: 'systems', key: 'id', id: 'int', name: "s.is_id || ' ' || s.full_name", scope: 'id' },
};

/** The condition that keeps a subject `s` of the given scope inside the reader's systems `ids`. */
function subjectInScope(scope: string | undefined, ids: SQL): SQL {
  if (scope === undefined) return sql``;
  if (scope === 'user')
    return sql`AND EXISTS (SELECT 1 FROM user_systems us WHERE us.user_id = s.id AND us.system_id = ANY(${ids}))`;
  if (scope === 'system_ids') return sql`AND s.system_ids <@ ${ids}`;
  if (scope === 'shared') return sql`AND (s.system_id IS NULL OR s.system_id = ANY(${ids}))`;
  return sql`AND s.${sql.raw(scope)} = ANY(${ids})`;
}

/**
 * The display name of an entry's subject, looked up by its kind in the same query; null when the
 * subject is gone, has no name, or lies outside the reader's systems (a customer never learns the
 * name of another tenant's object from an entry that names it).
 */
function subjectName({ scope }: AuditView): SQL {
  const ids = scope ? intArray(scope.length ? scope : [0]) : null;
  const branches = Object.entries(SUBJECTS).map(([kind, subject]) => {
    const { pattern, cast } = ID_TYPES[subject.id];
    const lookup = sql`SELECT ${sql.raw(subject.name)} FROM ${sql.raw(subject.table)} s
      WHERE s.${sql.raw(subject.key)} = a.object_id::${cast} ${ids ? subjectInScope(subject.scope, ids) : sql``}`;
    return sql`WHEN a.object_type = ${kind} AND a.object_id ~ ${pattern} THEN (${lookup})`;
  });
  // CASE evaluates only the matching branch, so an id is cast only after its pattern matched
  return sql`CASE ${sql.join(branches, sql` `)} END`;
}

const columns = (view: AuditView) => sql`a.id, floor(extract(epoch FROM a.at) * 1000)::bigint AS at_ms,
  a.user_id, u.username, u.first_name, u.last_name, u.role, a.action, a.object_type, a.object_id,
  ${subjectName(view)} AS object_name,
  ${shown(sql`a.ip`, view)} AS ip, ${shown(sql`a.user_agent`, view)} AS user_agent`;

export function createAuditRepository(db: Db) {
  return {
    async count(f: AuditFilters, view: AuditView): Promise<number> {
      const [row] = await queryRows<{ n: string | number }>(
        db,
        sql`SELECT count(*) AS n FROM audit_log a LEFT JOIN users u ON u.id = a.user_id WHERE ${conditions(f, view)}`,
      );
      return Number(row?.n ?? 0);
    },

    /** Newest first (the primary key follows the time of writing). */
    async page(f: AuditFilters, view: AuditView, limit: number, offset: number): Promise<AuditRow[]> {
      return queryRows<AuditRow>(
        db,
        sql`SELECT ${columns(view)} FROM audit_log a LEFT JOIN users u ON u.id = a.user_id
             WHERE ${conditions(f, view)} ORDER BY a.id DESC LIMIT ${limit} OFFSET ${offset}`,
      );
    },

    /**
     * CSV lines of the filter, newest first, a keyset batch at a time; PostgreSQL quotes the cells
     * and neutralises formulas (`csv_cell`, the incidents CSV's function).
     */
    async *csvLines(f: AuditFilters, view: AuditView, batch = 2000): AsyncGenerator<string> {
      let before: number | null = null;
      for (;;) {
        const rows: { id: string | number; line: string }[] = await queryRows<{
          id: string | number;
          line: string;
        }>(
          db,
          sql`SELECT a.id, concat_ws(',',
                     to_char(a.at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'),
                     csv_cell(coalesce(u.username, '')),
                     csv_cell(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, ''))),
                     csv_cell(a.action), csv_cell(a.object_type), csv_cell(a.object_id),
                     csv_cell(${shown(sql`a.ip`, view)}), csv_cell(${shown(sql`a.user_agent`, view)})) AS line
                FROM audit_log a LEFT JOIN users u ON u.id = a.user_id
               WHERE ${conditions(f, view)} ${before === null ? sql`` : sql`AND a.id < ${before}`}
               ORDER BY a.id DESC LIMIT ${batch}`,
        );
        if (!rows.length) return;
        yield rows.map((r) => `${r.line}\n`).join('');
        if (rows.length < batch) return;
        before = Number(rows[rows.length - 1]!.id);
      }
    },
  };
}
