import type { SQL } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import type { IncidentStatus, IocType } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { queryRows, queryRowsNamed } from '../../db/client.ts';
import type { SystemScope } from '../../lib/scope.ts';
import { inScope } from '../../db/fragments.ts';

/** One indicator of the feed: an IOC value of one type, in one system (or across the scope). */
export interface IocFeedRow {
  /** The system it was observed in; with `bySystem` false, the lowest of them. */
  system_id: number;
  ioc_type: IocType;
  ioc: string;
  /** Creation times (ms) of the first and the last incident that lists it. */
  first_seen: number;
  last_seen: number;
  /** How many of the filtered incidents list it. */
  incidents: number;
  /** The categories analysts gave it, merged over those incidents, sorted. */
  categories: string[];
}

/** Where a page starts: after this key, in the feed's order (system, type, value in C collation). */
export interface IocFeedPosition {
  system_id: number | null;
  ioc_type: string;
  ioc: string;
}

export interface IocFeedFilter {
  systems: SystemScope;
  types?: readonly IocType[] | undefined;
  statuses?: readonly IncidentStatus[] | undefined;
  /** Incidents created at or after (ms). */
  since?: number | undefined;
  /** One indicator per system (STIX, CSV), or one per value across the scope (plain text). */
  bySystem: boolean;
  after?: IocFeedPosition | undefined;
  limit: number;
}

/** What the feed's ETag and Last-Modified are made of. */
export interface IocFeedVersion {
  /** Sum of the systems' versions: each only grows, so any change raises it. */
  sum: number;
  /** Systems with a version row (a system's first IOC adds one). */
  rows: number;
  /** When the newest of them moved (ms); null: none ever did. */
  changed_at: number | null;
}

const list = (values: readonly string[]): SQL =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );

export function createIocFeedRepository(db: Db) {
  return {
    /** The versions of the feeds of `systems`: one primary-key lookup per system. */
    async version(systems: SystemScope): Promise<IocFeedVersion> {
      const [row] = await queryRowsNamed<{ sum: string | number; rows: number; changed_at: number | null }>(
        db,
        sql`SELECT coalesce(sum(version), 0)::text AS sum, count(*)::int AS rows,
                   floor(extract(epoch FROM max(changed_at)) * 1000)::float8 AS changed_at
              FROM ioc_feed_versions WHERE ${inScope(sql`system_id`, systems) ?? sql`TRUE`}`,
      );
      return { sum: Number(row?.sum ?? 0), rows: row?.rows ?? 0, changed_at: row?.changed_at ?? null };
    },

    /**
     * A page of the feed: the IOCs of the filtered incidents that list any (incidents_ioc_feed_idx),
     * grouped by system, type and value, in that order, after `after`; `limit + 1` rows, so that
     * the caller knows whether a next page exists.
     */
    async page(f: IocFeedFilter): Promise<IocFeedRow[]> {
      const where: SQL[] = [sql`i.observed_iocs <> '[]'::jsonb`, sql`o.v <> ''`];
      const scope = inScope(sql`i.system_id`, f.systems);
      if (scope) where.push(scope);
      if (f.statuses) where.push(sql`i.status IN (${list(f.statuses)})`);
      if (f.since !== undefined)
        where.push(sql`i.created >= ${new Date(f.since).toISOString()}::timestamptz`);
      if (f.types) where.push(sql`o.t IN (${list(f.types)})`);
      const key = f.bySystem ? sql`i.system_id, o.t, o.v` : sql`o.t, o.v`;
      if (f.after) {
        where.push(
          f.bySystem
            ? sql`(i.system_id, o.t, o.v) > (${f.after.system_id ?? 0}::int, ${f.after.ioc_type}::text COLLATE "C", ${f.after.ioc}::text COLLATE "C")`
            : sql`(o.t, o.v) > (${f.after.ioc_type}::text COLLATE "C", ${f.after.ioc}::text COLLATE "C")`,
        );
      }
      return queryRows<IocFeedRow>(
        db,
        sql`SELECT ${f.bySystem ? sql`i.system_id` : sql`min(i.system_id)`} AS system_id,
                   o.t AS ioc_type, o.v AS ioc,
                   floor(extract(epoch FROM min(i.created)) * 1000)::float8 AS first_seen,
                   floor(extract(epoch FROM max(i.created)) * 1000)::float8 AS last_seen,
                   count(DISTINCT i.id)::int AS incidents,
                   coalesce(array_agg(DISTINCT c.name ORDER BY c.name) FILTER (WHERE c.name <> ''), '{}') AS categories
              FROM incidents i
             CROSS JOIN LATERAL (
                   SELECT (e->>'ioc_type') COLLATE "C" AS t, btrim(e->>'ioc') COLLATE "C" AS v, e->'category' AS cats
                     FROM jsonb_array_elements(CASE WHEN jsonb_typeof(i.observed_iocs) = 'array'
                                                    THEN i.observed_iocs ELSE '[]'::jsonb END) AS e
                    WHERE jsonb_typeof(e) = 'object') o
              LEFT JOIN LATERAL jsonb_array_elements_text(CASE WHEN jsonb_typeof(o.cats) = 'array'
                                                             THEN o.cats ELSE '[]'::jsonb END) AS c(name) ON TRUE
             WHERE ${sql.join(where, sql` AND `)}
             GROUP BY ${key}
             ORDER BY ${key}
             LIMIT ${f.limit + 1}`,
      );
    },
  };
}
export type IocFeedRepository = ReturnType<typeof createIocFeedRepository>;
