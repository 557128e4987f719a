import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { IncidentFilters } from '@soc/contracts';
import { likePattern } from '../../lib/pagination.ts';

/**
 * The exact total of a lone text filter (search, summary, host) from the index of words
 * (migration 0025), without checking the text of each incident: checked with ILIKE, a term that a
 * tenth of a million incidents hold took 3–7 µs per match.
 *
 * The searched text is cut at whitespace; a term of one word occurs in the text exactly when it
 * occurs in one of the text's words, a term of two words exactly when it occurs in a pair of
 * adjacent words with the whitespace between them (the whitespace inside the term is then all
 * the whitespace between the two words). The term is looked up in the vocabulary of the caller's
 * systems (`incident_search_terms`, trigram index), and the incidents holding any of the entries
 * found are counted through `incidents_search_words_gin`, which needs no recheck (PostgreSQL still
 * reads the heap page of each match for its visibility, about 2.3 µs). Incidents with an entry too
 * long to be kept (their marker: prefix, system, ':') that hold none of the entries found are
 * checked with ILIKE.
 *
 * The same index answers `summary__icontains` (the summary's own words and pairs, entries 's…')
 * and `host__icontains` (each affected host whole, entries 'h…').
 *
 * Terms of three words or more, and terms that match more than `MAX_TERMS` words (a few letters
 * found in most words), are counted as before: `fallback`. Whitespace is PostgreSQL's `\s`, so
 * the shape of the term is decided in SQL, by the same rules that cut the text.
 */
export const MAX_TERMS = 5000;

/** The filters on text that the index of words answers, and the prefix of their entries. */
const TEXT_KINDS = { search: '', summary__icontains: 's', host__icontains: 'h' } as const;
export type TextFilterName = keyof typeof TEXT_KINDS;

/** A text filter's condition on one incident `i`: what the index must answer exactly. */
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
  return name in TEXT_KINDS && typeof term === 'string' ? { name: name as TextFilterName, term } : undefined;
}

const ENTRIES = sql`incident_search_entries(i.system_id, i.summary, i.description, i.affected_systems)`;

/**
 * A bigint expression: the number of incidents of `systems` (null: all) that a lone text filter
 * matches (and, for a search that is a number, the incident of that key); `fallback` counts the
 * same over the rows.
 */
export function textTotal(name: TextFilterName, term: string, systems: number[] | null, fallback: SQL): SQL {
  if (systems && systems.length === 0) return sql`0::bigint`;
  const prefix = TEXT_KINDS[name];
  const inSystems = (column: string) =>
    systems
      ? sql` AND ${sql.raw(column)} IN (${sql.join(
          systems.map((id) => sql`${id}`),
          sql`, `,
        )})`
      : sql``;
  const match = textMatch(name, term);
  const key = name === 'search' ? searchKey(term) : null;
  // an incident whose key is the term counts once, whether its text holds the term or not
  const byKey =
    key === null
      ? sql``
      : sql` + (SELECT count(*) FROM incidents i WHERE i.key = ${key}${inSystems('i.system_id')} AND NOT ${match})`;
  // a host is matched whole; a text term is one word or two, by PostgreSQL's own whitespace
  const vocabulary =
    name === 'host__icontains'
      ? sql`'h'`
      : sql`CASE WHEN lower(${term}) ~ '^\\S+$' THEN 'w' WHEN lower(${term}) ~ '^\\S+\\s+\\S+$' THEN 'p' END`;
  // Counted system by system (an incident has one, so the sums add up): a GIN scan merges its
  // keys' posting lists item by item, and a few keys at a time are much cheaper than all at once.
  return sql`(WITH q AS MATERIALIZED (SELECT ${vocabulary} AS kind),
      f AS MATERIALIZED (
        SELECT v.system_id, ${prefix} || v.system_id || ':' || v.term AS entry FROM incident_search_terms v, q
         WHERE v.kind = q.kind AND v.term LIKE lower(${likePattern(term)})${inSystems('v.system_id')}
         LIMIT ${MAX_TERMS + 1})
    SELECT CASE WHEN (SELECT kind FROM q) IS NULL OR (SELECT count(*) FROM f) > ${MAX_TERMS} THEN ${fallback}
      ELSE coalesce((SELECT sum((SELECT count(*) FROM incidents i WHERE ${ENTRIES} && g.entries))
                       FROM (SELECT array_agg(f.entry) AS entries FROM f GROUP BY f.system_id) g), 0)
         + (SELECT count(*) FROM incidents i
             WHERE ${ENTRIES} && ARRAY(SELECT ${prefix} || sy.id || ':' FROM systems sy WHERE TRUE${inSystems('sy.id')})
               AND NOT (${ENTRIES} && ARRAY(SELECT f.entry FROM f)) AND ${match})${byKey}
      END)`;
}
