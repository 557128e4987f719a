import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { IncidentPriority } from '@soc/contracts';
import { categories, incidents, issueTypes, resolutions, services, slaRows } from '../db/schema/index.ts';
import type { BuiltIncident } from './builders.ts';
import type { TestContext } from './harness.ts';

/*
 * More rows a test makes for itself (see builders.ts): services, the reference data's ids and
 * incidents in bulk.
 */

const tag = () => randomBytes(4).toString('hex');

/** Notification deadlines (SLA) in calendar hours per priority: those of the demo's services. */
export const BUILT_SLA_HOURS: Record<IncidentPriority, number> = { critical: 1, high: 4, medium: 8, low: 24 };

/**
 * A monitoring service of `systemId`, started on 2026-01-01, with an SLA row per priority
 * (`slaHours`, calendar hours; `{}`: none, so its incidents get no deadline).
 */
export async function buildService(
  ctx: TestContext,
  systemId: number,
  fields: Partial<Omit<typeof services.$inferInsert, 'systemId'>> & {
    slaHours?: Partial<Record<IncidentPriority, number>>;
  } = {},
): Promise<{ id: number; name: string }> {
  const { slaHours = BUILT_SLA_HOURS, ...rest } = fields;
  const [row] = await ctx.database.db
    .insert(services)
    .values({ systemId, name: `Test service ${tag()}`, startDate: '2026-01-01', ...rest })
    .returning({ id: services.id, name: services.name });
  const sla = Object.entries(slaHours);
  if (sla.length) {
    await ctx.database.db.insert(slaRows).values(
      sla.map(([category, hours]) => ({
        serviceId: row!.id,
        category: category as IncidentPriority,
        hours,
        calendar: true,
      })),
    );
  }
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
