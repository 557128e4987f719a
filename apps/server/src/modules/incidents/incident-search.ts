import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { IncidentFilters } from '@soc/contracts';
import { likePattern, sqlList } from '../../lib/pagination.ts';

/**
 * Exact totals of a lone text filter (search, summary, host) without checking the text of each
 * incident: checked with ILIKE, a term that a tenth of a million incidents hold took 3–7 µs per
 * match.
 *
 * The search (`searchTotal`), from the index of words (migrations 0025, 0026): the searched text
 * is cut at whitespace; a term of one word occurs in the text exactly when it occurs in one of the
 * text's words, a term of two words exactly when it occurs in a pair of adjacent words with the
 * whitespace between them (the whitespace inside the term is then all the whitespace between the
 * two words). The term is looked up in the vocabulary of the caller's systems
 * (`incident_search_terms`, trigram index), and the incidents holding any of the entries found
 * are counted through `incidents_search_words_gin`, which needs no recheck (PostgreSQL still reads
 * the heap page of each match for its visibility, about 2.3 µs). Incidents with an entry too long
 * to be kept (their marker: system, ':') that hold none of the entries found are checked with
 * ILIKE. Terms of three words or more, and terms that match more than `MAX_TERMS` words (a few
 * letters found in most words), are counted as before: `fallback`. Whitespace is PostgreSQL's
 * `\s`, so the shape of the term is decided in SQL, by the same rules that cut the text.
 *
 * `summary__icontains` and `host__icontains` (`valueTotal`), from the count table (migration
 * 0026): they read no incident at all.
 */
export const MAX_TERMS = 5000;

/** Filters on text that no ordering index serves: an ordered scan checks each row it passes. */
export const TEXT_FILTERS = ['search', 'summary__icontains', 'host__icontains'] as const;
export type TextFilterName = (typeof TEXT_FILTERS)[number];

/** A text filter's condition on one incident `i`: what the totals must answer exactly. */
export function textMatch(name: TextFilterName, term: string): SQL {
  const pattern = likePattern(term);
  switch (name) {
    case 'search':
      return sql`(i.summary || ' ' || i.description) ILIKE ${pattern}`;
    case 'summary__icontains':
      return sql`i.summary ILIKE ${pattern}`;
    case 'host__icontains':
      return sql`EXISTS (SELECT 1 FROM unnest(i.affected_systems) AS h(name) WHERE h.name ILIKE ${pattern})`;
  }
}

/** The search's number, when the term is one: an incident of that key matches as well. */
export const searchKey = (term: string): number | null => (/^\d{1,15}$/.test(term) ? Number(term) : null);

/** The filters that are set beside `system__in` (which only narrows the caller's systems). */
export const filtersBesideSystems = (filters: IncidentFilters) =>
  Object.entries(filters).filter(([name, v]) => v !== undefined && name !== 'system__in');

/** The text filter of a filter set that holds nothing else (beside `system__in`, part of the scope). */
export function textOnly(filters: IncidentFilters): { name: TextFilterName; term: string } | undefined {
  const set = filtersBesideSystems(filters);
  if (set.length !== 1) return undefined;
  const [name, term] = set[0]!;
  return (TEXT_FILTERS as readonly string[]).includes(name) && typeof term === 'string'
    ? { name: name as TextFilterName, term }
    : undefined;
}

const ENTRIES = sql`incident_search_entries(i.system_id, i.summary, i.description)`;

/** ` AND column IN (systems)`, or nothing for every system. */
type InSystems = (column: string) => SQL;

/**
 * A bigint expression: the number of incidents of `systems` (null: all) that a lone text filter
 * matches (and, for a search that is a number, the incident of that key); `fallback` counts the
 * same over the rows.
 */
export function textTotal(name: TextFilterName, term: string, systems: number[] | null, fallback: SQL): SQL {
  if (systems && systems.length === 0) return sql`0::bigint`;
  const inSystems: InSystems = (column) =>
    systems ? sql` AND ${sql.raw(column)} IN (${sqlList(systems)})` : sql``;
  return name === 'search' ? searchTotal(term, inSystems, fallback) : valueTotal(name, term, inSystems);
}

function searchTotal(term: string, inSystems: InSystems, fallback: SQL): SQL {
  const match = textMatch('search', term);
  const key = searchKey(term);
  // an incident whose key is the term counts once, whether its text holds the term or not
  const byKey =
    key === null
      ? sql``
      : sql` + (SELECT count(*) FROM incidents i WHERE i.key = ${key}${inSystems('i.system_id')} AND NOT ${match})`;
  // a term is one word or two, by PostgreSQL's own whitespace
  const vocabulary = sql`CASE WHEN lower(${term}) ~ '^\\S+$' THEN 'w' WHEN lower(${term}) ~ '^\\S+\\s+\\S+$' THEN 'p' END`;
  // Counted system by system (an incident has one, so the sums add up): a GIN scan merges its
  // keys' posting lists item by item, and a few keys at a time are much cheaper than all at once.
  return sql`(WITH q AS MATERIALIZED (SELECT ${vocabulary} AS kind),
      f AS MATERIALIZED (
        SELECT v.system_id, v.system_id || ':' || v.term AS entry FROM incident_search_terms v, q
         WHERE v.kind = q.kind AND v.term LIKE lower(${likePattern(term)})${inSystems('v.system_id')}
         LIMIT ${MAX_TERMS + 1})
    SELECT CASE WHEN (SELECT kind FROM q) IS NULL OR (SELECT count(*) FROM f) > ${MAX_TERMS} THEN ${fallback}
      ELSE coalesce((SELECT sum((SELECT count(*) FROM incidents i WHERE ${ENTRIES} && g.entries))
                       FROM (SELECT array_agg(f.entry) AS entries FROM f GROUP BY f.system_id) g), 0)
         + (SELECT count(*) FROM incidents i
             WHERE ${ENTRIES} && ARRAY(SELECT sy.id || ':' FROM systems sy WHERE TRUE${inSystems('sy.id')})
               AND NOT (${ENTRIES} && ARRAY(SELECT f.entry FROM f)) AND ${match})${byKey}
      END)`;
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

/**
 * The total of a lone `summary__icontains` or `host__icontains` from the count table (migration
 * 0026): an incident has one summary and one list of hosts, so the counts of the values that
 * match add up. A host list's value is its array text, read back whole with `::text[]` and matched
 * host by host; the array text holds each host as it is, unless the host has a quote or a
 * backslash (escaped), so `value ILIKE` may narrow the values first (trigram index) for any term
 * without either. Summaries and host lists over 1,000 bytes, keyed only by number (`…_long`), are
 * checked row by row, and only where there are some.
 */
function valueTotal(name: Exclude<TextFilterName, 'search'>, term: string, inSystems: InSystems): SQL {
  const { dim, long } = VALUE_DIMS[name];
  const pattern = likePattern(term);
  const matches =
    name === 'summary__icontains'
      ? sql`value ILIKE ${pattern}`
      : sql`${/["\\]/.test(term) ? sql`` : sql`value ILIKE ${pattern} AND `}EXISTS (
            SELECT 1 FROM unnest(value::text[]) AS h(name) WHERE h.name ILIKE ${pattern})`;
  return sql`((SELECT coalesce(sum(n), 0) FROM incident_counts WHERE dim = ${dim} AND ${matches}${inSystems('system_id')})
    + CASE WHEN EXISTS (SELECT 1 FROM incident_counts
                         WHERE dim = ${`${dim}_long`} AND value = '' AND n > 0${inSystems('system_id')})
      THEN (SELECT count(*) FROM incidents i WHERE ${long}${inSystems('i.system_id')} AND ${textMatch(name, term)})
      ELSE 0 END)`;
}
