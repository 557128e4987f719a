import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { IncidentFilters } from '@soc/contracts';
import { TOTAL_COUNT_CAP } from '@soc/contracts';
import { effectiveSystems, type SystemScope } from '../../lib/scope.ts';
import { likePattern, type ListTotal } from '../../lib/pagination.ts';
import { sqlList as list } from '../../db/fragments.ts';
import { incidentConditions, searchKey, textMatch } from './incident-filters.repository.ts';

/** The filters that are set beside `system__in` (which only narrows the caller's systems). */
const filtersBesideSystems = (filters: IncidentFilters) =>
  Object.entries(filters).filter(([name, v]) => v !== undefined && name !== 'system__in');

/** A total that the count table `incident_counts` answers: the sum over some values of one dimension. */
interface CountKey {
  dim: string;
  values: SQL;
  /** Count the incidents that do NOT have these values (all minus the sum). */
  negate?: boolean;
}

/** Filters whose values exclude each other (an incident has one), so any number of values may be summed. */
const EXCLUSIVE_DIMS = {
  status__in: 'status',
  priority__in: 'priority',
  issuetype__in: 'issuetype',
  resolution__in: 'resolution',
  resolution_name__in: 'resolution_name',
  customer_assignee__in: 'assignee',
} as const;

/** Filters over sets (an incident may have several values): exact only for a single value. */
const SET_DIMS = {
  category__in: 'category',
  tactic__in: 'tactic',
  technique__in: 'technique',
  rule__in: 'rule',
  tags__in: 'tag',
} as const;

/**
 * The count-table key of a filter set, or null when the set needs a real count: no filter, or one
 * filter of the dimensions that the trigger keeps (beside `system__in`, which narrows the systems).
 */
export function countKey(filters: IncidentFilters): CountKey | null {
  const entries = filtersBesideSystems(filters);
  if (entries.length === 0) return { dim: 'all', values: sql`''` };
  if (entries.length > 1) return null;
  const [name, value] = entries[0]!;
  const strings = (v: unknown) => list((v as (string | number)[]).map(String));
  if (name in EXCLUSIVE_DIMS) {
    return { dim: EXCLUSIVE_DIMS[name as keyof typeof EXCLUSIVE_DIMS], values: strings(value) };
  }
  if (name in SET_DIMS) {
    const values = value as string[] | number[];
    return values.length === 1
      ? { dim: SET_DIMS[name as keyof typeof SET_DIMS], values: strings(values) }
      : null;
  }
  switch (name) {
    case 'service__in':
      return {
        dim: 'service',
        values: sql`SELECT sv.id::text FROM services sv WHERE sv.name IN (${list(value as string[])})`,
      };
    case 'sla_breached':
      return { dim: 'sla_breached', values: sql`${String(value)}` };
    case 'gossopka_id__isnull':
      return { dim: 'gossopka', values: sql`${String(!value)}` };
    case 'customer_assignee__isnull':
      return { dim: 'assignee', values: sql`''`, negate: !value };
    default:
      return null;
  }
}

/** ` AND column IN (systems)`, or nothing for every system (null). */
const andInSystems = (column: string, systems: number[] | null): SQL =>
  systems ? sql` AND ${sql.raw(column)} IN (${list(systems)})` : sql``;

/** A sum over the count table `incident_counts` (a bigint expression). */
const sumCounts = (dim: string, values: SQL, systems: number[] | null): SQL =>
  sql`(SELECT coalesce(sum(n), 0) FROM incident_counts WHERE dim = ${dim} AND value IN (${values})${andInSystems('system_id', systems)})`;

/**
 * The exact total of a filter set as an expression over the count table, or null when it has to
 * be counted over the incidents (several filters, a search).
 */
export function countTableTotal(filters: IncidentFilters, scope: SystemScope): SQL | null {
  const key = countKey(filters);
  if (!key) return null;
  const systems = effectiveSystems(filters, scope);
  if (systems && systems.length === 0) return sql`0::bigint`;
  const n = sumCounts(key.dim, key.values, systems);
  return key.negate ? sql`(${sumCounts('all', sql`''`, systems)} - ${n})` : n;
}

/** What `valueTotal` needs of a filter on a value that each incident has once. */
const VALUE_DIMS = {
  summary__icontains: {
    dim: 'summary',
    // the rows the count table does not key: served by incidents_long_summary_idx
    long: sql`octet_length(i.summary) > 1000`,
  },
  host__icontains: {
    dim: 'hosts',
    long: sql`octet_length(incident_hosts_text(i.affected_systems)) > 1000`,
  },
} as const;
type ValueFilterName = keyof typeof VALUE_DIMS;

/** The summary or host filter of a filter set that holds nothing else (beside `system__in`). */
export function valueFilterOnly(
  filters: IncidentFilters,
): { name: ValueFilterName; term: string } | undefined {
  const set = filtersBesideSystems(filters);
  if (set.length !== 1) return undefined;
  const [name, term] = set[0]!;
  return name in VALUE_DIMS && typeof term === 'string' ? { name: name as ValueFilterName, term } : undefined;
}

/**
 * The exact total of a lone `summary__icontains` or `host__icontains` from the count table, as a
 * bigint expression: an incident has one summary and one list of hosts, so the counts of the
 * values that match add up (db/derived/incident-counts.ts keys them). Counted over the incidents
 * instead, a term of few matches reads every incident of the caller's systems (an order of
 * magnitude slower on a million; docs/performance.md), which is why these keys stay while the
 * search's index of words went. A host list's value is its array text, read back whole with `::text[]` and matched
 * host by host; the array text holds each host as it is, unless the host has a quote or a
 * backslash (escaped), so `value ILIKE` may narrow the values first (trigram index) for any term
 * without either. Summaries and host lists over 1,000 bytes, keyed only by number (`…_long`), are
 * checked row by row, and only where there are some.
 */
export function valueTotal(name: ValueFilterName, term: string, systems: number[] | null): SQL {
  if (systems && systems.length === 0) return sql`0::bigint`;
  const { dim, long } = VALUE_DIMS[name];
  const pattern = likePattern(term);
  const matches =
    name === 'summary__icontains'
      ? sql`value ILIKE ${pattern}`
      : sql`${/["\\]/.test(term) ? sql`` : sql`value ILIKE ${pattern} AND `}EXISTS (
            SELECT 1 FROM unnest(value::text[]) AS h(name) WHERE h.name ILIKE ${pattern})`;
  return sql`((SELECT coalesce(sum(n), 0) FROM incident_counts WHERE dim = ${dim} AND ${matches}${andInSystems('system_id', systems)})
    + CASE WHEN EXISTS (SELECT 1 FROM incident_counts
                         WHERE dim = ${`${dim}_long`} AND value = '' AND n > 0${andInSystems('system_id', systems)})
      THEN (SELECT count(*) FROM incidents i WHERE ${long}${andInSystems('i.system_id', systems)} AND ${textMatch(name, term)})
      ELSE 0 END)`;
}

/**
 * A total that counting stopped at, told by its page: a page that is not full is the last one.
 * (An empty page tells nothing: the offset may lie past the end.)
 */
export const toldByPage = (counted: ListTotal, limit: number, offset: number, rows: number): ListTotal =>
  !counted.exact && rows > 0 && rows < limit ? { total: offset + rows, exact: true } : counted;

/**
 * The number of matching incidents up to `cap` + 1, for a filter set that `countKey` does not
 * answer (free text, several filters), as a bigint expression. PostgreSQL stops reading at the
 * limit, so a term that most incidents hold costs at most `cap` + 1 matches, not all of them.
 */
export const rowsTotal = (filters: IncidentFilters, scope: SystemScope, cap = TOTAL_COUNT_CAP): SQL =>
  searchTotal(filters, scope, cap) ??
  sql`(SELECT count(*) FROM (SELECT 1 FROM incidents i WHERE ${incidentConditions(filters, scope)}
                              LIMIT ${sql.raw(String(cap + 1))}) m)`;

/**
 * As `rowsTotal` for a search alone (beside `system__in`), over the narrow table `incident_search`
 * (db/derived/incident-search.ts), partitioned by system: a customer's count reads only the
 * partitions of its systems, and every count reads dense rows of text rather than a page of the
 * wide incidents table per match. Null for other filter sets, and for a term that is a number (it
 * also matches the incident of that key, which only the incidents table knows).
 */
function searchTotal(filters: IncidentFilters, scope: SystemScope, cap: number): SQL | null {
  const set = filtersBesideSystems(filters);
  if (set.length !== 1 || set[0]![0] !== 'search') return null;
  const term = set[0]![1] as string;
  if (searchKey(term) !== null) return null;
  const systems = effectiveSystems(filters, scope);
  if (systems && systems.length === 0) return sql`0::bigint`;
  return sql`(SELECT count(*) FROM (SELECT 1 FROM incident_search s
                                     WHERE s.text LIKE lower(${likePattern(term)})${andInSystems('s.system_id', systems)}
                                     LIMIT ${sql.raw(String(cap + 1))}) m)`;
}

/**
 * Counts the incidents of a filter set that the count table does not answer, up to
 * TOTAL_COUNT_CAP + 1: `countRows` itself, or the service's counter that keeps such counts
 * (modules/incidents/count-cache.ts).
 */
export type RowCounter = (filters: IncidentFilters, scope: SystemScope) => Promise<number>;
