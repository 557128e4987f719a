import { randomBytes } from 'node:crypto';
import { eq, isNull } from 'drizzle-orm';
import type { IncidentPriority } from '@soc/contracts';
import { INCIDENT_PRIORITIES, INCIDENT_STATUSES } from '@soc/contracts';
import {
  categories,
  events,
  incidents,
  issueTypes,
  logSources,
  resolutions,
  services,
  slaRows,
} from '../db/schema/index.ts';
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

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** ATT&CK tactics with their techniques, by n % 6 (the last: none). */
const MITRE: [string, string[]][] = [
  ['credential-access', ['T1110', 'T1003']],
  ['initial-access', ['T1566']],
  ['impact', ['T1486']],
  ['execution', ['T1059']],
  ['discovery', ['T1046']],
];

/**
 * The columns of the n-th incident of a varied set: every filtered column (type, categories,
 * service, SLA, notification, resolution, assignee, ids, tags, hosts, ATT&CK, rules, indicators)
 * filled on some and empty on others, and every priority and status. It was created about
 * `n × 1.5` days before `now`, except every tenth, in the last nine hours.
 */
function variedIncident(
  n: number,
  now: number,
  types: { incident: IssueTypeReference; remediation: IssueTypeReference },
  serviceId: number,
  assigneeId: number | null,
): Partial<typeof incidents.$inferInsert> {
  const type = n % 5 === 4 ? types.remediation : types.incident;
  const cats = type.categories;
  const created = n % 10 === 9 ? now - ((n % 7) + 2) * HOUR_MS : now - n * 1.5 * DAY_MS - (n % 7) * HOUR_MS;
  const status = INCIDENT_STATUSES[n % INCIDENT_STATUSES.length]!;
  const resolution = ['closed', 'completed'].includes(status) ? type.resolutions[n % 2] : undefined;
  const [tactic, techniques] = MITRE[n % 6] ?? [null, []];
  return {
    issueTypeId: type.id,
    summary: `${n % 3 === 0 ? 'LSASS memory read' : 'Suspicious logon'} on ${n % 4 === 0 ? 'DC01' : `ws-${n}`}`,
    description: n % 5 === 0 ? `Host dc02.corp.local, incident ${n}` : `Incident ${n}`,
    priority: INCIDENT_PRIORITIES[n % 4],
    status,
    categoryId: cats[n % cats.length]!.id,
    secondaryCategoryIds: n % 3 === 1 ? [cats[(n + 2) % cats.length]!.id] : [],
    serviceId: n % 3 === 2 ? null : serviceId,
    created: new Date(created),
    updated: new Date(Math.min(now, created + (n % 5) * DAY_MS)),
    notifiedAt: n % 4 === 3 ? null : new Date(created + HOUR_MS),
    sla: n % 6 === 5 ? null : new Date(created + (n % 3) * 4 * HOUR_MS),
    slaBreached: n % 4 === 1,
    resolution: resolution?.kind ?? null,
    resolutionId: resolution?.id ?? null,
    resolutionDate: resolution ? new Date(created + 2 * DAY_MS) : null,
    customerAssigneeId: n % 3 === 0 ? assigneeId : null,
    gossopkaId: n % 5 === 2 ? `GS-${n}` : null,
    tags: n % 4 === 2 ? ['vpn', 'remote'] : n % 4 === 0 ? ['malware'] : [],
    affectedSystems: n % 4 === 0 ? ['DC01.corp.local', `ws-${n}`] : [`ws-${n}`],
    mitreCov: tactic ? { [tactic]: techniques } : {},
    tactics: tactic ? [tactic] : [],
    techniques,
    detectionRules: n % 4 === 1 ? ['DNS tunnelling pattern'] : n % 4 === 2 ? ['Brute force'] : [],
    observedIocs: [
      { ioc: `d${n % 7}.bad-domain.example`, ioc_type: 'fqdn', category: [] },
      ...(n % 3 === 1
        ? [{ ioc: n % 2 ? 'C2.Bad-Domain.example' : 'c2.bad-domain.example', ioc_type: 'fqdn', category: [] }]
        : []),
      { ioc: `198.51.100.${n % 9}`, ioc_type: 'ipv4', category: [] },
    ],
  };
}

/**
 * A varied set of incidents (see `variedIncident`), numbered across the systems in order: `count`
 * of each system, assigned on some to `assigneeId`, on a service of its own named Vision, Focus,
 * Horizon or Panorama (by the system's place in the list). `now` (default: the clock) is the newest.
 */
export async function buildVariedIncidents(
  ctx: TestContext,
  systems: { id: number; count: number; assigneeId?: number }[],
  now = Date.now(),
): Promise<BuiltIncident[]> {
  const types = {
    incident: await issueTypeReference(ctx, 'incident'),
    remediation: await issueTypeReference(ctx, 'remediation'),
  };
  const built: BuiltIncident[] = [];
  for (const [s, system] of systems.entries()) {
    const service = await buildService(ctx, system.id, {
      name: ['Vision', 'Focus', 'Horizon', 'Panorama'][s % 4]!,
    });
    const first = built.length;
    built.push(
      ...(await buildIncidents(ctx, system.id, system.count, (i) =>
        variedIncident(first + i, now, types, service.id, system.assigneeId ?? null),
      )),
    );
  }
  return built;
}

/** An enabled log source of `systemId` (type `test`) that has sent no events yet. */
export async function buildLogSource(
  ctx: TestContext,
  systemId: number,
  fields: Partial<Omit<typeof logSources.$inferInsert, 'systemId'>> = {},
): Promise<{ id: number; name: string }> {
  const t = tag();
  const [row] = await ctx.database.db
    .insert(logSources)
    .values({ systemId, name: `Test source ${t}`, sourceType: 'test', host: `host-${t}`, ...fields })
    .returning({ id: logSources.id, name: logSources.name });
  return row!;
}

/**
 * Marks every event recorded so far as dispatched, so that no one is mailed about the rows a test
 * built: they are its history, as the demo load's rows are (the load empties the events).
 */
export async function forgetBuiltEvents(ctx: TestContext): Promise<void> {
  await ctx.database.db.update(events).set({ dispatchedAt: new Date() }).where(isNull(events.dispatchedAt));
}
