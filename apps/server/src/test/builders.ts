import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { AlertSeverity, IncidentPriority, IncidentStatus } from '@soc/contracts';
import { alerts, comments, incidents, issueTypes, systems, userSystems, users } from '../db/schema/index.ts';
import { hashPassword } from '../lib/passwords.ts';
import type { TestContext } from './harness.ts';

/*
 * Rows a test makes for itself, so that what it checks does not hang on the names and sizes of
 * the demo data set. Plain inserts: the database's triggers (derived counts, notifications) run
 * as for rows the services write. Names carry a random tag, so builders can run on any template.
 */

/** Every account a builder makes signs in with this password (hashed once per test file). */
export const BUILT_PASSWORD = 'Built-Account-2026!';
let builtHash: Promise<string> | undefined;
const passwordHash = () => (builtHash ??= hashPassword(BUILT_PASSWORD));

const tag = () => randomBytes(4).toString('hex');

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
  const [row] = await ctx.database.db
    .insert(systems)
    .values({ isId: `IS-T${t}`, fullName: `Test system ${t}`, ...fields })
    .returning({ id: systems.id, isId: systems.isId, fullName: systems.fullName });
  return row!;
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
  const [row] = await ctx.database.db
    .insert(users)
    .values({ email: `${username}@test.example`, passwordHash: await passwordHash(), ...fields, username })
    .returning({ id: users.id });
  const id = row!.id;
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

export interface BuiltIncident {
  id: string;
  key: number;
}

/** The id of the issue type `code`; the reference data of every template has `incident`. */
async function issueTypeId(ctx: TestContext, code: string): Promise<number> {
  const [row] = await ctx.database.db
    .select({ id: issueTypes.id })
    .from(issueTypes)
    .where(eq(issueTypes.code, code));
  if (!row) throw new Error(`no issue type ${code} in the test database`);
  return row.id;
}

/** An incident of `systemId`: by default a medium one waiting for the customer, created now. */
export async function buildIncident(
  ctx: TestContext,
  systemId: number,
  fields: Partial<Omit<typeof incidents.$inferInsert, 'systemId'>> & {
    /** The issue type's code (default `incident`). */
    type?: string;
    priority?: IncidentPriority;
    status?: IncidentStatus;
  } = {},
): Promise<BuiltIncident> {
  const { type = 'incident', ...rest } = fields;
  const [row] = await ctx.database.db
    .insert(incidents)
    .values({
      systemId,
      issueTypeId: rest.issueTypeId ?? (await issueTypeId(ctx, type)),
      summary: `Test incident ${tag()}`,
      priority: 'medium',
      ...rest,
    })
    .returning({ id: incidents.id, key: incidents.key });
  return row!;
}

/** A comment on an incident, by `author` (a user) or by the SOC when none is given. */
export async function buildComment(
  ctx: TestContext,
  incidentId: string,
  fields: Partial<Omit<typeof comments.$inferInsert, 'incidentId'>> = {},
): Promise<{ id: number }> {
  const [row] = await ctx.database.db
    .insert(comments)
    .values({
      incidentId,
      authorName: 'SOC',
      body: `<p>Test comment ${tag()}</p>`,
      fromSoc: fields.authorId === undefined,
      ...fields,
    })
    .returning({ id: comments.id });
  return row!;
}

/** An alert of `systemId`, grouped into `fields.incidentId` when given. */
export async function buildAlert(
  ctx: TestContext,
  systemId: number,
  fields: Partial<Omit<typeof alerts.$inferInsert, 'systemId'>> & { severity?: AlertSeverity } = {},
): Promise<{ id: string }> {
  const [row] = await ctx.database.db
    .insert(alerts)
    .values({ systemId, severity: 'Medium', title: `Test alert ${tag()}`, platform: 'windows', ...fields })
    .returning({ id: alerts.id });
  return row!;
}
