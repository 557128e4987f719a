import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { categories, incidents, issueTypes, resolutions, services } from '../db/schema/index.ts';
import type { BuiltIncident } from './builders.ts';
import type { TestContext } from './harness.ts';

/*
 * More rows a test makes for itself (see builders.ts): services, the reference data's ids and
 * incidents in bulk.
 */

const tag = () => randomBytes(4).toString('hex');

/** A monitoring service of `systemId`, started on 2026-01-01, without SLA rows. */
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

export interface IssueTypeReference {
  id: number;
  categories: { id: number; code: string }[];
  resolutions: { id: number; kind: 'TP' | 'FP' }[];
}

/** The id, categories and resolutions of the issue type `code` in the reference data (by id). */
export async function issueTypeReference(ctx: TestContext, code = 'incident'): Promise<IssueTypeReference> {
  const db = ctx.database.db;
  const [type] = await db.select({ id: issueTypes.id }).from(issueTypes).where(eq(issueTypes.code, code));
  if (!type) throw new Error(`no issue type ${code} in the test database`);
  return {
    id: type.id,
    categories: await db
      .select({ id: categories.id, code: categories.code })
      .from(categories)
      .where(eq(categories.issueTypeId, type.id))
      .orderBy(categories.id),
    resolutions: await db
      .select({ id: resolutions.id, kind: resolutions.kind })
      .from(resolutions)
      .where(eq(resolutions.issueTypeId, type.id))
      .orderBy(resolutions.id),
  };
}

/**
 * `count` incidents of `systemId` in one statement, the i-th with the fields `fieldsOf(i)` gives
 * over the defaults of `buildIncident` (type `incident`, medium, a tagged summary); in order of `i`.
 */
export async function buildIncidents(
  ctx: TestContext,
  systemId: number,
  count: number,
  fieldsOf: (i: number) => Partial<Omit<typeof incidents.$inferInsert, 'systemId'>> = () => ({}),
): Promise<BuiltIncident[]> {
  if (count === 0) return [];
  const { id: issueTypeId } = await issueTypeReference(ctx);
  const t = tag();
  const rows = await ctx.database.db
    .insert(incidents)
    .values(
      Array.from({ length: count }, (_, i) => ({
        systemId,
        issueTypeId,
        summary: `Test incident ${t}-${i}`,
        priority: 'medium' as const,
        ...fieldsOf(i),
      })),
    )
    .returning({ id: incidents.id, key: incidents.key });
  return rows.sort((a, b) => a.key - b.key);
}
