import { randomBytes, randomUUID } from 'node:crypto';
import {
  assetSoftware,
  cmdbAssets,
  contacts,
  documents,
  incidentSnapshots,
  services,
} from '../db/schema/index.ts';
import type { TestContext } from './harness.ts';

/*
 * More rows a test makes for itself (see builders.ts): the ones that helper B's tests needed.
 */

const tag = () => randomBytes(4).toString('hex');

/** A service delivered to `systemId` (no contract, no SLA rows), started on 1 January 2026. */
export async function buildService(
  ctx: TestContext,
  systemId: number,
  fields: Partial<Omit<typeof services.$inferInsert, 'systemId'>> = {},
): Promise<{ id: number; name: string }> {
  const [row] = await ctx.database.db
    .insert(services)
    .values({ systemId, name: `Test service ${tag()}`, startDate: '2026-01-01', ...fields })
    .returning({ id: services.id, name: services.name });
  return row!;
}

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
  const [row] = await ctx.database.db
    .insert(cmdbAssets)
    .values({ systemId, cmdbId: `CMDB-T${t}`, name: `host-${t}`, assetType: 'server', ...fields })
    .returning({ id: cmdbAssets.id, cmdbId: cmdbAssets.cmdbId, name: cmdbAssets.name });
  return row!;
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
  const [row] = await ctx.database.db
    .insert(incidentSnapshots)
    .values({ incidentId, cmdbId: asset.cmdbId, name: asset.name, assetType: 'server', ...fields })
    .returning({ id: incidentSnapshots.id });
  return row!;
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

/** A customer-side contact of `systemId` who receives its notifications, in Russian by default. */
export async function buildContact(
  ctx: TestContext,
  systemId: number,
  fields: Partial<Omit<typeof contacts.$inferInsert, 'systemId'>> = {},
): Promise<{ id: number; email: string }> {
  const t = tag();
  const [row] = await ctx.database.db
    .insert(contacts)
    .values({
      systemId,
      lastName: `Contact ${t}`,
      firstName: 'Test',
      email: `contact-${t}@test.example`,
      ...fields,
    })
    .returning({ id: contacts.id, email: contacts.email });
  return row!;
}

/** A knowledge-base document (an English article unless `fields` say otherwise), with no versions. */
export async function buildDocument(
  ctx: TestContext,
  fields: Partial<typeof documents.$inferInsert> = {},
): Promise<{ id: number; title: string }> {
  const [row] = await ctx.database.db
    .insert(documents)
    .values({
      kind: 'article',
      document: randomUUID(),
      language: 'en',
      title: `Test article ${tag()}`,
      ...fields,
    })
    .returning({ id: documents.id, title: documents.title });
  return row!;
}
