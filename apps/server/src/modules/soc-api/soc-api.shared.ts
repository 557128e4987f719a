import type { AnalystAlertsBulkSchema } from '@soc/contracts';
import type { Db, Tx } from '../../db/client.ts';
import type { AlertAssetRef } from '../../db/schema/index.ts';
import { badRequest, forbidden } from '../../lib/http-errors.ts';
import { msg } from '../../lib/messages.ts';
import type { AuthContext } from '../../core/auth.ts';
import { systemScope } from '../../core/auth.ts';
import { createAlertsRepository } from '../alerts/index.ts';
import { createIncidentWritesRepository, doesNotExist } from '../incidents/index.ts';
import type { CmdbAsset } from './soc-api.repository.ts';
import { createSocApiRepository } from './soc-api.repository.ts';

// what the analyst API's operations share: the checks every call makes, asset and alert writes

/** Alerts as a push names them (parsed). */
export type AlertItems = ReturnType<typeof AnalystAlertsBulkSchema.parse>['alerts'];

export function staffOnly(auth: AuthContext): void {
  if (auth.role === 'customer') throw forbidden();
}

/** A system the caller may write to, else a 400 under `field` (ids are not probed). */
export async function writableSystem(
  db: Db,
  auth: AuthContext,
  id: number,
  field = 'system',
): Promise<number> {
  const systemId = await createIncidentWritesRepository(db).systemInScope(id, systemScope(auth));
  if (systemId === undefined) throw badRequest({ [field]: [doesNotExist(id)] });
  return systemId;
}

/** Tactics and techniques of a coverage map, flattened for the GIN-indexed filter columns. */
export function flattenMitre(cov: Record<string, string[]>) {
  const clean = Object.fromEntries(Object.entries(cov).map(([t, ids]) => [t, [...new Set(ids)]]));
  return {
    mitreCov: clean,
    tactics: Object.keys(clean),
    techniques: [...new Set(Object.values(clean).flat())],
  };
}

/** The assets of a system by CMDB id; any unknown id is a 400 under `field`. */
export async function assetsOf(db: Db, systemId: number, cmdbIds: string[], field: string) {
  const wanted = [...new Set(cmdbIds)];
  if (!wanted.length) return new Map<string, CmdbAsset>();
  const rows = await createSocApiRepository(db).assetsByCmdbId(systemId, wanted);
  const map = new Map(rows.map((r) => [r.cmdbId, r]));
  const missing = wanted.filter((id) => !map.has(id));
  if (missing.length) throw badRequest({ [field]: [`No asset "${missing[0]}" in the incident's system.`] });
  return map;
}

/** Records the assets as they are now, as the incident's snapshots. */
export function snapshot(tx: Tx, incidentId: string, assets: Iterable<CmdbAsset>): Promise<void> {
  return createSocApiRepository(tx).insertSnapshots(
    [...assets].map((a) => ({
      incidentId,
      cmdbId: a.cmdbId,
      systemId: a.systemId,
      name: a.name,
      assetType: a.assetType,
      os: a.os,
      ipAddress: a.ipAddress,
      fqdn: a.fqdn,
      criticality: a.criticality,
    })),
  );
}

/** Where each uuid is stored already (incident and system), for the idempotent alert pushes. */
export async function storedAlerts(db: Db, uuids: string[]) {
  if (!uuids.length) return new Map<string, { incidentId: string | null; systemId: number }>();
  const rows = await createSocApiRepository(db).alertsByIds(uuids);
  return new Map(rows.map((r) => [r.id, r]));
}

/** Inserts new alerts of an incident with their tags; uuids already stored are skipped. */
export async function insertAlerts(
  tx: Tx,
  incident: { id: string; systemId: number },
  items: AlertItems,
  assets: Map<string, CmdbAsset>,
): Promise<string[]> {
  if (!items.length) return [];
  const now = Date.now();
  const ids = await createSocApiRepository(tx).insertNewAlerts(
    items.map((a) => ({
      id: a.uuid,
      systemId: incident.systemId,
      incidentId: incident.id,
      severity: a.severity,
      title: a.title,
      description: a.description,
      rule: a.rule,
      sourceTag: a.source_tag,
      priority: a.priority,
      platform: a.platform,
      affectedAssets: a.affected_assets.map((id): AlertAssetRef => {
        const asset = assets.get(id)!;
        return { cmdb_id: asset.cmdbId, name: asset.name, ip_address: asset.ipAddress };
      }),
      events: a.events.map((e) => ({ ...e })),
      createdTime: new Date(a.created_time ?? now),
      updatedTime: new Date(a.created_time ?? now),
    })),
  );
  for (const a of items)
    if (ids.has(a.uuid) && a.tags.length)
      await createAlertsRepository(tx).setTags(a.uuid, incident.systemId, a.tags);
  return items.map((a) => a.uuid).filter((id) => ids.has(id));
}

export const alertAssetIds = (items: { affected_assets: string[] }[]) =>
  items.flatMap((a) => a.affected_assets);

/** A planned report time must lie ahead; null and undefined mean none. */
export function futurePlan(ms: number | null | undefined): Date | null {
  if (ms === null || ms === undefined) return null;
  if (ms <= Date.now()) throw badRequest({ gossopka_planned_time: [msg('plannedTimeInPast')] });
  return new Date(ms);
}
