import type { IncidentPriority } from '@soc/contracts';
import { contacts, contracts, logSources, services, slaRows } from '../../db/schema/index.ts';
import type { TestContext } from '../harness.ts';
import { insertRow, tag } from './row.ts';

/** Notification deadlines (SLA) in calendar hours per priority: those of the demo's services. */
export const BUILT_SLA_HOURS: Record<IncidentPriority, number> = { critical: 1, high: 4, medium: 8, low: 24 };

/** A service of `systemId` since 2026-01-01, an SLA row (calendar hours) per priority in `fields.sla`. */
export async function buildService(
  ctx: TestContext,
  systemId: number,
  fields: Partial<Omit<typeof services.$inferInsert, 'systemId'>> & {
    /** Hours per priority; default none (its incidents get no deadline), the demo's: `BUILT_SLA_HOURS`. */
    sla?: Partial<Record<IncidentPriority, number>>;
  } = {},
): Promise<{ id: number; name: string }> {
  const { sla = {}, ...rest } = fields;
  const row = await insertRow(
    ctx,
    services,
    { systemId, name: `Test service ${tag()}`, startDate: '2026-01-01', ...rest },
    { id: services.id, name: services.name },
  );
  const rows = Object.entries(sla).map(([category, hours]) => ({
    serviceId: row.id,
    category: category as IncidentPriority,
    hours,
    calendar: true,
  }));
  if (rows.length) await ctx.database.db.insert(slaRows).values(rows);
  return row;
}

/** A contract of `systemId` (number `C-<tag>`), running from 1 January 2026 with no end. */
export async function buildContract(
  ctx: TestContext,
  systemId: number,
  fields: Partial<Omit<typeof contracts.$inferInsert, 'systemId'>> = {},
): Promise<{ id: number; number: string }> {
  const t = tag();
  return insertRow(
    ctx,
    contracts,
    { systemId, name: `Contract ${t}`, number: `C-${t}`, startDate: '2026-01-01', ...fields },
    { id: contracts.id, number: contracts.number },
  );
}

/** A customer-side contact of `systemId` who receives its notifications, in Russian by default. */
export async function buildContact(
  ctx: TestContext,
  systemId: number,
  fields: Partial<Omit<typeof contacts.$inferInsert, 'systemId'>> = {},
): Promise<{ id: number; email: string }> {
  const t = tag();
  return insertRow(
    ctx,
    contacts,
    { systemId, lastName: `Contact ${t}`, firstName: 'Test', email: `contact-${t}@test.example`, ...fields },
    { id: contacts.id, email: contacts.email },
  );
}

/** An enabled log source of `systemId` (type `test`) that has sent no events yet. */
export async function buildLogSource(
  ctx: TestContext,
  systemId: number,
  fields: Partial<Omit<typeof logSources.$inferInsert, 'systemId'>> = {},
): Promise<{ id: number; name: string }> {
  const t = tag();
  return insertRow(
    ctx,
    logSources,
    { systemId, name: `Test source ${t}`, sourceType: 'test', host: `host-${t}`, ...fields },
    { id: logSources.id, name: logSources.name },
  );
}
