import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { IncidentFilters, IncidentOrdering, Language } from '@soc/contracts';
import { DEFAULT_INCIDENT_ORDERING, TOTAL_COUNT_CAP } from '@soc/contracts';
import type { Database, Db } from '../../db/client.ts';
import { queryRows, queryRowsNamed } from '../../db/client.ts';
import { effectiveSystems, type SystemScope } from '../../lib/scope.ts';
import { incidentConditions, orderBy, orderParts, TEXT_FILTERS } from './incident-filters.repository.ts';
import type { IncidentCardRow, IncidentRow } from './incident-rows.repository.ts';
import { PAGE_COLUMNS } from './incident-rows.repository.ts';

import type { ListTotal } from '../../lib/pagination.ts';
import { stoppedAt } from '../../lib/pagination.ts';
import type { RowCounter } from './incident-totals.repository.ts';
import {
  countTableTotal,
  rowsTotal,
  toldByPage,
  valueFilterOnly,
  valueTotal,
} from './incident-totals.repository.ts';
import { createIncidentCsvRepository } from './incidents.csv.repository.ts';
import { inScope, titleColumn } from '../../db/fragments.ts';

export type { SystemScope } from '../../lib/scope.ts';

/**
 * The details of a set of incident rows (the page CTE `p`), with names in `lang`. The names of
 * the service, category and resolution are scalar subqueries rather than joins: with seven joined
 * relations the planner searched their join orders on every request, and planning cost more than
 * executing. The page is MATERIALIZED: inlined, the planner searched the join order of nine
 * relations over the many indexes of incidents on every request (figures in docs/performance.md,
 * History).
 */
function detailsQuery(pageSql: SQL, ordering: IncidentOrdering, lang: Language, extra = sql``): SQL {
  return sql`
    WITH p AS MATERIALIZED (${pageSql})
    SELECT p.id, p.key::int AS key, p.summary, p.priority, p.status, p.created, p.updated,
           p.system_id, s.is_id AS system_is_id, s.full_name AS system_name,
           p.service_id, (SELECT sv.name FROM services sv WHERE sv.id = p.service_id) AS service_name,
           p.issue_type_id AS issuetype_id, it.code AS issuetype_code, it.${titleColumn(lang)} AS issuetype_title,
           p.category_id, (SELECT c.${titleColumn(lang)} FROM categories c WHERE c.id = p.category_id) AS category_title,
           COALESCE((SELECT json_agg(json_build_object('id', sc.id, 'title', sc.${titleColumn(lang)}) ORDER BY sc.id)
                       FROM categories sc WHERE sc.id = ANY(p.secondary_category_ids)), '[]'::json) AS secondary,
           p.tags, p.sla, p.sla_breached, p.notified_at,
           u.id AS assignee_id, u.username AS assignee_username,
           NULLIF(trim(u.first_name || ' ' || u.last_name), '') AS assignee_name,
           p.resolution, p.resolution_id,
           (SELECT r.${titleColumn(lang)} FROM resolutions r WHERE r.id = p.resolution_id) AS resolution_title, p.resolution_date,
           p.gossopka_id, p.reporter_name, p.customer_star_rating,
           (SELECT count(*)::int FROM comments cm WHERE cm.incident_id = p.id AND NOT cm.internal) AS comments_count,
           p.priority_rank, p.status_rank, p.created::text AS created_cursor, p.updated::text AS updated_cursor${extra}
      FROM p
      JOIN systems s ON s.id = p.system_id
      JOIN issue_types it ON it.id = p.issue_type_id
      LEFT JOIN users u ON u.id = p.customer_assignee_id
     ORDER BY ${orderBy(ordering, 'p')}`;
}

/** Up to this many systems, a page is merged from one ordered index scan per system. */
const MERGE_MAX_SYSTEMS = 16;

/**
 * The keys of one page, in order. Only the sort columns and the key are read here, so that the
 * ordering indexes (which hold all of them) serve skipped rows of deep pages without heap visits;
 * the page's own rows are read afterwards. A caller with several systems gets one ordered scan
 * of the per-system index for each, merged (an IN list over systems would sort every match).
 */
function pageKeysQuery(
  filters: IncidentFilters,
  scope: SystemScope,
  ordering: IncidentOrdering,
  limit: number,
  offset: number,
  sparse = false,
): SQL {
  const { columns } = orderParts(ordering);
  const select = sql.raw(columns.map((c) => `i.${c}`).join(', '));
  if (sparse) {
    // every match first (OFFSET 0 keeps the planner from walking an ordering index and checking
    // the text of each row it passes: it reads the matches through their own indexes), then the page
    return sql`SELECT i.key FROM (SELECT ${select} FROM incidents i WHERE ${incidentConditions(filters, scope)} OFFSET 0) i
                ORDER BY ${orderBy(ordering, 'i')} LIMIT ${limit} OFFSET ${offset}`;
  }
  const systems = effectiveSystems(filters, scope);
  if (!systems || systems.length < 2 || systems.length > MERGE_MAX_SYSTEMS) {
    return sql`SELECT i.key FROM incidents i WHERE ${incidentConditions(filters, scope)}
                ORDER BY ${orderBy(ordering, 'i')} LIMIT ${limit} OFFSET ${offset}`;
  }
  const branches = systems.map(
    (id) => sql`(SELECT ${select} FROM incidents i WHERE ${incidentConditions(filters, [id])}
                  ORDER BY ${orderBy(ordering, 'i')} LIMIT ${offset + limit})`,
  );
  return sql`SELECT i.key FROM (${sql.join(branches, sql` UNION ALL `)}) i
              ORDER BY ${orderBy(ordering, 'i')} LIMIT ${limit} OFFSET ${offset}`;
}

/** The incident rows of one page (the page CTE of `detailsQuery`). */
const pageSql = (
  filters: IncidentFilters,
  scope: SystemScope,
  ordering: IncidentOrdering,
  limit: number,
  offset: number,
  sparse = false,
): SQL =>
  sql`SELECT ${PAGE_COLUMNS} FROM incidents i WHERE i.key IN (${pageKeysQuery(filters, scope, ordering, limit, offset, sparse)})`;

/**
 * Whether a page of `total` matches among `scopeRows` incidents is cheaper read from the matches
 * (about `total` rows checked) than by walking an ordering index (about `(offset + limit) ×
 * scopeRows / total` rows checked before the page is full): a rare search term in a large scope.
 */
export const sparsePage = (total: number, scopeRows: number, limit: number, offset: number) =>
  total * total < (offset + limit) * scopeRows;

export function createIncidentsRepository(db: Db, copyOut?: Database['copyOut']) {
  /** The number of matching incidents, counted over the incidents themselves up to `cap` + 1. */
  const countRows = async (
    filters: IncidentFilters,
    scope: SystemScope,
    cap = TOTAL_COUNT_CAP,
  ): Promise<number> => {
    const rows = await queryRows<{ n: number }>(
      db,
      sql`SELECT (${rowsTotal(filters, scope, cap)})::int AS n`,
    );
    return rows[0]?.n ?? 0;
  };

  /**
   * The count table's exact total of a filter set that it answers (`countKey`, or a lone summary
   * or host filter), or undefined.
   */
  const countTable = async (filters: IncidentFilters, scope: SystemScope): Promise<ListTotal | undefined> => {
    const value = valueFilterOnly(filters);
    const total =
      countTableTotal(filters, scope) ??
      (value && valueTotal(value.name, value.term, effectiveSystems(filters, scope)));
    if (!total) return undefined;
    const [row] = await queryRows<{ n: string }>(db, sql`SELECT (${total})::text AS n`);
    return { total: Number(row?.n ?? 0), exact: true };
  };

  const repo = {
    /**
     * As `countRows` (up to TOTAL_COUNT_CAP + 1), with the expression `version` read by the same
     * statement (one snapshot), so that a kept count is never older than its version.
     */
    async countWithVersion(
      filters: IncidentFilters,
      scope: SystemScope,
      version: SQL,
    ): Promise<{ n: number; version: string }> {
      const [row] = await queryRows<{ n: number; version: string }>(
        db,
        sql`SELECT (${rowsTotal(filters, scope)})::int AS n, (${version})::text AS version`,
      );
      return { n: row?.n ?? 0, version: row?.version ?? '' };
    },

    /**
     * The list's total: exact from the count table where one filter (or none) is set, else
     * counted over the incidents by `counter` and exact up to TOTAL_COUNT_CAP.
     */
    async count(
      filters: IncidentFilters,
      scope: SystemScope,
      counter: RowCounter = countRows,
    ): Promise<ListTotal> {
      return (await countTable(filters, scope)) ?? stoppedAt(await counter(filters, scope), TOTAL_COUNT_CAP);
    },

    /**
     * Whether more than `max` incidents match, for an export's limit (which may lie above the
     * list's cap): the count table's exact total where it answers, else a count stopped at
     * `max` + 1 (`exact` false: more than `max`).
     */
    async countUpTo(filters: IncidentFilters, scope: SystemScope, max: number): Promise<ListTotal> {
      return (await countTable(filters, scope)) ?? stoppedAt(await countRows(filters, scope, max), max);
    },

    /**
     * One page and the total. Where the count table answers the total, it comes with the page
     * from the same statement (one round trip); otherwise, or when the page is empty, it is
     * counted beside it. A total that counting stopped at still has pages past it.
     */
    async pageAndTotal(
      filters: IncidentFilters,
      scope: SystemScope,
      ordering: IncidentOrdering,
      limit: number,
      offset: number,
      lang: Language,
      counter: RowCounter = countRows,
    ): Promise<ListTotal & { rows: IncidentRow[] }> {
      const total = countTableTotal(filters, scope);
      if (!total && TEXT_FILTERS.some((f) => filters[f] !== undefined)) {
        // the total first: none or a page past the end needs no page; few matches among many
        // incidents are read from the matches rather than through an ordering index
        const [n, [row]] = await Promise.all([
          repo.count(filters, scope, counter),
          // the incidents of the caller's systems, from the count table
          queryRowsNamed<{ n: string }>(
            db,
            sql`SELECT (${countTableTotal({}, effectiveSystems(filters, scope))})::text AS n`,
          ),
        ]);
        if (n.total === 0 || (n.exact && offset >= n.total)) return { ...n, rows: [] };
        const sparse = sparsePage(n.total, Number(row?.n ?? 0), limit, offset);
        const rows = await repo.page(filters, scope, ordering, limit, offset, lang, sparse);
        return { ...toldByPage(n, limit, offset, rows.length), rows };
      }
      if (!total) {
        const [n, rows] = await Promise.all([
          repo.count(filters, scope, counter),
          repo.page(filters, scope, ordering, limit, offset, lang),
        ]);
        return { ...toldByPage(n, limit, offset, rows.length), rows };
      }
      const rows = await queryRows<IncidentRow & { page_total: string }>(
        db,
        detailsQuery(
          pageSql(filters, scope, ordering, limit, offset),
          ordering,
          lang,
          sql`, (${total})::text AS page_total`,
        ),
      );
      if (!rows.length) return { ...(await repo.count(filters, scope, counter)), rows };
      return { total: Number(rows[0]!.page_total), exact: true, rows };
    },

    countRows,

    /**
     * Everything the incident card shows, in one statement (one round trip instead of five): the
     * list row, the whole incident record (`row_to_json`), the incident's own attachments (not
     * those of its comments) and the related incidents that the caller may see. Undefined when
     * the incident does not exist or is another tenant's. The statement is named, so PostgreSQL
     * parses and plans it once per connection (its text differs only by the number of systems).
     */
    async card(key: number, scope: SystemScope, lang: Language): Promise<IncidentCardRow | undefined> {
      const seen = (alias: 'i' | 'r') => inScope(sql.raw(`${alias}.system_id`), scope) ?? sql`TRUE`;
      const pageSql = sql`SELECT i.* FROM incidents i WHERE i.key = ${key} AND ${seen('i')}`;
      const extra = sql`,
           row_to_json(p) AS record,
           COALESCE((SELECT json_agg(json_build_object('id', a.id, 'filename', a.filename,
                                     'content_type', a.content_type, 'size', a.size, 'created', a.created)
                                     ORDER BY a.created, a.filename)
                       FROM attachments a WHERE a.incident_id = p.id AND a.comment_id IS NULL), '[]'::json) AS files,
           COALESCE((SELECT json_agg(json_build_object('key', r.key, 'summary', r.summary, 'status', r.status,
                                     'priority', r.priority, 'created', r.created) ORDER BY r.key)
                       FROM incidents r
                      WHERE r.id IN (SELECT l.related_id FROM incident_links l WHERE l.incident_id = p.id
                                     UNION SELECT l.incident_id FROM incident_links l WHERE l.related_id = p.id)
                        AND ${seen('r')}), '[]'::json) AS related`;
      const [row] = await queryRowsNamed<IncidentCardRow>(
        db,
        detailsQuery(pageSql, DEFAULT_INCIDENT_ORDERING, lang, extra),
      );
      return row;
    },

    /** One page in the requested order. */
    async page(
      filters: IncidentFilters,
      scope: SystemScope,
      ordering: IncidentOrdering,
      limit: number,
      offset: number,
      lang: Language,
      sparse = false,
    ): Promise<IncidentRow[]> {
      return queryRows<IncidentRow>(
        db,
        detailsQuery(pageSql(filters, scope, ordering, limit, offset, sparse), ordering, lang),
      );
    },

    ...createIncidentCsvRepository(db, copyOut),
  };
  return repo;
}

export type IncidentsRepository = ReturnType<typeof createIncidentsRepository>;
