import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { IncidentFilters, Language } from '@soc/contracts';
import { QUERY_MILLIS_MAX } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/client.ts';
import { incidentConditions } from '../incidents/index.ts';
import type { SystemScope } from '../../lib/scope.ts';

import { pgIso, splitRange } from './split-range.ts';
import { inScope, sqlList as list, titleColumn } from '../../db/fragments.ts';

/** One dashboard dimension value and its number of incidents (see schema/dashboard.ts). */
export interface DimCount {
  dim: string;
  value: string;
  n: number;
}

/** The dimensions of the daily table. */
export const DAILY_DIMS = [
  'all',
  'priority',
  'status',
  'sla_breached',
  'category',
  'tactic',
  'technique',
  'domain',
  'ip',
];

/** Dimensions whose values are listed only as the top N (many distinct values). */
export const TOP_DIMS = ['domain', 'ip'] as const;

const at = (ms: number) => sql`${pgIso(ms)}::timestamptz`;

/** The columns of the incidents that the dimensions of `want` read (see `countParts`). */
const countColumns = (want: (dim: string) => boolean) =>
  sql`i.created, i.priority, i.status, i.sla_breached, i.category_id, i.secondary_category_ids, i.tactics,
      i.techniques, ${want('domain') || want('ip') ? sql`i.observed_iocs` : sql`'[]'::jsonb AS observed_iocs`}`;

/**
 * The (dim, value, n) counts of the incidents of the relation `from` (columns `countColumns`),
 * computed set-wise over them; the same keys as the SQL function incident_daily_keys (migration
 * 0009) that fills the daily and hourly tables.
 */
function countParts(from: SQL, want: (dim: string) => boolean): SQL[] {
  const parts: SQL[] = [];
  const distinct = (dim: string, values: SQL) =>
    sql`SELECT ${dim}::text AS dim, x.v AS value, count(*) AS n
          FROM ${from} e CROSS JOIN LATERAL (SELECT DISTINCT v FROM ${values} WHERE v IS NOT NULL) x GROUP BY x.v`;
  if (want('all'))
    parts.push(sql`SELECT 'all'::text AS dim, ''::text AS value, count(*) AS n FROM ${from} e`);
  if (want('priority'))
    parts.push(sql`SELECT 'priority', e.priority::text, count(*) FROM ${from} e GROUP BY e.priority`);
  if (want('status'))
    parts.push(sql`SELECT 'status', e.status::text, count(*) FROM ${from} e GROUP BY e.status`);
  if (want('sla_breached'))
    parts.push(
      sql`SELECT 'sla_breached', 'true', count(*) FROM ${from} e WHERE e.sla_breached HAVING count(*) > 0`,
    );
  if (want('category'))
    parts.push(
      distinct(
        'category',
        sql`unnest(array_append(e.secondary_category_ids, e.category_id)) AS u(c), LATERAL (SELECT u.c::text) AS t(v)`,
      ),
    );
  if (want('tactic')) parts.push(distinct('tactic', sql`unnest(e.tactics) AS t(v)`));
  if (want('technique')) parts.push(distinct('technique', sql`unnest(e.techniques) AS t(v)`));
  for (const [dim, types] of [
    ['domain', ['fqdn', 'domain']],
    ['ip', ['ipv4', 'ipv6', 'ip']],
  ] as const) {
    if (!want(dim)) continue;
    parts.push(
      distinct(
        dim,
        sql`jsonb_array_elements(CASE WHEN jsonb_typeof(e.observed_iocs) = 'array' THEN e.observed_iocs ELSE '[]'::jsonb END) AS o,
            LATERAL (SELECT lower(o->>'ioc') WHERE o->>'ioc_type' IN (${list(types)}) AND coalesce(o->>'ioc', '') <> '') AS t(v)`,
      ),
    );
  }
  return parts;
}

const wants = (dims?: readonly string[]) => (dim: string) => !dims || dims.includes(dim);

/** The (dim, value, n) counts of the incidents matching `where`. */
function rawRows(where: SQL, dims?: readonly string[]): SQL {
  const want = wants(dims);
  return sql`SELECT * FROM (WITH e AS MATERIALIZED (SELECT ${countColumns(want)} FROM incidents i WHERE ${where})
    ${sql.join(countParts(sql`e`, want), sql` UNION ALL `)}) raw`;
}

/** The figures of the dashboard as one statement reads them (see `analytics`). */
export interface AnalyticsRows {
  counts: DimCount[];
  /** The counts of dimensions `all` and `sla_breached` in the previous range, if asked. */
  previous: DimCount[] | null;
  timeline: [number, number][];
  /** Events of the systems' log sources per hour, [bucket start ms, events], in order. */
  eventsPerHour: [number, number][];
  contractedEps: number;
  /** Titles of the categories counted, in the language asked. */
  categoryTitles: Map<number, string>;
}

/** What `analytics` reads: systems (null: all) and created ranges only. */
export interface AnalyticsRequest {
  systems: SystemScope;
  gte?: number | undefined;
  lte?: number | undefined;
  span: 'day' | 'hour';
  topN: number;
  previous: { gte: number; lte: number } | null;
  eps: { from: number; to: number };
  lang: Language;
}

const byCount = (a: DimCount, b: DimCount) =>
  a.dim < b.dim ? -1 : a.dim > b.dim ? 1 : b.n - a.n || (a.value < b.value ? -1 : 1);

export function createDashboardRepository(db: Db) {
  /** Incidents per dimension value over the incidents (any filter): the top `topN` of many-valued ones. */
  async function counts(
    filters: IncidentFilters,
    scope: SystemScope,
    topN: number,
    dims?: readonly string[],
  ): Promise<DimCount[]> {
    const rows = await queryRows<{ dim: string; value: string; n: string }>(
      db,
      sql`WITH g AS (SELECT s.dim, s.value, sum(s.n)::bigint AS n FROM (${rawRows(incidentConditions(filters, scope), dims)}) s GROUP BY s.dim, s.value),
               r AS (SELECT g.*, row_number() OVER (PARTITION BY g.dim ORDER BY g.n DESC, g.value) AS rn FROM g)
          SELECT r.dim, r.value, r.n::text AS n FROM r
           WHERE r.n > 0 AND (r.dim NOT IN (${list(TOP_DIMS)}) OR r.rn <= ${topN})`,
    );
    return rows.map((r) => ({ dim: r.dim, value: r.value, n: Number(r.n) })).sort(byCount);
  }

  /**
   * The parts of one created range for `analytics`: the rows (dim, value, n) of the daily and
   * hourly tables and of the incidents at the ends (the materialized relation `edgesName`, defined
   * in `ctes`) for the dimensions `dims`, and the rows (t, n) of dimension `all` per `bucket`.
   */
  function rangeParts(
    systems: SystemScope,
    range: { gte?: number | undefined; lte?: number | undefined },
    edgesName: string,
    dims: readonly string[],
    bucket: 'day' | 'hour',
  ) {
    const want = wants(dims);
    const hasRange = range.gte !== undefined || range.lte !== undefined;
    const split = hasRange
      ? splitRange(range.gte ?? 0, range.lte ?? QUERY_MILLIS_MAX, Date.now(), {
          days: bucket === 'day',
          hours: systems === null,
        })
      : null;
    const bucketOf = (at: SQL) =>
      bucket === 'day' ? sql`incident_day(${at})::timestamp` : sql`(incident_hour(${at}) AT TIME ZONE 'UTC')`;
    const ofDims = (column: SQL) =>
      DAILY_DIMS.every((d) => dims.includes(d)) ? sql`` : sql` AND ${column} IN (${list(dims)})`;
    const counts: SQL[] = [];
    const timeline: SQL[] = [];
    if (!split || split.days) {
      // the derived rows of system 0 total every system
      const bySystem = inScope(sql`d.system_id`, systems) ?? sql`d.system_id = 0`;
      const days = split?.days
        ? sql` AND d.day BETWEEN ${split.days.from}::date AND ${split.days.to}::date`
        : sql``;
      counts.push(
        sql`SELECT d.dim, d.value, d.n FROM incident_daily d WHERE ${bySystem}${days}${ofDims(sql`d.dim`)}`,
      );
      timeline.push(
        sql`SELECT d.day::timestamp, d.n FROM incident_daily d WHERE ${bySystem}${days} AND d.dim = 'all'`,
      );
    }
    if (split?.hours.length) {
      const inHours = sql.join(
        split.hours.map((h) => sql`(h.hour >= ${at(h.from)} AND h.hour < ${at(h.to)})`),
        sql` OR `,
      );
      counts.push(
        sql`SELECT h.dim, h.value, h.n FROM incident_hourly h WHERE (${inHours})${ofDims(sql`h.dim`)}`,
      );
      timeline.push(
        sql`SELECT ${bucketOf(sql`h.hour`)}, h.n FROM incident_hourly h WHERE (${inHours}) AND h.dim = 'all'`,
      );
    }
    const ctes: SQL[] = [];
    if (split?.edges.length) {
      const edges = sql`${sql.identifier(edgesName)}`;
      const inSystems = inScope(sql`i.system_id`, systems);
      const scope = inSystems ? sql`${inSystems} AND ` : sql``;
      const inEdges = sql.join(
        split.edges.map(
          (edge) =>
            sql`(i.created >= ${at(edge.from)} AND i.created ${edge.closedEnd ? sql`<=` : sql`<`} ${at(edge.to)})`,
        ),
        sql` OR `,
      );
      ctes.push(
        sql`${edges} AS MATERIALIZED (SELECT ${countColumns(want)} FROM incidents i WHERE ${scope}(${inEdges}))`,
      );
      counts.push(...countParts(edges, want));
      timeline.push(sql`SELECT ${bucketOf(sql`e.created`)}, count(*) FROM ${edges} e GROUP BY 1`);
    }
    return {
      ctes,
      counts: sql.join(counts, sql` UNION ALL `),
      timeline: sql.join(timeline, sql` UNION ALL `),
    };
  }

  return {
    counts,

    /**
     * The dashboard's figures for systems and created ranges only, in one statement: every value of
     * the few-valued dimensions and the top `topN` domains and IP addresses (ties by value), the
     * timeline, the previous range's counts, the events per hour, the contracted EPS and the
     * category titles. Whole days come from `incident_daily`, whole hours of all systems from
     * `incident_hourly`, only the rest from the incidents.
     */
    async analytics(req: AnalyticsRequest): Promise<AnalyticsRows> {
      const { systems } = req;
      if (systems?.length === 0) {
        return {
          counts: [],
          previous: req.previous ? [] : null,
          timeline: [],
          eventsPerHour: [],
          contractedEps: 0,
          categoryTitles: new Map(),
        };
      }
      const current = rangeParts(systems, req, 'e_current', DAILY_DIMS, req.span);
      const previous = req.previous
        ? rangeParts(systems, req.previous, 'e_previous', ['all', 'sla_breached'], 'day')
        : null;
      const top = (dim: string) =>
        sql`(SELECT 'count', g.dim, g.value, g.n::text FROM g WHERE g.dim = ${dim}
              ORDER BY g.n DESC, g.value LIMIT ${req.topN})`;
      const epsSystems = systems ? sql`h.system_id IN (${list(systems)})` : sql`h.system_id = 0`;
      const services = systems ? sql` WHERE s.system_id IN (${list(systems)})` : sql``;
      const rows = await queryRows<{ k: string; a: string | null; b: string | null; n: string | null }>(
        db,
        sql`WITH ${sql.join([...current.ctes, ...(previous?.ctes ?? [])], sql`, `)}${current.ctes.length || previous?.ctes.length ? sql`, ` : sql``}
                 g AS (SELECT c.dim, c.value, sum(c.n)::bigint AS n FROM (${current.counts}) c (dim, value, n)
                        GROUP BY c.dim, c.value HAVING sum(c.n) > 0)
            SELECT 'count' AS k, g.dim AS a, g.value AS b, g.n::text AS n FROM g WHERE g.dim NOT IN (${list(TOP_DIMS)})
            ${sql.join(
              TOP_DIMS.map((d) => sql` UNION ALL ${top(d)}`),
              sql``,
            )}
            UNION ALL SELECT 'timeline', (extract(epoch FROM c.t) * 1000)::bigint::text, NULL, sum(c.n)::text
                        FROM (${current.timeline}) c (t, n) GROUP BY c.t HAVING sum(c.n) > 0
            ${
              previous
                ? sql`UNION ALL SELECT 'previous', p.dim, p.value, sum(p.n)::text FROM (${previous.counts}) p (dim, value, n)
                                GROUP BY p.dim, p.value HAVING sum(p.n) > 0`
                : sql``
            }
            UNION ALL SELECT 'eps', (extract(epoch FROM h.bucket_start) * 1000)::bigint::text, NULL, h.events::text
                        FROM (SELECT h.bucket_start, sum(h.events) AS events FROM eps_hourly h
                               WHERE ${epsSystems} AND h.bucket_start >= ${at(req.eps.from)} AND h.bucket_start <= ${at(req.eps.to)}
                               GROUP BY h.bucket_start) h
            UNION ALL SELECT 'contracted', NULL, NULL, coalesce(sum(s.contracted_eps), 0)::text FROM services s${services}
            UNION ALL SELECT 'title', c.id::text, ${titleColumn(req.lang, 'c')}, NULL FROM categories c
                       WHERE c.id::text IN (SELECT g.value FROM g WHERE g.dim = 'category')`,
      );
      const out: AnalyticsRows = {
        counts: [],
        previous: previous ? [] : null,
        timeline: [],
        eventsPerHour: [],
        contractedEps: 0,
        categoryTitles: new Map(),
      };
      for (const r of rows) {
        if (r.k === 'count') out.counts.push({ dim: r.a!, value: r.b!, n: Number(r.n) });
        else if (r.k === 'previous') out.previous?.push({ dim: r.a!, value: r.b!, n: Number(r.n) });
        else if (r.k === 'timeline') out.timeline.push([Number(r.a), Number(r.n)]);
        else if (r.k === 'eps') out.eventsPerHour.push([Number(r.a), Number(r.n)]);
        else if (r.k === 'contracted') out.contractedEps = Number(r.n);
        else if (r.k === 'title') out.categoryTitles.set(Number(r.a), r.b ?? r.a!);
      }
      out.counts.sort(byCount);
      out.timeline.sort((x, y) => x[0] - y[0]);
      out.eventsPerHour.sort((x, y) => x[0] - y[0]);
      return out;
    },

    /** Incidents per UTC day (`day`) or hour (`hour`) over the incidents (any filter), as [bucket start ms, count]. */
    async timeline(
      filters: IncidentFilters,
      scope: SystemScope,
      span: 'day' | 'hour',
    ): Promise<[number, number][]> {
      const trunc =
        span === 'day'
          ? sql`incident_day(i.created)::timestamp`
          : sql`date_trunc('hour', i.created AT TIME ZONE 'UTC')`;
      const rows = await queryRows<{ t: string; n: string }>(
        db,
        sql`SELECT (extract(epoch FROM b.t) * 1000)::bigint::text AS t, b.n::text AS n
              FROM (SELECT ${trunc} AS t, count(*) AS n FROM incidents i WHERE ${incidentConditions(filters, scope)} GROUP BY 1) b
             ORDER BY b.t`,
      );
      return rows.map((r) => [Number(r.t), Number(r.n)]);
    },

    /** Titles of categories in a language. */
    async categoryTitles(ids: number[], lang: Language): Promise<Map<number, string>> {
      if (!ids.length) return new Map();
      const rows = await queryRows<{ id: number; title: string }>(
        db,
        sql`SELECT id, ${titleColumn(lang)} AS title FROM categories WHERE id IN (${list(ids)})`,
      );
      return new Map(rows.map((r) => [r.id, r.title]));
    },

    /** Events of all log sources of the systems per hour, [bucket start ms, events], in order. */
    async eventsPerHour(systems: SystemScope, from: number, to: number): Promise<[number, number][]> {
      if (systems?.length === 0) return [];
      const bySystem = systems ? sql`h.system_id IN (${list(systems)})` : sql`h.system_id = 0`;
      const rows = await queryRows<{ t: string; n: string }>(
        db,
        sql`SELECT (extract(epoch FROM h.bucket_start) * 1000)::bigint::text AS t, sum(h.events)::text AS n
              FROM eps_hourly h
             WHERE ${bySystem} AND h.bucket_start >= ${at(from)} AND h.bucket_start <= ${at(to)}
             GROUP BY h.bucket_start ORDER BY h.bucket_start`,
      );
      return rows.map((r) => [Number(r.t), Number(r.n)]);
    },

    /** The contracted EPS of the services of the systems (all systems: null). */
    async contractedEps(systems: SystemScope): Promise<number> {
      if (systems?.length === 0) return 0;
      const bySystem = systems ? sql`WHERE system_id IN (${list(systems)})` : sql``;
      const rows = await queryRows<{ n: string }>(
        db,
        sql`SELECT coalesce(sum(contracted_eps), 0)::text AS n FROM services ${bySystem}`,
      );
      return Number(rows[0]?.n ?? 0);
    },
  };
}

export type DashboardRepository = ReturnType<typeof createDashboardRepository>;
