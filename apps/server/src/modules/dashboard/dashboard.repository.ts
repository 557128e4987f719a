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

export function splitRange(gte: number, lte: number): RangeSplit {
  const firstWhole = Math.ceil(gte / DAY_MS) * DAY_MS;
  const endWhole = Math.floor(lte / DAY_MS) * DAY_MS; // exclusive end of the whole days
  if (endWhole <= firstWhole) return { days: null, edges: [{ from: gte, to: lte, closedEnd: true }] };
  const edges: RangeSplit['edges'] = [];
  if (gte < firstWhole) edges.push({ from: gte, to: firstWhole, closedEnd: false });
  edges.push({ from: endWhole, to: lte, closedEnd: true });
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

export function createDashboardRepository(db: Db) {
  /** The rows (dim, value, n) of a source, before grouping. */
  function sourceRows(source: CountSource, dims?: readonly string[]): SQL {
    if (source.kind === 'incidents') {
      return sql`SELECT k.dim, k.value, 1::bigint AS n
                   FROM incidents i CROSS JOIN LATERAL incident_daily_keys(i) k
                  WHERE ${incidentConditions(source.filters, source.scope)}${dimFilter(dims, sql`k.dim`)}`;
    }
    const bySystem = source.systems
      ? sql`d.system_id IN (${list(source.systems)})`
      : sql`d.system_id = 0`;
    const parts: SQL[] = [];
    const split =
      source.gte !== undefined || source.lte !== undefined
        ? splitRange(source.gte ?? 0, source.lte ?? 8_640_000_000_000_000)
        : null;
    if (!split || split.days) {
      const days = split?.days ? sql` AND d.day BETWEEN ${split.days.from}::date AND ${split.days.to}::date` : sql``;
      parts.push(
        sql`SELECT d.dim, d.value, d.n FROM incident_daily d WHERE ${bySystem}${days}${dimFilter(dims, sql`d.dim`)}`,
      );
    }
    for (const edge of split?.edges ?? []) {
      const scope = source.systems ? sql`i.system_id IN (${list(source.systems)})` : sql`TRUE`;
      const end = edge.closedEnd ? sql`i.created <= ${at(edge.to)}` : sql`i.created < ${at(edge.to)}`;
      parts.push(
        sql`SELECT k.dim, k.value, 1::bigint AS n
              FROM incidents i CROSS JOIN LATERAL incident_daily_keys(i) k
             WHERE ${scope} AND i.created >= ${at(edge.from)} AND ${end}${dimFilter(dims, sql`k.dim`)}`,
      );
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
      const rows = await queryRows<{ dim: string; value: string; n: string }>(
        db,
        sql`WITH g AS (SELECT s.dim, s.value, sum(s.n) AS n FROM (${sourceRows(source, dims)}) s
                        GROUP BY s.dim, s.value),
                 r AS (SELECT g.*, row_number() OVER (PARTITION BY g.dim ORDER BY g.n DESC, g.value) AS rn FROM g)
            SELECT r.dim, r.value, r.n::text AS n FROM r
             WHERE r.n > 0 AND (r.dim NOT IN (${list(TOP_DIMS)}) OR r.rn <= ${topN})
             ORDER BY r.dim, r.n DESC, r.value`,
      );
      return rows.map((r) => ({ dim: r.dim, value: r.value, n: Number(r.n) }));
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
            ? splitRange(source.gte ?? 0, source.lte ?? 8_640_000_000_000_000)
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
        const trunc = span === 'day' ? sql`incident_day(i.created)::timestamp` : sql`date_trunc('hour', i.created AT TIME ZONE 'UTC')`;
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
      const bySystem = systems ? sql`b.system_id IN (${list(systems)}) AND ` : sql``;
      const rows = await queryRows<{ t: string; n: string }>(
        db,
        sql`SELECT (extract(epoch FROM b.bucket_start) * 1000)::bigint::text AS t, sum(b.events)::text AS n
              FROM log_source_event_buckets b
             WHERE ${bySystem}b.bucket_start >= ${at(from)} AND b.bucket_start <= ${at(to)}
             GROUP BY b.bucket_start ORDER BY b.bucket_start`,
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
