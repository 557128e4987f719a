import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { IncidentFilters, IncidentOrdering, IncidentPriority, IncidentStatus } from '@soc/contracts';
import { type SystemScope } from '../../lib/scope.ts';
import { likePattern } from '../../lib/pagination.ts';
import { inScope, sqlList as list } from '../../db/fragments.ts';

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

/** Filters on text that no ordering index serves: an ordered scan checks each row it passes. */
export const TEXT_FILTERS = ['search', 'summary__icontains', 'host__icontains'] as const;
type TextFilterName = (typeof TEXT_FILTERS)[number];

/** A text filter's condition on one incident `i`. */
export function textMatch(name: TextFilterName, term: string): SQL {
  const pattern = likePattern(term);
  switch (name) {
    case 'search':
      // as ILIKE over summary and description (which lower-cases both sides), on the text
      // lower-cased on write that the trigram index incidents_search_text_trgm holds
      return sql`i.search_text LIKE lower(${pattern})`;
    case 'summary__icontains':
      return sql`i.summary ILIKE ${pattern}`;
    case 'host__icontains':
      return sql`EXISTS (SELECT 1 FROM unnest(i.affected_systems) AS h(name) WHERE h.name ILIKE ${pattern})`;
  }
}

/** The search's number, when the term is one: an incident of that key matches as well. */
export const searchKey = (term: string): number | null => (/^\d{1,15}$/.test(term) ? Number(term) : null);

/** The WHERE clause of a filter set, always limited to the caller's systems. */
export function incidentConditions(filters: IncidentFilters, scope: SystemScope): SQL {
  const c: SQL[] = [];
  const own = inScope(sql`i.system_id`, scope);
  if (own) c.push(own);
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
  if (f.rule_id__in) {
    c.push(
      sql`i.detection_rules && ARRAY(SELECT r.name FROM rules r WHERE r.id IN (${list(f.rule_id__in)}))`,
    );
  }
  if (f.tags__in) c.push(sql`i.tags && ARRAY[${list(f.tags__in)}]::text[]`);
  if (f.ioc__in) {
    // case-insensitive, like the dashboard's top lists; the expression matches incidents_iocs_gin
    const values = f.ioc__in.map((ioc) => ioc.toLowerCase());
    c.push(sql`incident_ioc_values(i.observed_iocs) && ARRAY[${list(values)}]::text[]`);
  }
  if (f.host__icontains) c.push(textMatch('host__icontains', f.host__icontains));
  if (f.summary__icontains) c.push(textMatch('summary__icontains', f.summary__icontains));
  if (f.search) {
    const text = textMatch('search', f.search);
    const asKey = searchKey(f.search);
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

export function orderParts(ordering: IncidentOrdering): { columns: string[]; desc: boolean } {
  const desc = ordering.startsWith('-');
  return { columns: ORDER_COLUMNS[ordering.replace('-', '')]!, desc };
}

export const orderBy = (ordering: IncidentOrdering, alias: string): SQL => {
  const { columns, desc } = orderParts(ordering);
  return sql.raw(columns.map((c) => `${alias}.${c} ${desc ? 'DESC' : 'ASC'}`).join(', '));
};

/** The filters that are set, by name: the same set of filters gives the same cache key. */
export const filterEntries = (filters: IncidentFilters) =>
  Object.entries(filters)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
