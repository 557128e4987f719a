import { sql } from 'drizzle-orm';
import type { IncidentPriority, IncidentStatus, Language } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/client.ts';
import { titleColumn } from '../../db/fragments.ts';

// The SQL of a report's figures and incident list (a read model of the reports module).

/** Everything a report shows except the incident list (which is streamed in batches). */
export interface ReportSummary {
  total: number;
  previousTotal: number;
  byPriority: { key: IncidentPriority; count: number }[];
  byStatus: { key: IncidentStatus; count: number }[];
  byCategory: { title: string; count: number }[];
  sla: { met: number; breached: number; pending: number };
  /** Mean hours from creation to the customer's confirmation, and to the resolution. */
  meanHoursToConfirm: number | null;
  meanHoursToClose: number | null;
  topDomains: { value: string; count: number }[];
  topIps: { value: string; count: number }[];
  techniques: { id: string; count: number }[];
  eps: { system: string; average: number; maximum: number; contracted: number; excessHours: number }[];
}

export interface ReportIncidentRow {
  key: number;
  created: Date;
  priority: IncidentPriority;
  status: IncidentStatus;
  summary: string;
  system: string;
  slaBreached: boolean;
}

const TOP = 10;
/** Incidents per batch of the list. */
const BATCH = 500;
const IP_TYPES = ['ipv4', 'ipv6', 'ip', 'ip-dst', 'ip-src'];
const DOMAIN_TYPES = ['fqdn', 'domain', 'hostname', 'url'];

const ints = (ids: number[]) =>
  sql`ARRAY[${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )}]::int[]`;

/** The data of a report over the incidents of its systems and period. */
export function createReportDataRepository(db: Db) {
  return {
    /**
     * Aggregates of the incidents of `systemIds` created in [start, finish]. Every query filters on
     * (system_id, created), served by incidents_system_created_idx.
     */
    async reportSummary(
      systemIds: number[],
      start: Date,
      finish: Date,
      lang: Language,
    ): Promise<ReportSummary> {
      if (!systemIds.length) {
        return {
          total: 0,
          previousTotal: 0,
          byPriority: [],
          byStatus: [],
          byCategory: [],
          sla: { met: 0, breached: 0, pending: 0 },
          meanHoursToConfirm: null,
          meanHoursToClose: null,
          topDomains: [],
          topIps: [],
          techniques: [],
          eps: [],
        };
      }
      const ids = ints(systemIds);
      const startIso = start.toISOString();
      const finishIso = finish.toISOString();
      const inPeriod = sql`i.system_id = ANY(${ids}) AND i.created >= ${startIso}::timestamptz AND i.created <= ${finishIso}::timestamptz`;
      const length = finish.getTime() - start.getTime() + 1;
      const prevStart = new Date(start.getTime() - length).toISOString();

      const [totals] = await queryRows<{
        total: number;
        previous: number;
        met: number;
        breached: number;
        pending: number;
        close_h: number | null;
      }>(
        db,
        sql`SELECT
              count(*) FILTER (WHERE i.created >= ${startIso}::timestamptz)::int AS total,
              count(*) FILTER (WHERE i.created < ${startIso}::timestamptz)::int AS previous,
              count(*) FILTER (WHERE i.created >= ${startIso}::timestamptz AND i.sla IS NOT NULL AND NOT i.sla_breached AND i.notified_at IS NOT NULL)::int AS met,
              count(*) FILTER (WHERE i.created >= ${startIso}::timestamptz AND i.sla_breached)::int AS breached,
              count(*) FILTER (WHERE i.created >= ${startIso}::timestamptz AND NOT i.sla_breached AND (i.sla IS NULL OR i.notified_at IS NULL))::int AS pending,
              (avg(extract(epoch FROM (i.resolution_date - i.created))) FILTER (WHERE i.created >= ${startIso}::timestamptz AND i.resolution_date IS NOT NULL) / 3600)::float8 AS close_h
            FROM incidents i
            WHERE i.system_id = ANY(${ids}) AND i.created >= ${prevStart}::timestamptz AND i.created <= ${finishIso}::timestamptz`,
      );
      const grouped = (column: 'priority' | 'status') =>
        queryRows<{ key: string; count: number }>(
          db,
          sql`SELECT i.${sql.raw(column)} AS key, count(*)::int AS count FROM incidents i WHERE ${inPeriod}
              GROUP BY 1 ORDER BY 2 DESC, 1`,
        );
      const byPriority = (await grouped('priority')) as ReportSummary['byPriority'];
      const byStatus = (await grouped('status')) as ReportSummary['byStatus'];
      const byCategory = await queryRows<{ title: string; count: number }>(
        db,
        sql`SELECT coalesce(${titleColumn(lang, 'c')}, '—') AS title, count(*)::int AS count
              FROM incidents i LEFT JOIN categories c ON c.id = i.category_id
             WHERE ${inPeriod} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT ${TOP}`,
      );
      // the customer's confirmation is the first `incident.confirm` entry of the audit log
      const [confirm] = await queryRows<{ hours: number | null }>(
        db,
        sql`SELECT (avg(extract(epoch FROM (a.at - i.created))) / 3600)::float8 AS hours
              FROM incidents i
              JOIN LATERAL (SELECT min(l.at) AS at FROM audit_log l
                             WHERE l.object_type = 'incident' AND l.object_id = i.key::text
                               AND l.action = 'incident.confirm') a ON a.at IS NOT NULL
             WHERE ${inPeriod}`,
      );
      const iocs = (types: string[]) =>
        queryRows<{ value: string; count: number }>(
          db,
          sql`SELECT o->>'ioc' AS value, count(DISTINCT i.id)::int AS count
                FROM incidents i, jsonb_array_elements(i.observed_iocs) o
               WHERE ${inPeriod} AND lower(o->>'ioc_type') IN (${sql.join(
                 types.map((t) => sql`${t}`),
                 sql`, `,
               )})
               GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT ${TOP}`,
        );
      const techniques = await queryRows<{ id: string; count: number }>(
        db,
        sql`SELECT t AS id, count(*)::int AS count FROM incidents i, unnest(i.techniques) t
             WHERE ${inPeriod} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 20`,
      );
      // hourly buckets (log_source_event_buckets_system_idx) against the contracted EPS of the services
      const eps = await queryRows<{
        system: string;
        average: number;
        maximum: number;
        contracted: number;
        excess: number;
      }>(
        db,
        sql`WITH hours AS (
              SELECT b.system_id, b.bucket_start, sum(b.events)::float8 / 3600 AS eps
                FROM log_source_event_buckets b
               WHERE b.system_id = ANY(${ids}) AND b.bucket_start >= ${startIso}::timestamptz AND b.bucket_start <= ${finishIso}::timestamptz
               GROUP BY 1, 2),
            contract AS (SELECT sv.system_id, sum(sv.contracted_eps)::float8 AS eps FROM services sv
                          WHERE sv.system_id = ANY(${ids}) GROUP BY 1)
            SELECT s.is_id || ' ' || s.full_name AS system,
                   coalesce(avg(h.eps), 0)::float8 AS average, coalesce(max(h.eps), 0)::float8 AS maximum,
                   coalesce(c.eps, 0)::float8 AS contracted,
                   (count(*) FILTER (WHERE c.eps > 0 AND h.eps > c.eps))::int AS excess
              FROM systems s LEFT JOIN hours h ON h.system_id = s.id LEFT JOIN contract c ON c.system_id = s.id
             WHERE s.id = ANY(${ids})
             GROUP BY s.id, s.is_id, s.full_name, c.eps ORDER BY s.is_id`,
      );
      return {
        total: totals?.total ?? 0,
        previousTotal: totals?.previous ?? 0,
        byPriority,
        byStatus,
        byCategory,
        sla: { met: totals?.met ?? 0, breached: totals?.breached ?? 0, pending: totals?.pending ?? 0 },
        meanHoursToConfirm: confirm?.hours ?? null,
        meanHoursToClose: totals?.close_h ?? null,
        topDomains: await iocs(DOMAIN_TYPES),
        topIps: await iocs(IP_TYPES),
        techniques,
        eps: eps.map((r) => ({
          system: r.system,
          average: Number(r.average),
          maximum: Number(r.maximum),
          contracted: Number(r.contracted),
          excessHours: r.excess,
        })),
      };
    },

    /** The incidents of the period in creation order, a keyset batch at a time (memory stays flat). */
    async *reportIncidents(
      systemIds: number[],
      start: Date,
      finish: Date,
      limit: number,
    ): AsyncGenerator<ReportIncidentRow[]> {
      if (!systemIds.length) return;
      const ids = ints(systemIds);
      let after: { created: string; key: number } | null = null;
      let sent = 0;
      while (sent < limit) {
        const size = Math.min(BATCH, limit - sent);
        const cursor: { created: string; key: number } | null = after;
        const rows: {
          key: number;
          created: string | Date;
          priority: IncidentPriority;
          status: IncidentStatus;
          summary: string;
          system: string;
          sla_breached: boolean;
          cursor: string;
        }[] = await queryRows(
          db,
          sql`SELECT i.key::int8 AS key, i.created, i.priority, i.status, i.summary, s.is_id AS system, i.sla_breached,
                       i.created::text AS cursor
                FROM incidents i JOIN systems s ON s.id = i.system_id
               WHERE i.system_id = ANY(${ids}) AND i.created >= ${start.toISOString()}::timestamptz
                 AND i.created <= ${finish.toISOString()}::timestamptz
                 ${cursor ? sql`AND (i.created, i.key) > (${cursor.created}::timestamptz, ${cursor.key})` : sql``}
               ORDER BY i.created, i.key LIMIT ${size}`,
        );
        if (!rows.length) return;
        sent += rows.length;
        const last = rows[rows.length - 1]!;
        // the text keeps the microseconds that a JS Date would drop
        after = { created: last.cursor, key: Number(last.key) };
        yield rows.map((r) => ({
          key: Number(r.key),
          created: new Date(r.created),
          priority: r.priority,
          status: r.status,
          summary: r.summary,
          system: r.system,
          slaBreached: r.sla_breached,
        }));
        if (rows.length < size) return;
      }
    },
  };
}
