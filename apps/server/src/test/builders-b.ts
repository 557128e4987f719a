import { randomBytes } from 'node:crypto';
import { services } from '../db/schema/index.ts';
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
