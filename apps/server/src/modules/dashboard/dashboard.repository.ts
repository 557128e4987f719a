import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { IncidentFilters, Language } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/client.ts';
import type { SystemScope } from '../incidents/incidents.repository.ts';
import { incidentConditions } from '../incidents/incidents.repository.ts';

export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;

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

/**
 * A created range split into whole UTC days, which the daily table answers, and the partial days
 * at its ends, which are counted over the incidents. A day is whole only when the range covers all
 * of it (`lte` at or after the next midnight), so that the seams are exact to the microsecond.
 */
export interface RangeSplit {
  /** First and last whole day (`YYYY-MM-DD`), or null when no day is whole. */
  days: { from: string; to: string } | null;
  /** Half-open [from, to) millisecond intervals, and the closed end [from, lte]. */
  edges: { from: number; to: number; closedEnd: boolean }[];
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function splitRange(gte: number, lte: number, now = Date.now()): RangeSplit {
  const firstWhole = Math.ceil(gte / DAY_MS) * DAY_MS;
  // The day of `lte` is whole only when the range reaches the next midnight, or when `lte` lies
  // in the future: no incident of that day exists beyond it yet.
  const future = lte >= now;
  const endWhole = (Math.floor(lte / DAY_MS) + (future ? 1 : 0)) * DAY_MS;
  if (endWhole <= firstWhole) return { days: null, edges: [{ from: gte, to: lte, closedEnd: true }] };
  const edges: RangeSplit['edges'] = [];
  if (gte < firstWhole) edges.push({ from: gte, to: firstWhole, closedEnd: false });
  if (!future) edges.push({ from: endWhole, to: lte, closedEnd: true });
  return { days: { from: isoDay(firstWhole), to: isoDay(endWhole - DAY_MS) }, edges };
}

const list = (values: readonly (string | number)[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );
const at = (ms: number) => sql`${new Date(ms).toISOString()}::timestamptz`;

/**
 * Where the numbers come from: the daily table (only a system and a created range are filtered)
 * or the incidents themselves (any other filter).
 */
export type CountSource =
  | { kind: 'daily'; systems: number[] | null; gte?: number; lte?: number }
  | { kind: 'incidents'; filters: IncidentFilters; scope: SystemScope };

/** The dim filter of the daily table, limited to some dimensions. */
const dimFilter = (dims: readonly string[] | undefined, column: SQL) =>
  dims ? sql` AND ${column} IN (${list(dims)})` : sql``;

/**
 * The (dim, value, n) counts of the incidents matching `where`, computed set-wise over them; the
 * same keys as the SQL function incident_daily_keys (migration 0009) that fills the daily table.
 */
function rawRows(where: SQL, dims?: readonly string[]): SQL {
  const want = (dim: string) => !dims || dims.includes(dim);
  const parts: SQL[] = [];
  const distinct = (dim: string, values: SQL) =>
    sql`SELECT ${dim}::text AS dim, x.v AS value, count(*) AS n
          FROM e CROSS JOIN LATERAL (SELECT DISTINCT v FROM ${values} WHERE v IS NOT NULL) x GROUP BY x.v`;
  if (want('all')) parts.push(sql`SELECT 'all'::text AS dim, ''::text AS value, count(*) AS n FROM e`);
  if (want('priority'))
    parts.push(sql`SELECT 'priority', e.priority::text, count(*) FROM e GROUP BY e.priority`);
  if (want('status')) parts.push(sql`SELECT 'status', e.status::text, count(*) FROM e GROUP BY e.status`);
  if (want('sla_breached'))
    parts.push(sql`SELECT 'sla_breached', 'true', count(*) FROM e WHERE e.sla_breached HAVING count(*) > 0`);
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
  return sql`SELECT * FROM (WITH e AS MATERIALIZED (
      SELECT i.priority, i.status, i.sla_breached, i.category_id, i.secondary_category_ids, i.tactics,
             i.techniques, ${want('domain') || want('ip') ? sql`i.observed_iocs` : sql`'[]'::jsonb AS observed_iocs`}
        FROM incidents i WHERE ${where})
    ${sql.join(parts, sql` UNION ALL `)}) raw`;
}

export function createDashboardRepository(db: Db) {
  /** The rows (dim, value, n) of a source, before grouping. */
  function sourceRows(source: CountSource, dims?: readonly string[]): SQL {
    if (source.kind === 'incidents') {
      return rawRows(incidentConditions(source.filters, source.scope), dims);
    }
    const bySystem = source.systems ? sql`d.system_id IN (${list(source.systems)})` : sql`d.system_id = 0`;
    const parts: SQL[] = [];
    const split =
      source.gte !== undefined || source.lte !== undefined
        ? splitRange(source.gte ?? 0, source.lte ?? 8_640_000_000_000_000, Date.now())
        : null;
    if (!split || split.days) {
      const days = split?.days
        ? sql` AND d.day BETWEEN ${split.days.from}::date AND ${split.days.to}::date`
        : sql``;
      parts.push(
        sql`SELECT d.dim, d.value, d.n FROM incident_daily d WHERE ${bySystem}${days}${dimFilter(dims, sql`d.dim`)}`,
      );
    }
    for (const edge of split?.edges ?? []) {
      const scope = source.systems ? sql`i.system_id IN (${list(source.systems)})` : sql`TRUE`;
      const end = edge.closedEnd ? sql`i.created <= ${at(edge.to)}` : sql`i.created < ${at(edge.to)}`;
      parts.push(rawRows(sql`${scope} AND i.created >= ${at(edge.from)} AND ${end}`, dims));
    }
    return sql.join(parts, sql` UNION ALL `);
  }

  return {
    /**
     * Incidents per dimension value: every value of the small dimensions, the top `topN` of
     * domains and IP addresses (ties by value).
     */
    async counts(source: CountSource, topN: number, dims?: readonly string[]): Promise<DimCount[]> {
      if (source.kind === 'daily' && source.systems?.length === 0) return [];
      const query = (rows: SQL) =>
        queryRows<{ dim: string; value: string; n: string }>(
          db,
          sql`WITH g AS (SELECT s.dim, s.value, sum(s.n)::bigint AS n FROM (${rows}) s GROUP BY s.dim, s.value),
                   r AS (SELECT g.*, row_number() OVER (PARTITION BY g.dim ORDER BY g.n DESC, g.value) AS rn FROM g)
              SELECT r.dim, r.value, r.n::text AS n FROM r
               WHERE r.n > 0 AND (r.dim NOT IN (${list(TOP_DIMS)}) OR r.rn <= ${topN})`,
        );
      /** The top values of one many-valued dimension: a top-N sort instead of sorting them all. */
      const top = (dim: string) =>
        queryRows<{ dim: string; value: string; n: string }>(
          db,
          sql`SELECT ${dim}::text AS dim, s.value, sum(s.n)::bigint::text AS n FROM (${sourceRows(source, [dim])}) s
               GROUP BY s.value HAVING sum(s.n) > 0 ORDER BY sum(s.n) DESC, s.value LIMIT ${topN}`,
        );
      let parts: { dim: string; value: string; n: string }[][];
      if (source.kind === 'incidents') parts = [await query(sourceRows(source, dims))];
      else {
        // whole days: the few-valued dimensions at once, each many-valued one on its own, in parallel
        const wanted = dims ?? DAILY_DIMS;
        const small = wanted.filter((d) => !(TOP_DIMS as readonly string[]).includes(d));
        const tops = wanted.filter((d) => (TOP_DIMS as readonly string[]).includes(d));
        parts = await Promise.all([
          ...(small.length ? [query(sourceRows(source, small))] : []),
          ...tops.map((d) => top(d)),
        ]);
      }
      return parts
        .flat()
        .map((r) => ({ dim: r.dim, value: r.value, n: Number(r.n) }))
        .sort((a, b) => (a.dim < b.dim ? -1 : a.dim > b.dim ? 1 : b.n - a.n || (a.value < b.value ? -1 : 1)));
    },

    /** Incidents per UTC day (`day`) or hour (`hour`), as [bucket start ms, count]. */
    async timeline(source: CountSource, span: 'day' | 'hour'): Promise<[number, number][]> {
      if (source.kind === 'daily' && source.systems?.length === 0) return [];
      let query: SQL;
      if (source.kind === 'daily' && span === 'day') {
        // the rows of dimension `all`, per day, plus the partial days counted over the incidents
        const bySystem = source.systems
          ? sql`d.system_id IN (${list(source.systems)})`
          : sql`d.system_id = 0`;
        const split =
          source.gte !== undefined || source.lte !== undefined
            ? splitRange(source.gte ?? 0, source.lte ?? 8_640_000_000_000_000, Date.now())
            : null;
        const parts: SQL[] = [];
        if (!split || split.days) {
          const days = split?.days
            ? sql` AND d.day BETWEEN ${split.days.from}::date AND ${split.days.to}::date`
            : sql``;
          parts.push(sql`SELECT d.day, d.n FROM incident_daily d WHERE ${bySystem} AND d.dim = 'all'${days}`);
        }
        for (const edge of split?.edges ?? []) {
          const scope = source.systems ? sql`i.system_id IN (${list(source.systems)})` : sql`TRUE`;
          const end = edge.closedEnd ? sql`i.created <= ${at(edge.to)}` : sql`i.created < ${at(edge.to)}`;
          parts.push(
            sql`SELECT incident_day(i.created) AS day, 1::bigint AS n FROM incidents i
                 WHERE ${scope} AND i.created >= ${at(edge.from)} AND ${end}`,
          );
        }
        query = sql`SELECT (extract(epoch FROM t.day::timestamp) * 1000)::bigint::text AS t, sum(t.n)::text AS n
                      FROM (${sql.join(parts, sql` UNION ALL `)}) t GROUP BY t.day ORDER BY t.day`;
      } else {
        const where =
          source.kind === 'incidents'
            ? incidentConditions(source.filters, source.scope)
            : incidentConditions(
                {
                  ...(source.systems ? { system__in: source.systems } : {}),
                  created__gte: source.gte,
                  created__lte: source.lte,
                },
                null,
              );
        const trunc =
          span === 'day'
            ? sql`incident_day(i.created)::timestamp`
            : sql`date_trunc('hour', i.created AT TIME ZONE 'UTC')`;
        query = sql`SELECT (extract(epoch FROM b.t) * 1000)::bigint::text AS t, b.n::text AS n
                      FROM (SELECT ${trunc} AS t, count(*) AS n FROM incidents i WHERE ${where} GROUP BY 1) b ORDER BY b.t`;
      }
      const rows = await queryRows<{ t: string; n: string }>(db, query);
      return rows.map((r) => [Number(r.t), Number(r.n)]);
    },

    /** Titles of categories in a language. */
    async categoryTitles(ids: number[], lang: Language): Promise<Map<number, string>> {
      if (!ids.length) return new Map();
      const column = sql.raw(lang === 'ru' ? 'title_ru' : 'title_en');
      const rows = await queryRows<{ id: number; title: string }>(
        db,
        sql`SELECT id, ${column} AS title FROM categories WHERE id IN (${list(ids)})`,
      );
      return new Map(rows.map((r) => [r.id, r.title]));
    },

    /** Events of all log sources of the systems per hour, [bucket start ms, events], in order. */
    async eventsPerHour(systems: number[] | null, from: number, to: number): Promise<[number, number][]> {
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
    async contractedEps(systems: number[] | null): Promise<number> {
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
