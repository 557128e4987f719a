import { systems, userSystems, users } from '../../db/schema/index.ts';
import { hashPassword } from '../../lib/passwords.ts';
import type { TestContext } from '../harness.ts';
import { insertRow, tag } from './row.ts';

/** Every account a builder makes signs in with this password (hashed once per test file). */
export const BUILT_PASSWORD = 'Built-Account-2026!';
let builtHash: Promise<string> | undefined;
const passwordHash = () => (builtHash ??= hashPassword(BUILT_PASSWORD));

export interface BuiltSystem {
  id: number;
  isId: string;
  fullName: string;
}

/** A protected system (tenant) with no users, incidents or services of its own. */
export async function buildSystem(
  ctx: TestContext,
  fields: Partial<typeof systems.$inferInsert> = {},
): Promise<BuiltSystem> {
  const t = tag();
  return insertRow(
    ctx,
    systems,
    { isId: `IS-T${t}`, fullName: `Test system ${t}`, ...fields },
    { id: systems.id, isId: systems.isId, fullName: systems.fullName },
  );
}

export interface BuiltUser {
  id: number;
  username: string;
  /** Signs in through the API as this user and returns the access token. */
  login(): Promise<string>;
}

/** An account of `role`, member of `systems`; signs in with `BUILT_PASSWORD`. */
export async function buildUser(
  ctx: TestContext,
  options: { role: 'customer' | 'analyst' | 'admin'; systems?: number[] } & Partial<
    typeof users.$inferInsert
  >,
): Promise<BuiltUser> {
  const { systems: systemIds = [], ...fields } = options;
  const username = fields.username ?? `${options.role}-${tag()}`;
  const { id } = await insertRow(
    ctx,
    users,
    { email: `${username}@test.example`, passwordHash: await passwordHash(), ...fields, username },
    { id: users.id },
  );
  if (systemIds.length) {
    await ctx.database.db.insert(userSystems).values(systemIds.map((systemId) => ({ userId: id, systemId })));
  }
  return {
    id,
    username,
    login: async () => (await ctx.login(username, BUILT_PASSWORD)).access,
  };
}

/** A customer's account that sees `systems` (none: a customer who sees nothing). */
export const buildCustomer = (
  ctx: TestContext,
  systemIds: number[] = [],
  fields: Partial<typeof users.$inferInsert> = {},
) => buildUser(ctx, { ...fields, role: 'customer', systems: systemIds });

/** One of the provider's analysts (sees every system). */
export const buildAnalyst = (ctx: TestContext, fields: Partial<typeof users.$inferInsert> = {}) =>
  buildUser(ctx, { ...fields, role: 'analyst' });
