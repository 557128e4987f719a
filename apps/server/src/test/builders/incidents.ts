import { eq, isNull } from 'drizzle-orm';
import type { AlertSeverity, IncidentPriority, IncidentStatus } from '@soc/contracts';
import { INCIDENT_PRIORITIES, INCIDENT_STATUSES } from '@soc/contracts';
import {
  alerts,
  categories,
  comments,
  events,
  incidents,
  issueTypes,
  linkTemplates,
  misconfigurationIncidents,
  misconfigurations,
  resolutions,
  responseTeams,
} from '../../db/schema/index.ts';
import type { TestContext } from '../harness.ts';
import { BUILT_SLA_HOURS, buildService } from './services.ts';
import { insertRow, tag } from './row.ts';

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

export interface IssueTypeReference {
  id: number;
  categories: { id: number; code: string }[];
  resolutions: { id: number; kind: 'TP' | 'FP' }[];
}

/** The id, categories and resolutions of the issue type `code` in the reference data (by id). */
export async function issueTypeReference(ctx: TestContext, code = 'incident'): Promise<IssueTypeReference> {
  const db = ctx.database.db;
  const id = await issueTypeId(ctx, code);
  return {
    id,
    categories: await db
      .select({ id: categories.id, code: categories.code })
      .from(categories)
      .where(eq(categories.issueTypeId, id))
      .orderBy(categories.id),
    resolutions: await db
      .select({ id: resolutions.id, kind: resolutions.kind })
      .from(resolutions)
      .where(eq(resolutions.issueTypeId, id))
      .orderBy(resolutions.id),
  };
}

/** `count` incidents of `systemId` in one insert, the i-th with `fieldsOf(i)` over the defaults; by key. */
export async function buildIncidents(
  ctx: TestContext,
  systemId: number,
  count: number,
  fieldsOf: (i: number) => Partial<Omit<typeof incidents.$inferInsert, 'systemId'>> = () => ({}),
): Promise<BuiltIncident[]> {
  if (count === 0) return [];
  const fields = Array.from({ length: count }, (_, i) => fieldsOf(i));
  // the default type is looked up only when a row has none of its own
  const incidentType = fields.some((f) => f.issueTypeId === undefined)
    ? await issueTypeId(ctx, 'incident')
    : undefined;
  const t = tag();
  const rows = await ctx.database.db
    .insert(incidents)
    .values(
      fields.map((f, i) => ({
        systemId,
        issueTypeId: incidentType!,
        summary: `Test incident ${t}-${i}`,
        priority: 'medium' as const,
        ...f,
      })),
    )
    .returning({ id: incidents.id, key: incidents.key });
  return rows.sort((a, b) => a.key - b.key);
}

/** An incident of `systemId`: an `incident` unless `fields.type`, medium, created now, tagged summary. */
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
  const typeId = rest.issueTypeId ?? (await issueTypeId(ctx, type));
  const [row] = await buildIncidents(ctx, systemId, 1, () => ({ ...rest, issueTypeId: typeId }));
  return row!;
}

/** A comment on an incident, by `author` (a user) or by the SOC when none is given. */
export async function buildComment(
  ctx: TestContext,
  incidentId: string,
  fields: Partial<Omit<typeof comments.$inferInsert, 'incidentId'>> = {},
): Promise<{ id: number }> {
  return insertRow(
    ctx,
    comments,
    {
      incidentId,
      authorName: 'SOC',
      body: `<p>Test comment ${tag()}</p>`,
      fromSoc: fields.authorId === undefined,
      ...fields,
    },
    { id: comments.id },
  );
}

/** An alert of `systemId`, grouped into `fields.incidentId` when given. */
export async function buildAlert(
  ctx: TestContext,
  systemId: number,
  fields: Partial<Omit<typeof alerts.$inferInsert, 'systemId'>> & { severity?: AlertSeverity } = {},
): Promise<{ id: string }> {
  return insertRow(
    ctx,
    alerts,
    { systemId, severity: 'Medium', title: `Test alert ${tag()}`, platform: 'windows', ...fields },
    { id: alerts.id },
  );
}

/** Marks every event so far dispatched, so that running the jobs mails no one about the built rows. */
export async function forgetBuiltEvents(ctx: TestContext): Promise<void> {
  // the built rows are the test's history, as the demo load's rows are (the load empties the events)
  await ctx.database.db.update(events).set({ dispatchedAt: new Date() }).where(isNull(events.dispatchedAt));
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

/** `count` varied incidents per system (`variedIncident`), each system on a service of its own. */
export async function buildVariedIncidents(
  ctx: TestContext,
  systems: { id: number; count: number; assigneeId?: number }[],
  now = Date.now(),
): Promise<BuiltIncident[]> {
  const types = {
    incident: await issueTypeReference(ctx, 'incident'),
    remediation: await issueTypeReference(ctx, 'remediation'),
  };
  // numbered across the systems in order, on some assigned to `assigneeId`; the service is named
  // Vision, Focus, Horizon or Panorama by the system's place in the list; `now` is the newest
  const built: BuiltIncident[] = [];
  for (const [s, system] of systems.entries()) {
    const service = await buildService(ctx, system.id, {
      name: ['Vision', 'Focus', 'Horizon', 'Panorama'][s % 4]!,
      sla: BUILT_SLA_HOURS,
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

/** `count` alerts of `systemId` in one insert, the i-th with `fieldsOf(i)` over `buildAlert`'s defaults. */
export async function buildAlerts(
  ctx: TestContext,
  systemId: number,
  count: number,
  fieldsOf: (i: number) => Partial<Omit<typeof alerts.$inferInsert, 'systemId'>> = () => ({}),
): Promise<{ id: string }[]> {
  if (count === 0) return [];
  const t = tag();
  return ctx.database.db
    .insert(alerts)
    .values(
      Array.from({ length: count }, (_, i) => ({
        systemId,
        severity: 'Medium' as const,
        title: `Test alert ${t}-${i}`,
        platform: 'windows' as const,
        ...fieldsOf(i),
      })),
    )
    .returning({ id: alerts.id });
}

/** A response team of `systemId` (the teams an alert of that system may be handed to). */
export async function buildResponseTeam(
  ctx: TestContext,
  systemId: number,
  fields: Partial<Omit<typeof responseTeams.$inferInsert, 'systemId'>> = {},
): Promise<{ id: number; name: string }> {
  return insertRow(
    ctx,
    responseTeams,
    { systemId, name: `Test team ${tag()}`, ...fields },
    { id: responseTeams.id, name: responseTeams.name },
  );
}

/** A link template on the events' `field` (default `dst_ip`), for every system unless `systemId`. */
export async function buildLinkTemplate(
  ctx: TestContext,
  fields: Partial<typeof linkTemplates.$inferInsert> = {},
): Promise<{ id: number; name: string }> {
  const t = tag();
  return insertRow(
    ctx,
    linkTemplates,
    {
      name: `Test lookup ${t}`,
      field: 'dst_ip',
      urlTemplate: `https://lookup-${t}.example/{value}`,
      ...fields,
    },
    { id: linkTemplates.id, name: linkTemplates.name },
  );
}

/** An open medium misconfiguration of `systemId` with a recommendation, linked to `incidentIds`. */
export async function buildMisconfig(
  ctx: TestContext,
  systemId: number,
  incidentIds: string[],
  fields: Partial<Omit<typeof misconfigurations.$inferInsert, 'systemId'>> = {},
): Promise<{ id: number; recommendation: string }> {
  const t = tag();
  const row = await insertRow(
    ctx,
    misconfigurations,
    {
      systemId,
      title: `Test misconfiguration ${t}`,
      recommendation: `Fix ${t}`,
      severity: 'medium',
      ...fields,
    },
    { id: misconfigurations.id, recommendation: misconfigurations.recommendation },
  );
  if (incidentIds.length) {
    await ctx.database.db
      .insert(misconfigurationIncidents)
      .values(incidentIds.map((incidentId) => ({ misconfigurationId: row.id, incidentId })));
  }
  return row;
}
