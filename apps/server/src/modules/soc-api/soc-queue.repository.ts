import type { SQL } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import type { Language, QueueOrdering, QueueReason, SlaState } from '@soc/contracts';
import { QUEUE_STATUSES, SLA_NEAR_MS, TOTAL_COUNT_CAP } from '@soc/contracts';
import type { SystemScope } from '../../core/auth.ts';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/client.ts';
import { inScope, sqlList, titleColumn } from '../../db/fragments.ts';
import { likePattern } from '../../lib/pagination.ts';

/** The queue's filters as the service resolved them (`mine` is already an assignee id). */
export interface QueueFilter {
  systems?: number[];
  priorities?: string[];
  statuses?: string[];
  categories?: number[];
  socAssignees?: number[];
  unassigned?: boolean;
  /** The caller's id (`mine`). */
  mine?: number;
  slaStates?: SlaState[];
  reasons?: QueueReason[];
}

export interface QueueRow {
  key: string | number;
  summary: string;
  priority: string;
  status: string;
  system_id: number;
  system_is_id: string;
  system_name: string;
  category_id: number | null;
  category_title: string | null;
  created_ms: string | number;
  updated_ms: string | number;
  sla_ms: string | number | null;
  notified_ms: string | number | null;
  soc_assignee_id: number | null;
  soc_assignee_username: string | null;
  soc_assignee_name: string | null;
  customer_comment_ms: string | number | null;
  reopened: boolean;
}

const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/**
 * Each reason as a condition on the incident row `i` at `moment`. The SLA deadline presses only
 * while the customer is not yet notified (it is the notification deadline, design §5).
 */
function reasonConditions(moment: Date): Record<QueueReason, SQL> {
  const now = at(moment);
  const near = at(new Date(moment.getTime() + SLA_NEAR_MS));
  return {
    waiting_for_support: sql`i.status = 'waiting_for_support'`,
    reopened: sql`i.reopened`,
    customer_comment: sql`i.customer_comment_at IS NOT NULL`,
    sla_near: sql`(i.notified_at IS NULL AND i.sla > ${now} AND i.sla <= ${near})`,
    sla_breached: sql`(i.notified_at IS NULL AND i.sla <= ${now})`,
    unassigned: sql`i.soc_assignee_id IS NULL`,
  };
}

function slaStateCondition(state: SlaState, moment: Date): SQL {
  const reasons = reasonConditions(moment);
  if (state === 'breached') return reasons.sla_breached;
  if (state === 'near') return reasons.sla_near;
  return sql`(i.notified_at IS NOT NULL OR i.sla IS NULL OR i.sla > ${at(new Date(moment.getTime() + SLA_NEAR_MS))})`;
}

const any = (parts: SQL[]) => sql`(${sql.join(parts, sql` OR `)})`;

/**
 * The condition of the queue: an open incident of the scope (the status list is the one of the
 * queue indexes' predicate, so that they serve it) for which at least one reason holds.
 */
function queueWhere(scope: SystemScope, f: QueueFilter, now: Date): SQL {
  const reasons = reasonConditions(now);
  const parts: SQL[] = [
    sql`i.status IN (${sqlList(QUEUE_STATUSES)})`,
    any((f.reasons ?? (Object.keys(reasons) as QueueReason[])).map((r) => reasons[r])),
  ];
  const scoped = inScope(sql`i.system_id`, scope);
  if (scoped) parts.push(scoped);
  if (f.systems) parts.push(sql`i.system_id IN (${sqlList(f.systems)})`);
  if (f.priorities) parts.push(sql`i.priority IN (${sqlList(f.priorities)})`);
  if (f.statuses) parts.push(sql`i.status IN (${sqlList(f.statuses)})`);
  if (f.categories) parts.push(sql`i.category_id IN (${sqlList(f.categories)})`);
  if (f.socAssignees) parts.push(sql`i.soc_assignee_id IN (${sqlList(f.socAssignees)})`);
  if (f.mine !== undefined) parts.push(sql`i.soc_assignee_id = ${f.mine}`);
  if (f.unassigned !== undefined)
    parts.push(f.unassigned ? sql`i.soc_assignee_id IS NULL` : sql`i.soc_assignee_id IS NOT NULL`);
  if (f.slaStates) parts.push(any(f.slaStates.map((s) => slaStateCondition(s, now))));
  return sql.join(parts, sql` AND `);
}

/** Each ordering in the order of an index (queue_sla, priority, created, updated), ties by key. */
const ORDER: Record<QueueOrdering, SQL> = {
  sla: sql`i.sla ASC NULLS LAST, i.key ASC`,
  '-sla': sql`i.sla DESC NULLS FIRST, i.key DESC`,
  priority: sql`i.priority_rank ASC, i.created ASC, i.key ASC`,
  '-priority': sql`i.priority_rank DESC, i.created DESC, i.key DESC`,
  created: sql`i.created ASC, i.key ASC`,
  '-created': sql`i.created DESC, i.key DESC`,
  updated: sql`i.updated ASC, i.key ASC`,
  '-updated': sql`i.updated DESC, i.key DESC`,
};

const ms = (column: string) => sql.raw(`floor(extract(epoch FROM ${column}) * 1000)::bigint`);

export function createSocQueueRepository(db: Db) {
  return {
    /** One page of the queue, with what its items show. */
    async page(
      scope: SystemScope,
      f: QueueFilter,
      ordering: QueueOrdering,
      limit: number,
      offset: number,
      now: Date,
      lang: Language,
    ): Promise<QueueRow[]> {
      return queryRows<QueueRow>(
        db,
        sql`SELECT i.key, i.summary, i.priority, i.status, i.system_id, s.is_id AS system_is_id,
                   s.full_name AS system_name, i.category_id, ${titleColumn(lang, 'c')} AS category_title,
                   ${ms('i.created')} AS created_ms, ${ms('i.updated')} AS updated_ms,
                   ${ms('i.sla')} AS sla_ms, ${ms('i.notified_at')} AS notified_ms,
                   i.soc_assignee_id, u.username AS soc_assignee_username,
                   trim(u.first_name || ' ' || u.last_name) AS soc_assignee_name,
                   ${ms('i.customer_comment_at')} AS customer_comment_ms, i.reopened
              FROM (SELECT i.* FROM incidents i WHERE ${queueWhere(scope, f, now)}
                     ORDER BY ${ORDER[ordering]} LIMIT ${limit} OFFSET ${offset}) i
              JOIN systems s ON s.id = i.system_id
              LEFT JOIN categories c ON c.id = i.category_id
              LEFT JOIN users u ON u.id = i.soc_assignee_id
             ORDER BY ${ORDER[ordering]}`,
      );
    },

    /** The number of incidents that wait, counted up to the cap + 1 (more: not exact). */
    async count(scope: SystemScope, f: QueueFilter, now: Date): Promise<number> {
      const [row] = await queryRows<{ n: string | number }>(
        db,
        sql`SELECT count(*) AS n FROM (SELECT 1 FROM incidents i WHERE ${queueWhere(scope, f, now)}
                                        LIMIT ${TOTAL_COUNT_CAP + 1}) q`,
      );
      return Number(row!.n);
    },

    /** The incidents that wait per tenant, most first. */
    async countsBySystem(scope: SystemScope, f: QueueFilter, now: Date) {
      const rows = await queryRows<{ id: number; is_id: string; full_name: string; n: string | number }>(
        db,
        sql`SELECT s.id, s.is_id, s.full_name, q.n
              FROM (SELECT i.system_id, count(*) AS n FROM incidents i
                     WHERE ${queueWhere(scope, f, now)} GROUP BY i.system_id) q
              JOIN systems s ON s.id = q.system_id
             ORDER BY q.n DESC, s.id`,
      );
      return rows.map((r) => ({
        system: { id: r.id, is_id: r.is_id, full_name: r.full_name },
        count: Number(r.n),
      }));
    },

    /** A page of the active staff (analysts, admins) by username, and how many match. */
    async staff(search: string | undefined, limit: number, offset: number) {
      const pattern = search ? likePattern(search.toLowerCase()) : null;
      const where = sql`role <> 'customer' AND is_active${
        pattern === null
          ? sql``
          : sql` AND (lower(username) LIKE ${pattern} OR lower(first_name || ' ' || last_name) LIKE ${pattern})`
      }`;
      const [rows, [count]] = await Promise.all([
        queryRows<{ id: number; username: string; full_name: string }>(
          db,
          sql`SELECT id, username, trim(first_name || ' ' || last_name) AS full_name FROM users
               WHERE ${where} ORDER BY lower(username), id LIMIT ${limit} OFFSET ${offset}`,
        ),
        queryRows<{ n: string | number }>(db, sql`SELECT count(*) AS n FROM users WHERE ${where}`),
      ]);
      return { rows, total: Number(count!.n) };
    },

    /** The role of a user, or null when there is none with that id. */
    async userRole(id: number): Promise<string | null> {
      const [row] = await queryRows<{ role: string }>(db, sql`SELECT role FROM users WHERE id = ${id}`);
      return row?.role ?? null;
    },

    /** The SOC assignee of an incident, as other objects refer to users. */
    async socAssignee(key: number) {
      const [row] = await queryRows<{ id: number; username: string; full_name: string }>(
        db,
        sql`SELECT u.id, u.username, trim(u.first_name || ' ' || u.last_name) AS full_name
              FROM incidents i JOIN users u ON u.id = i.soc_assignee_id WHERE i.key = ${key}`,
      );
      return row ?? null;
    },
  };
}

export type SocQueueRepository = ReturnType<typeof createSocQueueRepository>;
