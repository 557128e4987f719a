import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type {
  IncidentFilters,
  IncidentOrdering,
  IncidentPriority,
  IncidentStatus,
  Language,
} from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/client.ts';
import { likePattern } from '../../lib/pagination.ts';

/** Systems the caller may see: null means all (analysts, admins). */
export type SystemScope = number[] | null;

/** One incident row with the names the list and the CSV show. */
export interface IncidentRow {
  id: string;
  key: number;
  summary: string;
  priority: string;
  status: string;
  created: Date;
  updated: Date;
  system_id: number;
  system_is_id: string;
  system_name: string;
  service_id: number | null;
  service_name: string | null;
  issuetype_id: number;
  issuetype_code: string;
  issuetype_title: string;
  category_id: number | null;
  category_title: string | null;
  secondary: { id: number; title: string }[] | string;
  tags: string[];
  sla: Date | null;
  sla_breached: boolean;
  notified_at: Date | null;
  assignee_id: number | null;
  assignee_username: string | null;
  assignee_name: string | null;
  resolution: 'TP' | 'FP' | null;
  resolution_id: number | null;
  resolution_title: string | null;
  resolution_date: Date | null;
  gossopka_id: string | null;
  reporter_name: string;
  customer_star_rating: number | null;
  comments_count: number;
  priority_rank: number;
  status_rank: number;
  /** Exact sort timestamps for keyset paging (a JS Date drops microseconds). */
  created_cursor: string;
  updated_cursor: string;
}

const list = (values: readonly (string | number)[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );
const at = (ms: number) => sql`${new Date(ms).toISOString()}::timestamptz`;

/** The values of the generated rank columns (see the schema). */
const PRIORITY_RANK: Record<IncidentPriority, number> = { critical: 4, high: 3, medium: 2, low: 1 };
const STATUS_RANK: Record<IncidentStatus, number> = {
  waiting_for_customer: 1,
  waiting_for_support: 2,
  work_in_progress: 3,
  customer_completed: 4,
  completed: 5,
  closed: 6,
  canceled: 7,
};

/** The WHERE clause of a filter set, always limited to the caller's systems. */
export function incidentConditions(filters: IncidentFilters, scope: SystemScope): SQL {
  const c: SQL[] = [];
  if (scope) c.push(scope.length ? sql`i.system_id IN (${list(scope)})` : sql`FALSE`);
  const f = filters;
  if (f.key__in) c.push(sql`i.key IN (${list(f.key__in)})`);
  if (f.system__in) c.push(sql`i.system_id IN (${list(f.system__in)})`);
  if (f.category__in) {
    c.push(
      sql`(i.category_id IN (${list(f.category__in)}) OR i.secondary_category_ids && ARRAY[${list(f.category__in)}]::integer[])`,
    );
  }
  if (f.issuetype__in) c.push(sql`i.issue_type_id IN (${list(f.issuetype__in)})`);
  // by rank: the (system, rank, created, key) indexes then serve both the page and the count
  if (f.priority__in) c.push(sql`i.priority_rank IN (${list(f.priority__in.map((p) => PRIORITY_RANK[p]))})`);
  if (f.status__in) c.push(sql`i.status_rank IN (${list(f.status__in.map((p) => STATUS_RANK[p]))})`);
  if (f.service__in)
    c.push(sql`i.service_id IN (SELECT sv.id FROM services sv WHERE sv.name IN (${list(f.service__in)}))`);
  const ranges: [number | undefined, number | undefined, string][] = [
    [f.created__gte, f.created__lte, 'created'],
    [f.updated__gte, f.updated__lte, 'updated'],
    [f.notified__gte, f.notified__lte, 'notified_at'],
    [f.resolutiondate__gte, f.resolutiondate__lte, 'resolution_date'],
    [f.sla__gte, f.sla__lte, 'sla'],
  ];
  for (const [gte, lte, column] of ranges) {
    // column names come from the fixed list above, never from the request
    if (gte !== undefined) c.push(sql`i.${sql.raw(column)} >= ${at(gte)}`);
    if (lte !== undefined) c.push(sql`i.${sql.raw(column)} <= ${at(lte)}`);
  }
  if (f.sla_breached !== undefined) c.push(sql`i.sla_breached = ${f.sla_breached}`);
  if (f.gossopka_id__isnull !== undefined) {
    c.push(f.gossopka_id__isnull ? sql`i.gossopka_id IS NULL` : sql`i.gossopka_id IS NOT NULL`);
  }
  if (f.resolution__in) c.push(sql`i.resolution IN (${list(f.resolution__in)})`);
  if (f.resolution_name__in) c.push(sql`i.resolution_id IN (${list(f.resolution_name__in)})`);
  if (f.customer_assignee__in) c.push(sql`i.customer_assignee_id IN (${list(f.customer_assignee__in)})`);
  if (f.customer_assignee__isnull !== undefined) {
    c.push(
      f.customer_assignee__isnull
        ? sql`i.customer_assignee_id IS NULL`
        : sql`i.customer_assignee_id IS NOT NULL`,
    );
  }
  if (f.tactic__in) c.push(sql`i.tactics && ARRAY[${list(f.tactic__in)}]::text[]`);
  if (f.technique__in) c.push(sql`i.techniques && ARRAY[${list(f.technique__in)}]::text[]`);
  if (f.rule__in) c.push(sql`i.detection_rules && ARRAY[${list(f.rule__in)}]::text[]`);
  if (f.tags__in) c.push(sql`i.tags && ARRAY[${list(f.tags__in)}]::text[]`);
  if (f.host__icontains) {
    c.push(
      sql`EXISTS (SELECT 1 FROM unnest(i.affected_systems) AS h(name) WHERE h.name ILIKE ${likePattern(f.host__icontains)})`,
    );
  }
  if (f.summary__icontains) c.push(sql`i.summary ILIKE ${likePattern(f.summary__icontains)}`);
  if (f.search) {
    // the expression matches the trigram index incidents_search_trgm
    const text = sql`(i.summary || ' ' || i.description) ILIKE ${likePattern(f.search)}`;
    const asKey = /^\d{1,15}$/.test(f.search) ? Number(f.search) : null;
    c.push(asKey === null ? text : sql`(i.key = ${asKey} OR ${text})`);
  }
  return c.length ? sql.join(c, sql` AND `) : sql`TRUE`;
}

/** Sort columns of each ordering; ties follow the same direction so one index serves both. */
const ORDER_COLUMNS: Record<string, string[]> = {
  created: ['created', 'key'],
  updated: ['updated', 'key'],
  priority: ['priority_rank', 'created', 'key'],
  status: ['status_rank', 'created', 'key'],
};

function orderParts(ordering: IncidentOrdering): { columns: string[]; desc: boolean } {
  const desc = ordering.startsWith('-');
  return { columns: ORDER_COLUMNS[ordering.replace('-', '')]!, desc };
}

const orderBy = (ordering: IncidentOrdering, alias: string): SQL => {
  const { columns, desc } = orderParts(ordering);
  return sql.raw(columns.map((c) => `${alias}.${c} ${desc ? 'DESC' : 'ASC'}`).join(', '));
};

/** The value of a sort column of a row, as SQL, for the keyset condition. */
function cursorValue(row: IncidentRow, column: string): SQL {
  switch (column) {
    case 'created':
      return sql`${row.created_cursor}::timestamptz`;
    case 'updated':
      return sql`${row.updated_cursor}::timestamptz`;
    case 'priority_rank':
      return sql`${row.priority_rank}::smallint`;
    case 'status_rank':
      return sql`${row.status_rank}::smallint`;
    default:
      return sql`${row.key}::bigint`;
  }
}

const title = (lang: Language) => sql.raw(lang === 'ru' ? 'title_ru' : 'title_en');

/** The columns lists and exports read: not the long texts (description, recommendations, JSON). */
const PAGE_COLUMNS = sql.raw(
  [
    'id',
    'key',
    'summary',
    'priority',
    'status',
    'created',
    'updated',
    'system_id',
    'service_id',
    'issue_type_id',
    'category_id',
    'secondary_category_ids',
    'tags',
    'sla',
    'sla_breached',
    'notified_at',
    'customer_assignee_id',
    'resolution',
    'resolution_id',
    'resolution_date',
    'gossopka_id',
    'reporter_name',
    'customer_star_rating',
    'priority_rank',
    'status_rank',
  ]
    .map((c) => `i.${c}`)
    .join(', '),
);

/** The details of a set of incident rows (the page CTE `p`), with names in `lang`. */
function detailsQuery(
  pageSql: SQL,
  ordering: IncidentOrdering,
  lang: Language,
  withCommentCounts = true,
): SQL {
  const commentsCount = withCommentCounts
    ? sql`(SELECT count(*)::int FROM comments cm WHERE cm.incident_id = p.id)`
    : sql`0`;
  return sql`
    WITH p AS (${pageSql})
    SELECT p.id, p.key::int AS key, p.summary, p.priority, p.status, p.created, p.updated,
           p.system_id, s.is_id AS system_is_id, s.full_name AS system_name,
           p.service_id, sv.name AS service_name,
           p.issue_type_id AS issuetype_id, it.code AS issuetype_code, it.${title(lang)} AS issuetype_title,
           p.category_id, c.${title(lang)} AS category_title,
           COALESCE((SELECT json_agg(json_build_object('id', sc.id, 'title', sc.${title(lang)}) ORDER BY sc.id)
                       FROM categories sc WHERE sc.id = ANY(p.secondary_category_ids)), '[]'::json) AS secondary,
           p.tags, p.sla, p.sla_breached, p.notified_at,
           u.id AS assignee_id, u.username AS assignee_username,
           NULLIF(trim(u.first_name || ' ' || u.last_name), '') AS assignee_name,
           p.resolution, p.resolution_id, r.${title(lang)} AS resolution_title, p.resolution_date,
           p.gossopka_id, p.reporter_name, p.customer_star_rating,
           ${commentsCount} AS comments_count,
           p.priority_rank, p.status_rank, p.created::text AS created_cursor, p.updated::text AS updated_cursor
      FROM p
      JOIN systems s ON s.id = p.system_id
      JOIN issue_types it ON it.id = p.issue_type_id
      LEFT JOIN services sv ON sv.id = p.service_id
      LEFT JOIN categories c ON c.id = p.category_id
      LEFT JOIN resolutions r ON r.id = p.resolution_id
      LEFT JOIN users u ON u.id = p.customer_assignee_id
     ORDER BY ${orderBy(ordering, 'p')}`;
}

export function createIncidentsRepository(db: Db) {
  return {
    async count(filters: IncidentFilters, scope: SystemScope): Promise<number> {
      const rows = await queryRows<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM incidents i WHERE ${incidentConditions(filters, scope)}`,
      );
      return rows[0]?.n ?? 0;
    },

    /** One page in the requested order. */
    async page(
      filters: IncidentFilters,
      scope: SystemScope,
      ordering: IncidentOrdering,
      limit: number,
      offset: number,
      lang: Language,
    ): Promise<IncidentRow[]> {
      const pageSql = sql`SELECT ${PAGE_COLUMNS} FROM incidents i WHERE ${incidentConditions(filters, scope)}
                           ORDER BY ${orderBy(ordering, 'i')} LIMIT ${limit} OFFSET ${offset}`;
      return queryRows<IncidentRow>(db, detailsQuery(pageSql, ordering, lang));
    },

    /**
     * Every matching row in order, `batch` at a time, by keyset (the sort tuple of the last row),
     * so that a large export never holds more than one batch and never pays for deep offsets.
     */
    async *stream(
      filters: IncidentFilters,
      scope: SystemScope,
      ordering: IncidentOrdering,
      lang: Language,
      batch = 5000,
    ): AsyncGenerator<IncidentRow[]> {
      const { columns, desc } = orderParts(ordering);
      const where = incidentConditions(filters, scope);
      let after: IncidentRow | undefined;
      for (;;) {
        const keyset = after
          ? sql` AND (${sql.raw(columns.map((c) => `i.${c}`).join(', '))}) ${sql.raw(desc ? '<' : '>')} (${sql.join(
              columns.map((c) => cursorValue(after!, c)),
              sql`, `,
            )})`
          : sql``;
        const pageSql = sql`SELECT ${PAGE_COLUMNS} FROM incidents i WHERE ${where}${keyset}
                             ORDER BY ${orderBy(ordering, 'i')} LIMIT ${batch}`;
        // exports do not show comment counts: skip that subquery per row
        const rows = await queryRows<IncidentRow>(db, detailsQuery(pageSql, ordering, lang, false));
        if (!rows.length) return;
        yield rows;
        if (rows.length < batch) return;
        after = rows[rows.length - 1];
      }
    },
  };
}

export type IncidentsRepository = ReturnType<typeof createIncidentsRepository>;
