import { assetSoftware, cmdbAssets, incidentSnapshots } from '../../db/schema/index.ts';
import type { TestContext } from '../harness.ts';
import { insertRow, tag } from './row.ts';

export interface BuiltAsset {
  id: number;
  cmdbId: string;
  name: string;
}

/** An asset (CMDB inventory item) of `systemId`: by default a medium-critical server seen now. */
export async function buildAsset(
  ctx: TestContext,
  systemId: number,
  fields: Partial<Omit<typeof cmdbAssets.$inferInsert, 'systemId'>> = {},
): Promise<BuiltAsset> {
  const t = tag();
  return insertRow(
    ctx,
    cmdbAssets,
    { systemId, cmdbId: `CMDB-T${t}`, name: `host-${t}`, assetType: 'server', ...fields },
    { id: cmdbAssets.id, cmdbId: cmdbAssets.cmdbId, name: cmdbAssets.name },
  );
}

/** The snapshot of an asset involved in an incident (what links the asset to the incident). */
export async function buildSnapshot(
  ctx: TestContext,
  incidentId: string,
  asset: { cmdbId: string; name: string },
  fields: Partial<Omit<typeof incidentSnapshots.$inferInsert, 'incidentId' | 'cmdbId'>> & {
    systemId: number;
  },
): Promise<{ id: number }> {
  return insertRow(
    ctx,
    incidentSnapshots,
    { incidentId, cmdbId: asset.cmdbId, name: asset.name, assetType: 'server', ...fields },
    { id: incidentSnapshots.id },
  );
}

/** Software installed on an asset, one row per item (vendor `Test vendor` unless given). */
export async function buildSoftware(
  ctx: TestContext,
  assetId: number,
  items: Partial<Omit<typeof assetSoftware.$inferInsert, 'assetId'>>[],
): Promise<void> {
  await ctx.database.db
    .insert(assetSoftware)
    .values(items.map((item) => ({ assetId, name: `Software ${tag()}`, vendor: 'Test vendor', ...item })));
}
