import type { SQL } from 'drizzle-orm';
import { and, asc, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { LogSourceListQuery, LogSourceStatus, LogSourceSummaryQuery } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { EVENT_BUCKET_SECONDS, logSourceEventBuckets, logSources, systems } from '../../db/schema/index.ts';
import { likePattern } from '../../lib/pagination.ts';
import type { SystemScope } from '../../lib/scope.ts';
import { inScope } from '../../db/fragments.ts';

/** disabled: switched off; silent: enabled but nothing for longer than its threshold; else active. */
const statusExpr = sql<LogSourceStatus>`CASE WHEN NOT ${logSources.enabled} THEN 'disabled'
  WHEN ${logSources.lastEventAt} IS NULL
    OR ${logSources.lastEventAt} < now() - ${logSources.silenceThresholdMinutes} * interval '1 minute' THEN 'silent'
  ELSE 'active' END`;

// complete hours only: the current hour's bucket is still filling
const HOUR_START = sql`date_trunc('hour', now())`;
const epsOf = (hours: number) =>
  sql<number>`coalesce((SELECT sum(${logSourceEventBuckets.events}) FROM ${logSourceEventBuckets}
    WHERE ${logSourceEventBuckets.logSourceId} = ${logSources.id}
      AND ${logSourceEventBuckets.bucketStart} >= ${HOUR_START} - ${hours} * interval '1 hour'
      AND ${logSourceEventBuckets.bucketStart} < ${HOUR_START}), 0)::float8 / ${hours * EVENT_BUCKET_SECONDS}`;

const ORDER: Record<LogSourceListQuery['ordering'], SQL[]> = {
  name: [asc(logSources.name), asc(logSources.id)],
  '-name': [desc(logSources.name), desc(logSources.id)],
  last_event: [sql`${logSources.lastEventAt} ASC NULLS FIRST`, asc(logSources.id)],
  '-last_event': [sql`${logSources.lastEventAt} DESC NULLS LAST`, desc(logSources.id)],
  source_type: [asc(logSources.sourceType), asc(logSources.name), asc(logSources.id)],
  '-source_type': [desc(logSources.sourceType), desc(logSources.name), desc(logSources.id)],
};

const baseWhere = (scope: SystemScope, q: LogSourceSummaryQuery): SQL | undefined =>
  and(
    inScope(logSources.systemId, scope),
    q.search
      ? or(
          sql`${logSources.name} ILIKE ${likePattern(q.search)}`,
          sql`${logSources.host} ILIKE ${likePattern(q.search)}`,
        )
      : undefined,
    q.source_type__in ? inArray(logSources.sourceType, q.source_type__in) : undefined,
    q.system__in ? inArray(logSources.systemId, q.system__in) : undefined,
  );

export function createLogSourcesRepository(db: Db) {
  return {
    async list(scope: SystemScope, q: LogSourceListQuery) {
      const where = and(
        baseWhere(scope, q),
        q.status__in
          ? sql`(${statusExpr}) IN (${sql.join(
              q.status__in.map((s) => sql`${s}`),
              sql`, `,
            )})`
          : undefined,
      );
      const [rows, [count]] = await Promise.all([
        db
          .select({
            source: logSources,
            system: { id: systems.id, isId: systems.isId, fullName: systems.fullName },
            status: statusExpr,
            epsHour: epsOf(1),
            epsDay: epsOf(24),
          })
          .from(logSources)
          .innerJoin(systems, eq(systems.id, logSources.systemId))
          .where(where)
          .orderBy(...ORDER[q.ordering])
          .limit(q.page_size)
          .offset((q.page - 1) * q.page_size),
        db
          .select({ n: sql<number>`count(*)::int` })
          .from(logSources)
          .where(where),
      ]);
      return { rows, total: count?.n ?? 0 };
    },

    async summary(scope: SystemScope, q: LogSourceSummaryQuery) {
      const where = baseWhere(scope, q);
      const [byType, [eps]] = await Promise.all([
        db
          .select({
            sourceType: logSources.sourceType,
            total: sql<number>`count(*)::int`,
            active: sql<number>`(count(*) FILTER (WHERE ${statusExpr} = 'active'))::int`,
            silent: sql<number>`(count(*) FILTER (WHERE ${statusExpr} = 'silent'))::int`,
            disabled: sql<number>`(count(*) FILTER (WHERE ${statusExpr} = 'disabled'))::int`,
          })
          .from(logSources)
          .where(where)
          .groupBy(logSources.sourceType)
          .orderBy(logSources.sourceType),
        db
          .select({
            hour: sql<number>`coalesce(sum(${epsOf(1)}), 0)::float8`,
            day: sql<number>`coalesce(sum(${epsOf(24)}), 0)::float8`,
          })
          .from(logSources)
          .where(where),
      ]);
      return { byType, epsHour: Number(eps?.hour ?? 0), epsDay: Number(eps?.day ?? 0) };
    },
  };
}
export type LogSourcesRepository = ReturnType<typeof createLogSourcesRepository>;
