import type { SQL } from 'drizzle-orm';
import { and, asc, desc, eq, gte, ilike, inArray, lte, or, sql } from 'drizzle-orm';
import type { AssetListQuery } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { assetSoftware, cmdbAssets, incidentSnapshots, incidents, systems } from '../../db/schema/index.ts';
import { likePattern } from '../../lib/pagination.ts';
import type { SystemScope } from '../../lib/scope.ts';
import { inScope } from '../../db/fragments.ts';

const scoped = (scope: SystemScope): SQL | undefined => inScope(cmdbAssets.systemId, scope);

const ORDER: Record<AssetListQuery['ordering'], SQL[]> = {
  name: [asc(cmdbAssets.name), asc(cmdbAssets.id)],
  '-name': [desc(cmdbAssets.name), desc(cmdbAssets.id)],
  last_seen: [asc(cmdbAssets.lastSeenAt), asc(cmdbAssets.id)],
  '-last_seen': [desc(cmdbAssets.lastSeenAt), desc(cmdbAssets.id)],
};

const assetColumns = {
  asset: cmdbAssets,
  system: { id: systems.id, isId: systems.isId, fullName: systems.fullName },
};

export function createAssetsRepository(db: Db) {
  return {
    async list(scope: SystemScope, q: AssetListQuery) {
      const where = and(
        scoped(scope),
        // the expression of the trigram index cmdb_assets_search_trgm
        q.search
          ? sql`(${cmdbAssets.name} || ' ' || ${cmdbAssets.ipAddress} || ' ' || ${cmdbAssets.fqdn}) ILIKE ${likePattern(q.search)}`
          : undefined,
        q.asset_type__in ? inArray(cmdbAssets.assetType, q.asset_type__in) : undefined,
        q.os__in ? inArray(cmdbAssets.os, q.os__in) : undefined,
        q.system__in ? inArray(cmdbAssets.systemId, q.system__in) : undefined,
        q.criticality__in ? inArray(cmdbAssets.criticality, q.criticality__in) : undefined,
        q.last_seen__gte !== undefined ? gte(cmdbAssets.lastSeenAt, new Date(q.last_seen__gte)) : undefined,
        q.last_seen__lte !== undefined ? lte(cmdbAssets.lastSeenAt, new Date(q.last_seen__lte)) : undefined,
      );
      const [rows, [count]] = await Promise.all([
        db
          .select(assetColumns)
          .from(cmdbAssets)
          .innerJoin(systems, eq(systems.id, cmdbAssets.systemId))
          .where(where)
          .orderBy(...ORDER[q.ordering])
          .limit(q.page_size)
          .offset((q.page - 1) * q.page_size),
        db
          .select({ n: sql<number>`count(*)::int` })
          .from(cmdbAssets)
          .where(where),
      ]);
      return { rows, total: count?.n ?? 0 };
    },

    async byCmdbId(scope: SystemScope, cmdbId: string) {
      const [row] = await db
        .select(assetColumns)
        .from(cmdbAssets)
        .innerJoin(systems, eq(systems.id, cmdbAssets.systemId))
        .where(and(eq(cmdbAssets.cmdbId, cmdbId), scoped(scope)))
        .limit(1);
      return row;
    },

    async osChoices(scope: SystemScope): Promise<string[]> {
      const rows = await db
        .selectDistinct({ os: cmdbAssets.os })
        .from(cmdbAssets)
        .where(and(scoped(scope), sql`${cmdbAssets.os} <> ''`))
        .orderBy(cmdbAssets.os)
        .limit(500);
      return rows.map((r) => r.os);
    },

    /** Incidents whose snapshots name the asset (of the asset's own system), newest first. */
    async incidents(cmdbId: string, systemId: number, limit: number, offset: number) {
      const where = and(eq(incidentSnapshots.cmdbId, cmdbId), eq(incidentSnapshots.systemId, systemId));
      const [rows, [count]] = await Promise.all([
        db
          .select({
            key: incidents.key,
            summary: incidents.summary,
            status: incidents.status,
            priority: incidents.priority,
            created: incidents.created,
          })
          .from(incidentSnapshots)
          .innerJoin(incidents, eq(incidents.id, incidentSnapshots.incidentId))
          .where(and(where, eq(incidents.systemId, systemId)))
          .orderBy(desc(incidentSnapshots.createdAt), desc(incidentSnapshots.incidentId))
          .limit(limit)
          .offset(offset),
        db
          .select({ n: sql<number>`count(*)::int` })
          .from(incidentSnapshots)
          .where(where),
      ]);
      return { rows, total: count?.n ?? 0 };
    },

    async software(assetId: number, limit: number, offset: number, search?: string) {
      const where = and(
        eq(assetSoftware.assetId, assetId),
        search
          ? or(
              ilike(assetSoftware.name, likePattern(search)),
              ilike(assetSoftware.vendor, likePattern(search)),
            )
          : undefined,
      );
      const [rows, [count]] = await Promise.all([
        db
          .select()
          .from(assetSoftware)
          .where(where)
          .orderBy(asc(assetSoftware.name), asc(assetSoftware.id))
          .limit(limit)
          .offset(offset),
        db
          .select({ n: sql<number>`count(*)::int` })
          .from(assetSoftware)
          .where(where),
      ]);
      return { rows, total: count?.n ?? 0 };
    },
  };
}
export type AssetsRepository = ReturnType<typeof createAssetsRepository>;
