import { randomBytes, randomUUID } from 'node:crypto';
import type { IncidentPriority } from '@soc/contracts';
import { cmdbAssets, contacts, contracts, documents, services, slaRows } from '../db/schema/index.ts';
import type { TestContext } from './harness.ts';

/*
 * More rows a test makes for itself (see builders.ts): services, assets and the like that the
 * reports, rules, tokens and security tests need. Names carry a random tag, as there.
 */

const tag = () => randomBytes(4).toString('hex');

/**
 * A service of `systemId` at the level `name` (`Focus`, `Vision` …), running since 1 January
 * 2026, with a notification deadline of `sla[priority]` calendar hours per priority given.
 */
export async function buildService(
  ctx: TestContext,
  systemId: number,
  name: string,
  options: { sla?: Partial<Record<IncidentPriority, number>> } & Partial<
    Omit<typeof services.$inferInsert, 'systemId' | 'name'>
  > = {},
): Promise<{ id: number }> {
  const { sla = {}, ...fields } = options;
  const [row] = await ctx.database.db
    .insert(services)
    .values({ systemId, name, startDate: '2026-01-01', ...fields })
    .returning({ id: services.id });
  const rows = Object.entries(sla).map(([category, hours]) => ({
    serviceId: row!.id,
    category: category as IncidentPriority,
    hours,
  }));
  if (rows.length) await ctx.database.db.insert(slaRows).values(rows);
  return row!;
}

export interface BuiltAsset {
  id: number;
  cmdbId: string;
  name: string;
}

/** A workstation of `systemId` in the CMDB inventory, first and last seen now. */
export async function buildAsset(
  ctx: TestContext,
  systemId: number,
  fields: Partial<Omit<typeof cmdbAssets.$inferInsert, 'systemId'>> = {},
): Promise<BuiltAsset> {
  const t = tag();
  const [row] = await ctx.database.db
    .insert(cmdbAssets)
    .values({ cmdbId: `CMDB-T${t}`, systemId, name: `ws-${t}`, assetType: 'workstation', ...fields })
    .returning({ id: cmdbAssets.id, cmdbId: cmdbAssets.cmdbId, name: cmdbAssets.name });
  return row!;
}

/** A contract of `systemId` (number `C-<tag>`), running from 1 January 2026 with no end. */
export async function buildContract(
  ctx: TestContext,
  systemId: number,
  fields: Partial<Omit<typeof contracts.$inferInsert, 'systemId'>> = {},
): Promise<{ id: number; number: string }> {
  const t = tag();
  const [row] = await ctx.database.db
    .insert(contracts)
    .values({ systemId, name: `Contract ${t}`, number: `C-${t}`, startDate: '2026-01-01', ...fields })
    .returning({ id: contracts.id, number: contracts.number });
  return row!;
}

/** A customer-side contact of `systemId` who receives incident notifications. */
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

/** A document of the documentation hub, by default a Russian article (provider-wide, no tenant). */
export async function buildDocument(
  ctx: TestContext,
  fields: Partial<typeof documents.$inferInsert> = {},
): Promise<{ id: number; title: string }> {
  const [row] = await ctx.database.db
    .insert(documents)
    .values({
      kind: 'article',
      document: randomUUID(),
      language: 'ru',
      title: `Test article ${tag()}`,
      ...fields,
    })
    .returning({ id: documents.id, title: documents.title });
  return row!;
}
