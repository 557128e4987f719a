import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client.ts';
import type { TestContext } from '../test/harness.ts';
import type { BuiltSystem, BuiltUser } from '../test/builders.ts';
import {
  BUILT_PASSWORD,
  buildAlert,
  buildAnalyst,
  buildAsset,
  buildContact,
  buildContract,
  buildCustomer,
  buildDocument,
  buildIncident,
  buildLogSource,
  buildReport,
  buildReportSchedule,
  buildResponseTeam,
  buildService,
  buildSystem,
  buildUser,
} from '../test/builders.ts';
import { bearer, createTestContext } from '../test/harness.ts';
import type { Answer, ApiOperation } from './openapi-operations.ts';
import {
  comparable,
  fillPath,
  injectAnswer,
  loadOperations,
  multipart,
  paramSlot,
  sampleOf,
} from './openapi-operations.ts';

/*
 * Tenant isolation matrix (issue 15, design §4 "Tenant scope"). The routes come from the app's
 * OpenAPI document, so a route added later is covered without editing this file, or makes it
 * fail until its parameter has a resolver below or the route is reviewed into the allow-list.
 *
 * Actors, all built by this file on the empty template: alice (customer of system A) calls every
 * route with the ids of objects of system B (bob's). Each answer must be indistinguishable from
 * the answer for an id that does not exist (same status and body), 404 or 403 for objects, and
 * must never contain a marker of B's data (B's system code and name, uuids of B's incidents,
 * alerts and files, and bob's e-mail). The owner, bob, gets a different answer for the same ids, which proves that
 * each resolver names a real object of B.
 */

let ctx: TestContext;
let ops: ApiOperation[];
const tokens: Record<string, string> = {};
/** The built accounts, by the name their tokens go by. */
const users = {} as Record<'alice' | 'bob' | 'analyst' | 'admin', BuiltUser>;

/** Ids of one tenant's objects. */
interface TenantIds {
  systemId: number;
  isId: string;
  key: number;
  alertUuid: string;
  attachmentId: string;
  cmdbId: string;
  reportId: number;
  scheduleId: number;
  userId: number;
  alertGroup: number;
  ruleId: number;
  /** The customer's personal API token (issue 13). */
  personalTokenId: string;
  /** The system's first contract, service, contact and log source (administration, analyst API). */
  contractId: number;
  serviceId: number;
  contactId: number;
  logSourceId: number;
  /** A task (service request) the customer opened with a file, and a recommendation (issue 12). */
  taskId: number;
  taskFileId: string;
  misconfigId: number;
  /** A reply to the system's incident mail held in the analysts' quarantine (issue 25 item 4). */
  quarantineId: number;
  /** A webhook endpoint of the system and one delivery of it (issue 29). */
  webhookId: number;
  webhookDeliveryId: number;
  /** An item of the customer's notification centre (issue 40). */
  inboxItemId: number;
}
let A: TenantIds;
let B: TenantIds;
/** Strings that only B's data contains. */
let markers: string[];

const MISSING_INT = 999_999_999;
const MISSING_UUID = randomUUID();

/** The value of a path parameter, by the literal segment before it. */
interface SlotValues {
  own: string | number;
  /** B's object; several values where a parent of A with a child of B is also worth trying. */
  foreign: (string | number)[];
  missing: string | number;
  /** Who can read the foreign object (default bob). */
  owner?: string;
}
const slotResolvers: Record<string, () => SlotValues> = {
  'incs/{key}': () => ({ own: A.key, foreign: [B.key], missing: MISSING_INT }),
  'alerts/{uuid}': () => ({ own: A.alertUuid, foreign: [B.alertUuid], missing: MISSING_UUID }),
  'attachments/{id}': () => ({ own: A.attachmentId, foreign: [B.attachmentId], missing: MISSING_UUID }),
  'systems/{id}': () => ({ own: A.systemId, foreign: [B.systemId], missing: MISSING_INT }),
  'assets/{cmdbId}': () => ({ own: A.cmdbId, foreign: [B.cmdbId], missing: 'IS-9999-00001' }),
  'reports/{id}': () => ({ own: A.reportId, foreign: [B.reportId], missing: MISSING_INT }),
  'report_tasks/{id}': () => ({ own: A.scheduleId, foreign: [B.scheduleId], missing: MISSING_INT }),
  // rules are scoped by service level, not by system: B's rule is of a level only B has
  'rules/{id}': () => ({ own: A.ruleId, foreign: [B.ruleId], missing: MISSING_INT }),
  // the caller's own personal API tokens: bob's token is not alice's to revoke
  'tokens/{id}': () => ({ own: A.personalTokenId, foreign: [B.personalTokenId], missing: MISSING_UUID }),
  // administration (role admin; customers get the role's 403 before the id is looked at)
  'service_tokens/{id}': () => ({
    own: A.personalTokenId,
    foreign: [B.personalTokenId],
    missing: MISSING_UUID,
    owner: 'admin',
  }),
  'contracts/{id}': () => ({
    own: A.contractId,
    foreign: [B.contractId],
    missing: MISSING_INT,
    owner: 'admin',
  }),
  'services/{id}': () => ({ own: A.serviceId, foreign: [B.serviceId], missing: MISSING_INT, owner: 'admin' }),
  'contacts/{id}': () => ({ own: A.contactId, foreign: [B.contactId], missing: MISSING_INT, owner: 'admin' }),
  'users/{id}': () => ({ own: A.userId, foreign: [B.userId], missing: MISSING_INT, owner: 'admin' }),
  // the analyst API (roles analyst and admin); a staff token scoped to A is tested separately below
  'incidents/{key}': () => ({ own: A.key, foreign: [B.key], missing: MISSING_INT, owner: 'analyst' }),
  'log_sources/{id}': () => ({
    own: A.logSourceId,
    foreign: [B.logSourceId],
    missing: MISSING_INT,
    owner: 'analyst',
  }),
  // service requests (issue 12): the task, and a file of A's task or B's under the other's task
  'tasks/{id}': () => ({ own: A.taskId, foreign: [B.taskId], missing: MISSING_INT }),
  'attachments/{file}': () => ({ own: A.taskFileId, foreign: [B.taskFileId], missing: MISSING_UUID }),
  // security recommendations (issue 12)
  'misconfigs/{id}': () => ({ own: A.misconfigId, foreign: [B.misconfigId], missing: MISSING_INT }),
  // the analysts' mail quarantine (customers get the role's 403)
  'mail_quarantine/{id}': () => ({
    own: A.quarantineId,
    foreign: [B.quarantineId],
    missing: MISSING_INT,
    owner: 'analyst',
  }),
  // outbound webhooks (issue 29): the system's endpoint and a delivery of it
  'webhooks/{id}': () => ({ own: A.webhookId, foreign: [B.webhookId], missing: MISSING_INT }),
  'deliveries/{deliveryId}': () => ({
    own: A.webhookDeliveryId,
    foreign: [B.webhookDeliveryId],
    missing: MISSING_INT,
  }),
  // the caller's own notification centre: bob's item is not alice's to mark read
  'inbox/{id}': () => ({ own: A.inboxItemId, foreign: [B.inboxItemId], missing: MISSING_INT }),
  'files/{path}': () => ({
    own: `incidents/${A.key}/${A.attachmentId}`,
    // B's file by its own path, and B's file id under A's incident
    foreign: [`incidents/${B.key}/${B.attachmentId}`, `incidents/${A.key}/${B.attachmentId}`],
    missing: `incidents/${MISSING_INT}/${MISSING_UUID}`,
  }),
};

/**
 * Path parameters that do not name a tenant's object (reviewed): a route whose parameters are
 * all here is not part of the matrix. Where `shared` gives a value, alice still reads the route
 * with it and the answer is scanned for B's data (documents are shared, bob's comments are not);
 * on a route that also names a tenant's object, `shared` is the value of this parameter.
 */
const NOT_TENANT_SLOTS: Record<string, { reason: string; shared?: () => string | number }> = {
  'oidc/{name}': { reason: 'an identity provider of the configuration, before sign-in' },
  'issues/{type}': { reason: 'issue-type catalogue, the same for every customer', shared: () => 1 },
  'techniques/{technique_id}': {
    reason: 'a MITRE technique id; the answer is computed over the caller’s rule scope',
    shared: () => 'T1003',
  },
  'instructions/{id}': {
    reason: 'documents are provider-wide: every signed-in user reads them (issue 8)',
    shared: () => documentIds.instruction!,
  },
  'response_instructions/{id}': {
    reason: 'documents are provider-wide (issue 8)',
    shared: () => documentIds.response_instruction!,
  },
  'articles/{id}': { reason: 'documents are provider-wide (issue 8)', shared: () => documentIds.article! },
  'attachments/{attachmentId}': { reason: 'attachments of provider-wide documents (issue 8)' },
  '{id}/{action}': {
    reason: 'an action on a recommendation (fix, accept_risk, reopen); the recommendation is the object',
    shared: () => 'fix',
  },
  'documents/{kind}': {
    reason: 'a document kind (instructions, response_instructions, articles); documents are provider-wide',
  },
};
/** A document of each kind, which bob has commented on. */
const documentIds: Record<string, number> = {};
/** Text of bob's comments on the documents (customers see only their own systems' comments). */
const BOBS_DOCUMENT_COMMENT = 'bobs-private-document-note';

/** Operations that are not tenant-scoped at all (reviewed). Stale entries fail the test. */
const NOT_TENANT_ROUTES: Record<string, string> = {
  'GET /healthz': 'liveness probe',
  'GET /readyz': 'readiness probe',
  'POST /api/v0/auth/token/obtain/': 'sign-in',
  'POST /api/v0/auth/token/mfa/obtain/': 'sign-in, second factor',
  'POST /api/v0/auth/token/mfa/generate_challenge/': 'sign-in, second factor',
  'POST /api/v0/auth/token/refresh/': 'the caller’s own refresh token',
  'POST /api/v0/auth/logout/': 'the caller’s own session',
  'PUT /api/v0/auth/password_change/': 'the caller’s own password',
  'POST /api/v0/auth/mfa/code/': 'the caller’s own second factor (an SMS to their own phone)',
  'POST /api/v0/auth/mfa/totp/setup/': 'the caller’s own second factor',
  'POST /api/v0/auth/mfa/totp/confirm/': 'the caller’s own second factor',
  'POST /api/v0/auth/mfa/totp/disable/': 'the caller’s own second factor',
  'POST /api/v0/auth/token/ticket/': 'one-time sign-in ticket of an external login',
  'POST /api/v0/soc/inbound_mail/':
    'mail gateway with its own shared secret; the sender is matched to the incident’s system (inbound-mail tests)',
  'POST /api/v0/alerts/links_templates/': 'analysts only; templates are provider-wide',
  'POST /api/v0/soc/instructions/': 'analysts only; documents are provider-wide',
  'POST /api/v0/soc/response_instructions/': 'analysts only; documents are provider-wide',
  'POST /api/v0/soc/articles/': 'analysts only; documents are provider-wide',
  'POST /api/v0/analyst/rules/':
    'analysts only; rules are provider-wide (scoped by service level, not by system); no ids in the body',
  'POST /api/v0/analyst/markdown/': 'analysts only; renders the body’s text, reads nothing stored',
  'PUT /api/v0/admin/branding/': 'administrators only; branding is provider-wide; no ids in the body',
  'POST /api/v0/admin/rules/import/':
    'administrators only; Sigma rules are provider-wide (scoped by service level); the body names no system',
  'POST /api/v0/events/ticket/':
    'the caller’s own stream ticket, no body; what the stream shows is tested below (event streams)',
  'PUT /api/v0/notifications/preferences/':
    'the caller’s own preferences (events, scope, language); no ids in the body',
  'POST /api/v0/notifications/inbox/read_all/':
    'the caller’s own notification centre: `up_to` bounds the caller’s items only (inbox tests)',
};

/** Query parameters that carry a tenant's object id, and B's value for each. */
const idFilters: Record<string, (item: 'integer' | 'string') => { foreign: string; missing: string }> = {
  system__in: (item) =>
    item === 'string'
      ? { foreign: B.isId, missing: 'IS-9999' }
      : { foreign: String(B.systemId), missing: String(MISSING_INT) },
  system: () => ({ foreign: String(B.systemId), missing: String(MISSING_INT) }),
  // the report forms' recipient rules, by system code
  systems: () => ({ foreign: B.isId, missing: 'IS-9999' }),
  key__in: () => ({ foreign: String(B.key), missing: String(MISSING_INT) }),
  incident__in: () => ({ foreign: String(B.key), missing: String(MISSING_INT) }),
  // the analysts' mail quarantine by incident key
  incident: () => ({ foreign: String(B.key), missing: String(MISSING_INT) }),
  customer_assignee__in: () => ({ foreign: String(B.userId), missing: String(MISSING_INT) }),
  assignee__in: () => ({ foreign: String(B.userId), missing: String(MISSING_INT) }),
  // the SOC's triage queue by SOC assignee (customers get the role's 403)
  soc_assignee__in: () => ({ foreign: String(B.userId), missing: String(MISSING_INT) }),
  group__in: () => ({ foreign: String(B.alertGroup), missing: String(MISSING_INT) }),
  id__in: () => ({ foreign: String(B.ruleId), missing: String(MISSING_INT) }),
  rule_id__in: () => ({ foreign: String(B.ruleId), missing: String(MISSING_INT) }),
  // an indicator that only B's incident carries: a value filter, but it selects B's incident for bob
  ioc__in: () => ({ foreign: BOBS_IOC, missing: 'missing-ioc.example' }),
  // the audit log: the acting user (bob) and the object (B's incident key)
  user__in: () => ({ foreign: String(B.userId), missing: String(MISSING_INT) }),
  object_id: () => ({ foreign: String(B.key), missing: String(MISSING_INT) }),
  // administrators' token list by user (customers get the role's 403)
  user_id: () => ({ foreign: String(B.userId), missing: String(MISSING_INT) }),
};

/** Query parameters reviewed as not naming a tenant's object. A new one fails until classified. */
const NOT_ID_FILTERS = new Set([
  // the IOC feed (issue 29): its format, IOC types, a start date and its page cursor
  'format',
  'ioc_type__in',
  'since',
  'cursor',
  // the MITRE matrix without the technique descriptions (the dashboard's widget, issue 31)
  'description',
  // paging, ordering, language, search text
  'page',
  'page_size',
  'no_page',
  'limit',
  'offset',
  'ordering',
  'language',
  'search',
  // the security recommendations of one group: a title, text like the search (the scope applies)
  'title',
  // the notification centre's unread filter (the caller's own items)
  'unread',
  // the analysts' mail quarantine: part of a sender's address or name
  'sender',
  'q',
  'short',
  'get_prev',
  'grouped',
  'next',
  // enumerations and catalogue values shared by every customer
  'activation_mode__in',
  'asset_type__in',
  'available_for_services__in',
  'category__in',
  'confidence__in',
  'criticality__in',
  'issuetype__in',
  'mitre_platform__in',
  'mitre_tactic__in',
  'mitre_technique__in',
  'os__in',
  'platform__in',
  'priority__in',
  'resolution__in',
  'resolution_name__in',
  'role',
  'rule__in',
  'sensor__in',
  'sensor_module__in',
  'sensor_type__in',
  'sensors__in',
  'service__in',
  'severity__in',
  'source_type__in',
  'state__in',
  'status__in',
  'tactic__in',
  'tags__in',
  'technique__in',
  // task (service request) type codes of product §A9
  'type__in',
  'name__in',
  // flags
  'assignee__isnull',
  'customer_assignee__isnull',
  'soc_assignee__isnull',
  // the triage queue: the caller's own incidents, SLA states and reasons (enumerations)
  'mine',
  'sla_state__in',
  'reason__in',
  'gossopka_id__isnull',
  'is_active',
  'is_requested',
  'sla_breached',
  'include_revoked',
  // dates and sizes
  'created__gte',
  'created__lte',
  'created_time__gte',
  'created_time__lte',
  'finish__lte',
  'last_seen__gte',
  'last_seen__lte',
  'notified__gte',
  'notified__lte',
  'resolutiondate__gte',
  'resolutiondate__lte',
  'size__gte',
  'size__lte',
  'sla__gte',
  'sla__lte',
  'start__gte',
  'updated__gte',
  'updated__lte',
  'updated_time__gte',
  'updated_time__lte',
  'at__gte',
  'at__lte',
  // text filters (matched within the caller's scope)
  'affected_assets__icontains',
  'filename',
  'full_name__icontains',
  'host__icontains',
  'is_id__icontains',
  'name__icontains',
  'summary__icontains',
  'title__icontains',
  'value',
  // the audit log: action names and object types are fixed enumerations; `ip` is the prefix of
  // the acting caller's address, matched within the caller's systems' entries
  'action__in',
  'object_type__in',
  'ip',
  // the event stream: `ticket` is the caller's own signed credential (a foreign or forged one is a
  // 401), `last_event_id` a replay cursor over the caller's systems' events (tested below)
  'ticket',
  'last_event_id',
  // provider-wide objects: analysts of the provider, link templates, documents
  'service_manager__in',
  'dedicated_analyst__in',
  'template',
  'document',
]);

/** Bodies of write routes that the schema sampler cannot produce, or that must carry an id. */
type Body = { json: unknown } | { multipart: ReturnType<typeof multipart> } | { none: true };
const bodySamples: Record<string, () => Body> = {
  'POST /api/v0/soc/incs/{key}/add_file/': () => ({
    multipart: multipart({}, [
      { field: 'attachments', name: 'probe.txt', type: 'text/plain', body: Buffer.from('probe') },
    ]),
  }),
  'POST /api/v0/soc/incs/{key}/comments/': () => ({ multipart: multipart({ body: 'probe' }) }),
  'PATCH /api/v0/soc/incs/{key}/': () => ({ json: { priority: 'low' } }),
  'PATCH /api/v0/soc/alerts/{uuid}/': () => ({ json: { tags: [] } }),
  'PATCH /api/v0/soc/report_tasks/{id}/': () => ({ json: { name: 'probe' } }),
  'POST /api/v0/soc/incs/{key}/assign_to_customer/': () => ({ json: { customer_assignee_id: A.userId } }),
  'POST /api/v0/soc/tasks/{id}/messages/': () => ({ multipart: multipart({ body: 'probe' }) }),
  'POST /api/v0/soc/tasks/{id}/status/': () => ({ json: { status: 'closed' } }),
};

/**
 * Write routes without path parameters whose body names objects: B's ids and missing ids (sent
 * as multipart/form-data fields where `form` is set).
 */
const bodyIdCases: Record<string, () => { foreign: unknown; missing: unknown; form?: true }> = {
  // a task in B's system (multipart, like the web form)
  // a webhook endpoint of B's system (issue 29); a public address, so that only the system decides
  'POST /api/v0/soc/webhooks/': () => {
    const base = { url: 'https://93.184.215.14/hook', events: ['incident.created'] };
    return { foreign: { ...base, system: B.systemId }, missing: { ...base, system: MISSING_INT } };
  },
  'POST /api/v0/soc/tasks/': () => ({
    foreign: taskFields(B.systemId),
    missing: taskFields(MISSING_INT),
    form: true,
  }),
  'POST /api/v0/soc/incs/': () => {
    const base = { summary: 'probe', issuetype: 1, priority: 'low', description: 'probe' };
    return { foreign: { ...base, system: B.systemId }, missing: { ...base, system: MISSING_INT } };
  },
  'POST /api/v0/soc/alerts/bulk/': () => ({
    foreign: { alerts: [B.alertUuid], action: 'take_in_work' },
    missing: { alerts: [MISSING_UUID], action: 'take_in_work' },
  }),
  'POST /api/v0/soc/reports/create/': () => {
    const base = { name: 'probe', start: '2026-11-01', finish: '2026-11-02' };
    return { foreign: { ...base, systems: [B.isId] }, missing: { ...base, systems: ['IS-9999'] } };
  },
  'POST /api/v0/soc/reports/delete_multiple/': () => ({
    foreign: { ids: [B.reportId] },
    missing: { ids: [MISSING_INT] },
  }),
  'POST /api/v0/soc/report_tasks/': () => {
    const base = {
      name: 'probe',
      emails: ['alice@example.com'],
      start_time: '2026-12-01T09:00',
      period: 'everyDay',
    };
    return { foreign: { ...base, systems: [B.isId] }, missing: { ...base, systems: ['IS-9999'] } };
  },
  // a personal token limited to B's system (customers may name only their own systems)
  'POST /api/v0/auth/tokens/': () => ({
    foreign: { name: 'probe', password: BUILT_PASSWORD, systems: [B.systemId] },
    missing: { name: 'probe', password: BUILT_PASSWORD, systems: [MISSING_INT] },
  }),
  // administration: customers get the role's 403 whatever the body names
  'POST /api/v0/admin/systems/': () => ({
    foreign: { is_id: B.isId, full_name: 'probe' },
    missing: { is_id: 'IS-9999', full_name: 'probe' },
  }),
  'POST /api/v0/admin/users/': () => ({
    foreign: { username: 'probe', email: 'probe@example.com', systems: [B.systemId] },
    missing: { username: 'probe', email: 'probe@example.com', systems: [MISSING_INT] },
  }),
  'POST /api/v0/admin/service_tokens/': () => ({
    foreign: { name: 'probe', user_id: B.userId, systems: [B.systemId] },
    missing: { name: 'probe', user_id: MISSING_INT, systems: [MISSING_INT] },
  }),
  // the analyst API: customers get the role's 403; a staff token scoped to A is tested below
  'POST /api/v0/analyst/incidents/': () => ({
    foreign: analystIncident(B.systemId),
    missing: analystIncident(MISSING_INT),
  }),
  'POST /api/v0/analyst/log_sources/': () => ({
    foreign: { system: B.systemId, name: 'probe', source_type: 'windows' },
    missing: { system: MISSING_INT, name: 'probe', source_type: 'windows' },
  }),
  'POST /api/v0/analyst/queue/bulk/': () => ({
    foreign: { action: 'priority', keys: [B.key], priority: 'low' },
    missing: { action: 'priority', keys: [MISSING_INT], priority: 'low' },
  }),
};

/** The multipart fields of a valid task of a system. */
const taskFields = (system: number, subject = 'probe') => ({
  system: String(system),
  type: 'question',
  subject,
  description: 'probe',
  priority: 'low',
});

/** A valid analyst-API incident of a system (the system is checked first). */
const analystIncident = (system: number) => ({
  system,
  issuetype: 1,
  primary_category: 1,
  summary: 'probe',
  priority: 'low',
});

/**
 * A refusal may quote the caller's own input back (`Invalid pk "6"`, `Объект «6»`, B's system code): that is no
 * disclosure, so such echoes are normalised before a foreign answer is compared with a missing one.
 */
const echo = (body: string) =>
  body
    .split(B.isId)
    .join('IS-9999')
    .replace(/Invalid pk \\"\d+\\"/g, 'Invalid pk \\"N\\"')
    .replace(/Объект «\d+»/g, 'Объект «N»');

function bodyFor(op: ApiOperation): Body {
  const sample = bodySamples[op.id];
  if (sample) return sample();
  if (op.jsonBody) return { json: sampleOf(op.jsonBody) };
  return { none: true };
}

async function call(
  user: string,
  method: ApiOperation['method'],
  url: string,
  body: Body = { none: true },
): Promise<Answer> {
  const headers: Record<string, string> = { ...bearer(tokens[user]!) };
  if ('json' in body) {
    return injectAnswer(ctx.app, { method, url, headers, payload: body.json as object });
  }
  if ('multipart' in body) {
    return injectAnswer(ctx.app, {
      method,
      url,
      headers: { ...headers, ...body.multipart.headers },
      payload: body.multipart.payload,
    });
  }
  return injectAnswer(ctx.app, { method, url, headers });
}

const leakedMarkers = (res: Answer) => markers.filter((m) => res.body.includes(m));
const describeRes = (res: Answer) => `${res.statusCode} ${res.body.slice(0, 160)}`;

/** Required query parameters of an operation, sampled from their schemas. */
function requiredQuery(op: ApiOperation): string {
  const params = new URLSearchParams();
  for (const q of op.query.filter((x) => x.required)) {
    const v = sampleOf(q.schema);
    params.set(q.name, Array.isArray(v) ? v.join(',') : String(v));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

async function upload(user: string, key: number): Promise<string> {
  const res = await call(user, 'POST', `/api/v0/soc/incs/${key}/add_file/`, {
    multipart: multipart({}, [
      { field: 'attachments', name: `${user}.txt`, type: 'text/plain', body: Buffer.from(`${user}'s file`) },
    ]),
  });
  if (res.statusCode !== 200) throw new Error(`upload as ${user}: ${describeRes(res)}`);
  return res.json<{ attachments: { id: string }[] }>().attachments[0]!.id;
}

/**
 * Builds a tenant: its system with one of each object the matrix names (an incident with a grouped
 * alert, an asset, a ready report, a schedule, a contract, a service of `level`, a contact, a log
 * source), and `username`'s objects made through the API (a task with a file, a token, a file).
 */
async function tenantIds(
  system: BuiltSystem,
  user: BuiltUser,
  username: string,
  level: string,
): Promise<TenantIds> {
  const db = ctx.database.db;
  const systemId = system.id;
  const isId = system.isId;
  const service = await buildService(ctx, systemId, { name: level });
  const incident = await buildIncident(ctx, systemId, { serviceId: service.id });
  // an alert grouped into the incident, so that nested alert routes have a child to name
  const groupNo = 1_000_000 + systemId;
  const alert = await buildAlert(ctx, systemId, { incidentId: incident.id, groupNo });
  const asset = await buildAsset(ctx, systemId);
  const report = await buildReport(ctx, [systemId], { createdById: user.id });
  const schedule = await buildReportSchedule(ctx, [systemId], { ownerId: user.id });
  const contractId = (await buildContract(ctx, systemId)).id;
  const serviceId = service.id;
  const contactId = (await buildContact(ctx, systemId)).id;
  const logSourceId = (await buildLogSource(ctx, systemId)).id;
  // a task the customer opens with a file, and a recommendation of the system
  const task = await call(username, 'POST', '/api/v0/soc/tasks/', {
    multipart: multipart(taskFields(systemId, `${username}-private-task`), [
      { field: 'attachments', name: `${username}-task.txt`, type: 'text/plain', body: Buffer.from(username) },
    ]),
  });
  if (task.statusCode !== 201) throw new Error(`task of ${username}: ${describeRes(task)}`);
  const opened = task.json<{ id: number; attachments: { id: string }[] }>();
  const message = await call(username, 'POST', `/api/v0/soc/tasks/${opened.id}/messages/`, {
    multipart: multipart({ body: `${username}-private-task-message` }),
  });
  if (message.statusCode !== 201) throw new Error(`task message of ${username}: ${describeRes(message)}`);
  const [misconfig] = await queryRows<{ id: number }>(
    db,
    sql`INSERT INTO misconfigurations (system_id, title, severity, affected_assets)
        VALUES (${systemId}, ${`${username}-private-recommendation`}, 'high', ARRAY['srv-probe']::text[])
        RETURNING id`,
  );
  const [held] = await queryRows<{ id: number }>(
    db,
    sql`INSERT INTO mail_quarantine (incident_id, sender_email, body, sender_verified, reason, raw_key)
        SELECT id, ${`${username}-outside@probe.example`}, '<p>probe</p>', false, 'unverified_sender',
               ${`mail-quarantine/${randomUUID()}`}
        FROM incidents WHERE key = ${incident.key} RETURNING id::int AS id`,
  );
  // a webhook endpoint with one delivery, written directly: the SSRF guard would resolve its URL
  const [endpoint] = await queryRows<{ id: number }>(
    db,
    sql`INSERT INTO webhook_endpoints (system_id, url, events, secret_sealed)
        VALUES (${systemId}, ${`https://hooks.example/${username}`}, ARRAY['incident.created']::text[], 'probe')
        RETURNING id`,
  );
  const [delivery] = await queryRows<{ id: number }>(
    db,
    sql`INSERT INTO webhook_deliveries (endpoint_id, message_id, event, status)
        VALUES (${endpoint!.id}, ${`msg_${randomUUID()}`}, 'incident.created', 'succeeded')
        RETURNING id::int AS id`,
  );
  const [inboxItem] = await queryRows<{ id: number }>(
    db,
    sql`INSERT INTO inbox_items (user_id, event_id, kind, system_ids, incident_key)
        VALUES (${user.id}, 0, 'incident_created', ARRAY[${systemId}]::int[], ${incident.key})
        RETURNING id::int AS id`,
  );
  const token = await call(username, 'POST', '/api/v0/auth/tokens/', {
    json: { name: `${username}'s token`, password: BUILT_PASSWORD },
  });
  if (token.statusCode !== 201) throw new Error(`personal token of ${username}: ${describeRes(token)}`);
  return {
    systemId,
    isId,
    key: incident.key,
    alertUuid: alert.id,
    attachmentId: await upload(username, incident.key),
    cmdbId: asset.cmdbId,
    reportId: report.id,
    scheduleId: schedule.id,
    userId: user.id,
    alertGroup: groupNo,
    ruleId: 0,
    personalTokenId: token.json<{ id: string }>().id,
    contractId,
    serviceId,
    contactId,
    logSourceId,
    taskId: opened.id,
    taskFileId: opened.attachments[0]!.id,
    misconfigId: misconfig!.id,
    quarantineId: held!.id,
    webhookId: endpoint!.id,
    webhookDeliveryId: delivery!.id,
    inboxItemId: inboxItem!.id,
  };
}

/** A rule of the service level `level`: the owner sees it and the other customer does not. */
async function ruleOnlyFor(owner: string, other: string, level: string): Promise<number> {
  const [row] = await queryRows<{ id: number }>(
    ctx.database.db,
    sql`INSERT INTO rules (rule_id, name, caption_ru, caption_en, severity, confidence, available_for_services)
        VALUES (${`ISO-PROBE-${owner}`}, ${`${owner}-isolation-probe`}, 'проба', 'probe', 'Low', 'Low',
                ARRAY[${level}]::text[])
        RETURNING id`,
  );
  const ids = async (user: string) =>
    (await call(user, 'GET', '/api/v0/soc/rules/?page_size=2000'))
      .json<{ results: { id: number }[] }>()
      .results.map((r) => r.id);
  if (!(await ids(owner)).includes(row!.id) || (await ids(other)).includes(row!.id)) {
    throw new Error(`the rule of ${level} is not ${owner}'s only`);
  }
  return row!.id;
}

/** What bob sees of his own objects; compared before and after the matrix. */
async function bobsView(): Promise<unknown[]> {
  const urls = [
    `/api/v0/soc/incs/${B.key}/`,
    `/api/v0/soc/incs/${B.key}/comments/?no_page=true`,
    `/api/v0/soc/incs/${B.key}/alerts/`,
    `/api/v0/soc/reports/${B.reportId}/`,
    `/api/v0/soc/report_tasks/`,
    `/api/v0/soc/files/${encodeURIComponent(`incidents/${B.key}/${B.attachmentId}`)}/`,
    `/api/v0/soc/incs/?key__in=${B.key}`,
    // B's task with its chat and file, and B's recommendation with its status
    `/api/v0/soc/tasks/${B.taskId}/`,
    `/api/v0/soc/tasks/${B.taskId}/messages/?no_page=true`,
    `/api/v0/soc/misconfigs/${B.misconfigId}/`,
  ];
  const out: unknown[] = [];
  const views: [string, string][] = [
    ...urls.map((url): [string, string] => ['bob', url]),
    ['bob', '/api/v0/auth/tokens/'],
    // what administrators and analysts see of B: contracts, services, contacts, bob's account
    ['admin', `/api/v0/admin/systems/${B.systemId}/`],
    ['admin', `/api/v0/admin/users/${B.userId}/`],
    ['analyst', `/api/v0/soc/incs/${B.key}/misconfigs/`],
  ];
  for (const [user, url] of views) {
    const res = await call(user, 'GET', url);
    out.push({ user, url, status: res.statusCode, body: comparable(res) });
  }
  const [eps] = await queryRows<{ events: string | number | null; last: string | null }>(
    ctx.database.db,
    sql`SELECT (SELECT sum(events) FROM log_source_event_buckets WHERE log_source_id = ${B.logSourceId}) AS events,
               (SELECT last_event_at::text FROM log_sources WHERE id = ${B.logSourceId}) AS last`,
  );
  out.push({ logSource: B.logSourceId, events: String(eps?.events ?? 0), last: eps?.last ?? null });
  return out;
}

let bobsViewBefore: unknown[];
let bTeamId: number;
let bTemplateId: number;
const BOBS_LINK_TEMPLATE = 'bobs-private-link-template';
const BOBS_IOC = 'bobs-private-ioc.example';

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  const [systemA, systemB] = [await buildSystem(ctx), await buildSystem(ctx)];
  users.alice = await buildCustomer(ctx, [systemA.id]);
  users.bob = await buildCustomer(ctx, [systemB.id]);
  users.analyst = await buildAnalyst(ctx);
  users.admin = await buildUser(ctx, { role: 'admin' });
  for (const [name, user] of Object.entries(users)) tokens[name] = await user.login();
  ops = await loadOperations(ctx.app);
  // each system on a service level of its own, so that each customer has rules the other lacks
  A = await tenantIds(systemA, users.alice, 'alice', 'Vision');
  B = await tenantIds(systemB, users.bob, 'bob', 'Panorama');
  A.ruleId = await ruleOnlyFor('alice', 'bob', 'Vision');
  B.ruleId = await ruleOnlyFor('bob', 'alice', 'Panorama');
  const [bSystem] = await queryRows<{ full_name: string }>(
    ctx.database.db,
    sql`SELECT full_name FROM systems WHERE id = ${B.systemId}`,
  );
  const uuids = await queryRows<{ id: string }>(
    ctx.database.db,
    sql`SELECT id::text AS id FROM incidents WHERE system_id = ${B.systemId}
        UNION ALL SELECT id::text FROM alerts WHERE system_id = ${B.systemId}
        UNION ALL SELECT a.id::text FROM attachments a JOIN incidents i ON i.id = a.incident_id
                  WHERE i.system_id = ${B.systemId}`,
  );
  const [bob] = await queryRows<{ email: string }>(
    ctx.database.db,
    sql`SELECT email FROM users WHERE id = ${users.bob.id}`,
  );
  // an indicator of compromise that only B's incident carries
  await ctx.database.db.execute(
    sql`UPDATE incidents SET observed_iocs = observed_iocs || ${JSON.stringify([
      { ioc: BOBS_IOC, ioc_type: 'fqdn', category: [] },
    ])}::jsonb WHERE key = ${B.key}`,
  );
  // bob is the customer assignee of his incident, so that filters by assignee have his data to find
  await call('bob', 'POST', `/api/v0/soc/incs/${B.key}/assign_to_customer/`, {
    json: { customer_assignee_id: B.userId },
  });
  for (const [kind, base] of [
    ['instruction', 'instructions'],
    ['response_instruction', 'response_instructions'],
    ['article', 'articles'],
  ] as const) {
    const doc = await buildDocument(ctx, { kind });
    documentIds[kind] = doc.id;
    const res = await call('bob', 'POST', `/api/v0/soc/${base}/${doc.id}/comments/`, {
      multipart: multipart({ text: BOBS_DOCUMENT_COMMENT }),
    });
    if (res.statusCode !== 201) throw new Error(`bob's comment on ${base}: ${describeRes(res)}`);
  }
  bTeamId = (await buildResponseTeam(ctx, B.systemId)).id;
  const [template] = await queryRows<{ id: number }>(
    ctx.database.db,
    sql`INSERT INTO link_templates (system_id, name, field, url_template)
        VALUES (${B.systemId}, ${BOBS_LINK_TEMPLATE}, 'title', 'https://b.example/?q={value}') RETURNING id`,
  );
  bTemplateId = template!.id;
  markers = [
    B.isId,
    BOBS_LINK_TEMPLATE,
    bSystem!.full_name,
    bob!.email,
    BOBS_DOCUMENT_COMMENT,
    // B's task, its chat and file, and B's recommendation
    'bob-private-task',
    'bob-private-recommendation',
    B.taskFileId,
    ...uuids.map((u) => u.id),
  ].filter(Boolean);
  bobsViewBefore = await bobsView();
}, 120_000);
afterAll(() => ctx?.close());

/** The operations whose path parameters name tenant objects. */
function pathOperations(): ApiOperation[] {
  return ops.filter(
    (op) =>
      op.pathParams.length > 0 &&
      !NOT_TENANT_ROUTES[op.id] &&
      !op.pathParams.every((p) => NOT_TENANT_SLOTS[paramSlot(op.path, p)]),
  );
}

/** The value of a parameter that names no tenant's object, on a route that also names one. */
const sharedValue = (op: ApiOperation, i: number): string | number =>
  NOT_TENANT_SLOTS[paramSlot(op.path, op.pathParams[i]!)]?.shared?.() ?? 1;

/** GET operations on shared objects (documents, catalogues) that alice reads with shared ids. */
function sharedOperations(): { op: ApiOperation; values: Record<string, string | number> }[] {
  const out: { op: ApiOperation; values: Record<string, string | number> }[] = [];
  for (const op of ops) {
    if (op.method !== 'GET' || !op.pathParams.length || NOT_TENANT_ROUTES[op.id]) continue;
    const slots = op.pathParams.map((p) => NOT_TENANT_SLOTS[paramSlot(op.path, p)]);
    if (!slots.every((s) => s?.shared)) continue;
    out.push({ op, values: Object.fromEntries(op.pathParams.map((p, i) => [p, slots[i]!.shared!()])) });
  }
  return out;
}

describe('tenant isolation matrix (generated from the OpenAPI document)', () => {
  it('finds the API in the OpenAPI document', () => {
    expect(ops.length).toBeGreaterThan(100);
    expect(pathOperations().length).toBeGreaterThan(30);
  });

  it('keeps its allow-lists reviewed: every entry names a route or a parameter that exists', () => {
    const ids = new Set(ops.map((op) => op.id));
    expect(Object.keys(NOT_TENANT_ROUTES).filter((id) => !ids.has(id))).toEqual([]);
    const slots = new Set(ops.flatMap((op) => op.pathParams.map((p) => paramSlot(op.path, p))));
    expect(Object.keys(NOT_TENANT_SLOTS).filter((s) => !slots.has(s))).toEqual([]);
    expect(Object.keys(slotResolvers).filter((s) => !slots.has(s))).toEqual([]);
    expect(Object.keys(bodySamples).filter((id) => !ids.has(id))).toEqual([]);
    expect(Object.keys(bodyIdCases).filter((id) => !ids.has(id))).toEqual([]);
  });

  it('answers another tenant’s object on every path like a missing one (404/403), never with its data', async () => {
    const failures: string[] = [];
    let checked = 0;
    for (const op of pathOperations()) {
      const resolvers = op.pathParams.map((p) => {
        const slot = paramSlot(op.path, p);
        return NOT_TENANT_SLOTS[slot] ? null : slotResolvers[slot];
      });
      const unresolved = op.pathParams.filter((_, i) => resolvers[i] === undefined);
      if (unresolved.length) {
        failures.push(`${op.id}: no resolver for ${unresolved.map((p) => paramSlot(op.path, p)).join(', ')}`);
        continue;
      }
      const values = resolvers.map((r) => r?.() ?? null);
      const queryString = requiredQuery(op);
      // every foreign value of every parameter, the other parameters taken from A (own parent, B child)
      const variants: {
        foreign: Record<string, string | number>;
        missing: Record<string, string | number>;
      }[] = [];
      values.forEach((v, i) => {
        if (!v) return;
        for (const foreign of v.foreign) {
          const base: Record<string, string | number> = {};
          values.forEach((w, j) => {
            if (j !== i) base[op.pathParams[j]!] = w ? w.own : sharedValue(op, j);
          });
          variants.push({
            foreign: { ...base, [op.pathParams[i]!]: foreign },
            missing: { ...base, [op.pathParams[i]!]: v.missing },
          });
        }
      });
      // and all of B's at once
      if (values.filter(Boolean).length > 1) {
        const all: Record<string, string | number> = {};
        const none: Record<string, string | number> = {};
        values.forEach((v, j) => {
          all[op.pathParams[j]!] = v ? v.foreign[0]! : sharedValue(op, j);
          none[op.pathParams[j]!] = v ? v.missing : sharedValue(op, j);
        });
        variants.push({ foreign: all, missing: none });
      }
      for (const variant of variants) {
        const foreignUrl = fillPath(op.path, variant.foreign) + queryString;
        const missingUrl = fillPath(op.path, variant.missing) + queryString;
        const foreign = await call('alice', op.method, foreignUrl, bodyFor(op));
        const missing = await call('alice', op.method, missingUrl, bodyFor(op));
        checked++;
        const where = `${op.method} ${foreignUrl}`;
        if (![403, 404].includes(foreign.statusCode)) {
          failures.push(`${where}: expected 404 (or a role's 403), got ${describeRes(foreign)}`);
        }
        if (foreign.statusCode !== missing.statusCode || comparable(foreign) !== comparable(missing)) {
          failures.push(
            `${where}: differs from a missing id: ${describeRes(foreign)} vs ${describeRes(missing)}`,
          );
        }
        const leaked = leakedMarkers(foreign);
        if (leaked.length) failures.push(`${where}: answer contains B's data ${leaked.join(', ')}`);
      }
      // the owner finds the same object: the resolver named a real object of B
      if (op.method === 'GET') {
        const owner: Record<string, string | number> = {};
        values.forEach((v, j) => (owner[op.pathParams[j]!] = v ? v.foreign[0]! : sharedValue(op, j)));
        const who = values.find((v) => v?.owner)?.owner ?? 'bob';
        const res = await call(who, 'GET', fillPath(op.path, owner) + queryString);
        if (res.statusCode === 404 || res.statusCode >= 500) {
          failures.push(
            `${op.id}: ${who} cannot find his own object (${describeRes(res)}); fix the resolver`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(40);
  }, 180_000);

  it('never shows another tenant’s data in lists, or when a list is filtered by its ids', async () => {
    const failures: string[] = [];
    let filtered = 0;
    const effective = new Set<string>();
    for (const op of ops.filter((o) => o.method === 'GET' && o.pathParams.length === 0)) {
      if (NOT_TENANT_ROUTES[op.id]) continue;
      const plain = await call('alice', 'GET', op.path + requiredQuery(op));
      if (plain.statusCode >= 500) failures.push(`${op.id}: ${describeRes(plain)}`);
      const leaked = leakedMarkers(plain);
      if (leaked.length) failures.push(`${op.id}: list contains B's data ${leaked.join(', ')}`);

      for (const q of op.query) {
        const resolver = idFilters[q.name];
        if (!resolver) {
          if (!NOT_ID_FILTERS.has(q.name)) {
            failures.push(`${op.id}: query parameter ${q.name} is not classified (id filter or not)`);
          }
          continue;
        }
        const item = q.schema.items?.type === 'string' || q.schema.type === 'string' ? 'string' : 'integer';
        const { foreign, missing } = resolver(item);
        const base = new URLSearchParams(requiredQuery(op).slice(1));
        const url = (value: string) => {
          const params = new URLSearchParams(base);
          params.set(q.name, value);
          return `${op.path}?${params.toString()}`;
        };
        const f = await call('alice', 'GET', url(foreign));
        const m = await call('alice', 'GET', url(missing));
        filtered++;
        const where = `GET ${url(foreign)}`;
        if (f.statusCode >= 500) failures.push(`${where}: ${describeRes(f)}`);
        // an event stream carries its own timing (heartbeats): only its status is compared
        const differs = f.streamed ? f.statusCode !== m.statusCode : comparable(f) !== comparable(m);
        if (f.statusCode !== m.statusCode || differs) {
          failures.push(`${where}: differs from a missing id: ${describeRes(f)} vs ${describeRes(m)}`);
        }
        const leakedF = leakedMarkers(f);
        if (leakedF.length) failures.push(`${where}: answer contains B's data ${leakedF.join(', ')}`);
        // the owner's answer for the same value differs from a missing id: the value selects B's data
        const ownerF = await call('bob', 'GET', url(foreign));
        const ownerM = await call('bob', 'GET', url(missing));
        if (ownerF.body !== ownerM.body) effective.add(`${op.path} ${q.name}`);
      }
    }
    for (const { op, values } of sharedOperations()) {
      const res = await call('alice', 'GET', fillPath(op.path, values) + requiredQuery(op));
      if (res.statusCode >= 500) failures.push(`${op.id}: ${describeRes(res)}`);
      const leaked = leakedMarkers(res);
      if (leaked.length) failures.push(`${op.id}: shared object shows B's data ${leaked.join(', ')}`);
    }
    expect(failures).toEqual([]);
    expect(filtered).toBeGreaterThan(10);
    // most id filters select real data of B for bob (the rest have no B data behind them)
    expect(effective.size).toBeGreaterThanOrEqual(15);
    expect(sharedOperations().length).toBeGreaterThan(10);
  }, 180_000);

  it('refuses write routes that name another tenant’s objects in their body, like missing ones', async () => {
    const failures: string[] = [];
    const writes = ops.filter(
      (o) => o.method !== 'GET' && o.pathParams.length === 0 && !NOT_TENANT_ROUTES[o.id],
    );
    for (const op of writes) {
      const cases = bodyIdCases[op.id];
      if (!cases) {
        failures.push(`${op.id}: write route without a reviewed body case (ids in its body?)`);
        continue;
      }
      const { foreign, missing, form } = cases();
      const body = (v: unknown): Body =>
        form ? { multipart: multipart(v as Record<string, string>) } : { json: v };
      const f = await call('alice', op.method, op.path, body(foreign));
      const m = await call('alice', op.method, op.path, body(missing));
      if (f.statusCode < 400 || f.statusCode >= 500) {
        failures.push(`${op.id} with B's ids: expected a refusal, got ${describeRes(f)}`);
      }
      // the refusal may quote the caller's own input (see echo)
      if (f.statusCode !== m.statusCode || echo(f.body) !== echo(m.body)) {
        failures.push(`${op.id}: differs from a missing id: ${describeRes(f)} vs ${describeRes(m)}`);
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);

  it('refuses references to another tenant’s objects inside the caller’s own objects, like missing ones', async () => {
    const cases: {
      name: string;
      method: ApiOperation['method'];
      url: string;
      foreign: unknown;
      missing: unknown;
    }[] = [
      {
        name: 'assign B’s user to A’s incident',
        method: 'POST',
        url: `/api/v0/soc/incs/${A.key}/assign_to_customer/`,
        foreign: { customer_assignee_id: B.userId },
        missing: { customer_assignee_id: MISSING_INT },
      },
      {
        name: 'give A’s alert a response team of B',
        method: 'PATCH',
        url: `/api/v0/soc/alerts/${A.alertUuid}/`,
        foreign: { response_team: { id: bTeamId } },
        missing: { response_team: { id: MISSING_INT } },
      },
      {
        name: 'attach A’s alert to B’s incident',
        method: 'POST',
        url: '/api/v0/soc/alerts/bulk/',
        foreign: { alerts: [A.alertUuid], action: 'attach', issue: B.key },
        missing: { alerts: [A.alertUuid], action: 'attach', issue: MISSING_INT },
      },
      {
        name: 'move A’s report schedule to B’s system',
        method: 'PATCH',
        url: `/api/v0/soc/report_tasks/${A.scheduleId}/`,
        foreign: { systems: [B.isId] },
        missing: { systems: ['IS-9999'] },
      },
      {
        name: 'order a report on A’s and B’s systems',
        method: 'POST',
        url: '/api/v0/soc/reports/create/',
        foreign: { name: 'probe', start: '2026-11-01', finish: '2026-11-02', systems: [A.isId, B.isId] },
        missing: { name: 'probe', start: '2026-11-01', finish: '2026-11-02', systems: [A.isId, 'IS-9999'] },
      },
      {
        name: 'follow B’s link template from A’s alert',
        method: 'GET',
        url: `/api/v0/alerts/${A.alertUuid}/link/?value=x&template=`,
        foreign: bTemplateId,
        missing: MISSING_INT,
      },
    ];
    const failures: string[] = [];
    for (const c of cases) {
      const send = (v: unknown) =>
        c.method === 'GET'
          ? call('alice', 'GET', `${c.url}${String(v)}`)
          : call('alice', c.method, c.url, { json: v });
      const f = await send(c.foreign);
      const m = await send(c.missing);
      if (f.statusCode < 400 || f.statusCode >= 500) failures.push(`${c.name}: accepted: ${describeRes(f)}`);
      if (f.statusCode !== m.statusCode || echo(f.body) !== echo(m.body)) {
        failures.push(`${c.name}: differs from a missing id: ${describeRes(f)} vs ${describeRes(m)}`);
      }
      const leaked = leakedMarkers(f);
      if (leaked.length) failures.push(`${c.name}: answer contains B's data ${leaked.join(', ')}`);
    }
    const templates = await call('alice', 'GET', `/api/v0/alerts/${A.alertUuid}/available_links_templates/`);
    expect(templates.statusCode).toBe(200);
    if (leakedMarkers(templates).length)
      failures.push(`A's alert offers B's link template: ${templates.body}`);
    expect(failures).toEqual([]);
  });

  it('limits a staff service token scoped to system A to A: B’s objects answer like missing ones', async () => {
    const issued = await call('admin', 'POST', '/api/v0/admin/service_tokens/', {
      json: { name: 'isolation probe', user_id: users.analyst.id, systems: [A.systemId] },
    });
    expect(issued.statusCode, issued.body).toBe(201);
    tokens.scoped = issued.json<{ token: string }>().token;

    const alert = () => ({ uuid: randomUUID(), severity: 'Low', title: 'probe', platform: 'windows' });
    const cases: {
      name: string;
      method: ApiOperation['method'];
      url: (id: number) => string;
      body?: () => unknown;
      /** Send the body as multipart/form-data fields. */
      form?: true;
      own: number;
      foreign: number;
    }[] = [
      {
        name: 'read an incident card',
        method: 'GET',
        url: (k) => `/api/v0/soc/incs/${k}/`,
        own: A.key,
        foreign: B.key,
      },
      {
        name: 'change an incident',
        method: 'PATCH',
        url: (k) => `/api/v0/analyst/incidents/${k}/`,
        body: () => ({ tags: ['isolation-probe'] }),
        own: A.key,
        foreign: B.key,
      },
      {
        name: 'comment on an incident',
        method: 'POST',
        url: (k) => `/api/v0/analyst/incidents/${k}/comments/`,
        body: () => ({ body: 'isolation probe' }),
        own: A.key,
        foreign: B.key,
      },
      {
        name: 'write an internal note on an incident',
        method: 'POST',
        url: (k) => `/api/v0/analyst/incidents/${k}/notes/`,
        body: () => ({ body: 'isolation probe' }),
        own: A.key,
        foreign: B.key,
      },
      {
        name: 'read the internal notes of an incident',
        method: 'GET',
        url: (k) => `/api/v0/analyst/incidents/${k}/notes/`,
        own: A.key,
        foreign: B.key,
      },
      {
        name: 'add alerts to an incident',
        method: 'POST',
        url: (k) => `/api/v0/analyst/incidents/${k}/alerts/`,
        body: () => ({ alerts: [alert()] }),
        own: A.key,
        foreign: B.key,
      },
      {
        name: 'add misconfigurations to an incident',
        method: 'POST',
        url: (k) => `/api/v0/analyst/incidents/${k}/misconfigs/`,
        body: () => ({ items: [{ title: 'isolation probe', severity: 'low' }] }),
        own: A.key,
        foreign: B.key,
      },
      {
        name: 'push event counts of a log source',
        method: 'POST',
        url: (id) => `/api/v0/analyst/log_sources/${id}/eps/`,
        body: () => ({ mode: 'set', samples: [{ at: Date.now(), events: 1 }] }),
        own: A.logSourceId,
        foreign: B.logSourceId,
      },
      // service requests and recommendations (issue 12)
      {
        name: 'read a task',
        method: 'GET',
        url: (id) => `/api/v0/soc/tasks/${id}/`,
        own: A.taskId,
        foreign: B.taskId,
      },
      {
        name: 'write in a task’s chat',
        method: 'POST',
        url: (id) => `/api/v0/soc/tasks/${id}/messages/`,
        body: () => ({ body: 'isolation probe' }),
        form: true,
        own: A.taskId,
        foreign: B.taskId,
      },
      {
        name: 'set a task’s status',
        method: 'POST',
        url: (id) => `/api/v0/soc/tasks/${id}/status/`,
        body: () => ({ status: 'waiting_for_customer' }),
        own: A.taskId,
        foreign: B.taskId,
      },
      {
        name: 'read a quarantined mail',
        method: 'GET',
        url: (id) => `/api/v0/analyst/mail_quarantine/${id}/`,
        own: A.quarantineId,
        foreign: B.quarantineId,
      },
      {
        name: 'read a recommendation',
        method: 'GET',
        url: (id) => `/api/v0/soc/misconfigs/${id}/`,
        own: A.misconfigId,
        foreign: B.misconfigId,
      },
      {
        name: 'mark a recommendation fixed',
        method: 'POST',
        url: (id) => `/api/v0/soc/misconfigs/${id}/fix/`,
        body: () => ({}),
        own: A.misconfigId,
        foreign: B.misconfigId,
      },
      // last: it may close A's incident
      {
        name: 'set an incident’s status',
        method: 'POST',
        url: (k) => `/api/v0/analyst/incidents/${k}/status/`,
        body: () => ({ status: 'canceled', comment: 'isolation probe' }),
        own: A.key,
        foreign: B.key,
      },
    ];
    const failures: string[] = [];
    const send = (method: ApiOperation['method'], url: string, body?: () => unknown, form?: true) =>
      call(
        'scoped',
        method,
        url,
        !body
          ? { none: true }
          : form
            ? { multipart: multipart(body() as Record<string, string>) }
            : { json: body() },
      );
    for (const c of cases) {
      const f = await send(c.method, c.url(c.foreign), c.body, c.form);
      const m = await send(c.method, c.url(MISSING_INT), c.body, c.form);
      const own = await send(c.method, c.url(c.own), c.body, c.form);
      if (f.statusCode !== 404) failures.push(`${c.name} of B: expected 404, got ${describeRes(f)}`);
      if (f.statusCode !== m.statusCode || comparable(f) !== comparable(m)) {
        failures.push(`${c.name} of B: differs from a missing id: ${describeRes(f)} vs ${describeRes(m)}`);
      }
      const leaked = leakedMarkers(f);
      if (leaked.length) failures.push(`${c.name} of B: answer contains B's data ${leaked.join(', ')}`);
      // the token works on A's objects (a status the flow does not allow is a 400, not a 404)
      if (own.statusCode >= 300 && !(c.name.includes('status') && own.statusCode === 400)) {
        failures.push(`${c.name} of A: the token should work, got ${describeRes(own)}`);
      }
    }
    // creates naming B's system are refused like a missing system
    for (const [name, url, body] of [
      ['create an incident', '/api/v0/analyst/incidents/', analystIncident],
      [
        'register a log source',
        '/api/v0/analyst/log_sources/',
        (system: number) => ({ system, name: 'probe', source_type: 'windows' }),
      ],
    ] as const) {
      const f = await call('scoped', 'POST', url, { json: body(B.systemId) });
      const m = await call('scoped', 'POST', url, { json: body(MISSING_INT) });
      if (f.statusCode !== 400) failures.push(`${name} in B: expected 400, got ${describeRes(f)}`);
      if (f.statusCode !== m.statusCode || echo(f.body) !== echo(m.body)) {
        failures.push(`${name} in B: differs from a missing system: ${describeRes(f)} vs ${describeRes(m)}`);
      }
    }
    // the queue's bulk change answers B's incident as it answers a missing one, item by item
    {
      const bulk = async (key: number) => {
        const res = await call('scoped', 'POST', '/api/v0/analyst/queue/bulk/', {
          json: { action: 'priority', keys: [key], priority: 'low' },
        });
        const [item] = res.json<{ results: { status: number; errors: unknown }[] }>().results;
        return JSON.stringify([res.statusCode, item?.status, item?.errors]);
      };
      const [f, m] = [await bulk(B.key), await bulk(MISSING_INT)];
      if (!f.startsWith('[200,404,{"detail":') || f !== m)
        failures.push(`bulk priority of B: expected a 404 item like a missing one: ${f} vs ${m}`);
    }
    {
      const url = '/api/v0/soc/tasks/';
      const f = await call('scoped', 'POST', url, { multipart: multipart(taskFields(B.systemId)) });
      const m = await call('scoped', 'POST', url, { multipart: multipart(taskFields(MISSING_INT)) });
      if (f.statusCode !== 400) failures.push(`open a task in B: expected 400, got ${describeRes(f)}`);
      if (f.statusCode !== m.statusCode || echo(f.body) !== echo(m.body)) {
        failures.push(
          `open a task in B: differs from a missing system: ${describeRes(f)} vs ${describeRes(m)}`,
        );
      }
    }
    // lists read with the token show nothing of B's
    for (const url of [
      '/api/v0/soc/incs/',
      `/api/v0/soc/incs/?key__in=${B.key}`,
      '/api/v0/soc/alerts/',
      '/api/v0/audit/',
      `/api/v0/audit/?object_id=${B.key}`,
      '/api/v0/analyst/queue/',
      `/api/v0/analyst/queue/?system__in=${B.systemId}`,
      '/api/v0/analyst/queue/counts/',
    ]) {
      const res = await call('scoped', 'GET', url);
      if (res.statusCode !== 200) failures.push(`GET ${url}: ${describeRes(res)}`);
      const leaked = leakedMarkers(res);
      if (leaked.length) failures.push(`GET ${url} with the token shows B's data ${leaked.join(', ')}`);
    }
    // every list, and every shared object (documents with their comments), read with the token
    for (const op of ops.filter((o) => o.method === 'GET' && o.pathParams.length === 0)) {
      if (NOT_TENANT_ROUTES[op.id]) continue;
      const res = await call('scoped', 'GET', op.path + requiredQuery(op));
      const leaked = leakedMarkers(res);
      if (leaked.length) failures.push(`${op.id} with the token shows B's data ${leaked.join(', ')}`);
    }
    for (const { op, values } of sharedOperations()) {
      const res = await call('scoped', 'GET', fillPath(op.path, values) + requiredQuery(op));
      const leaked = leakedMarkers(res);
      if (leaked.length) failures.push(`${op.id} with the token shows B's data ${leaked.join(', ')}`);
    }
    const audit = await call('scoped', 'GET', `/api/v0/audit/?object_id=${B.key}&object_type__in=incident`);
    if (audit.json<{ total: number }>().total !== 0) failures.push(`the token reads B's audit entries`);
    expect(failures).toEqual([]);
  }, 60_000);

  it('keeps an administrator’s token scoped to system A out of B’s administration', async () => {
    const issued = await call('admin', 'POST', '/api/v0/admin/service_tokens/', {
      json: { name: 'isolation probe (admin)', user_id: users.admin.id, systems: [A.systemId] },
    });
    expect(issued.statusCode, issued.body).toBe(201);
    tokens.scopedAdmin = issued.json<{ token: string }>().token;
    const failures: string[] = [];
    const cases: {
      name: string;
      method: ApiOperation['method'];
      url: (id: number) => string;
      body?: unknown;
      foreign: number;
    }[] = [
      {
        name: 'read B’s system',
        method: 'GET',
        url: (id) => `/api/v0/admin/systems/${id}/`,
        foreign: B.systemId,
      },
      { name: 'read bob', method: 'GET', url: (id) => `/api/v0/admin/users/${id}/`, foreign: B.userId },
      {
        name: 'change B’s contact',
        method: 'PATCH',
        url: (id) => `/api/v0/admin/contacts/${id}/`,
        body: { notify: false },
        foreign: B.contactId,
      },
      {
        name: 'change bob',
        method: 'PATCH',
        url: (id) => `/api/v0/admin/users/${id}/`,
        body: { first_name: 'probe' },
        foreign: B.userId,
      },
    ];
    for (const c of cases) {
      const body: Body = c.body === undefined ? { none: true } : { json: c.body };
      const f = await call('scopedAdmin', c.method, c.url(c.foreign), body);
      const m = await call('scopedAdmin', c.method, c.url(MISSING_INT), body);
      if (![403, 404].includes(f.statusCode)) failures.push(`${c.name}: got ${describeRes(f)}`);
      if (f.statusCode !== m.statusCode || comparable(f) !== comparable(m)) {
        failures.push(`${c.name}: differs from a missing id: ${describeRes(f)} vs ${describeRes(m)}`);
      }
      const leaked = leakedMarkers(f);
      if (leaked.length) failures.push(`${c.name}: answer contains B's data ${leaked.join(', ')}`);
    }
    for (const url of ['/api/v0/admin/systems/', '/api/v0/admin/users/', '/api/v0/admin/service_tokens/']) {
      const res = await call('scopedAdmin', 'GET', url);
      const leaked = leakedMarkers(res);
      if (leaked.length) failures.push(`GET ${url} shows B's data ${leaked.join(', ')}`);
    }
    expect(failures).toEqual([]);
  });

  it('streams only the caller’s systems’ events, also when replaying from the first one', async () => {
    const bKeys = new Set(
      (
        await queryRows<{ key: number }>(
          ctx.database.db,
          sql`SELECT key::int AS key FROM incidents WHERE system_id = ${B.systemId}`,
        )
      ).map((r) => r.key),
    );
    /** The incident keys of the events a caller's stream replays after event 0 (its status if refused). */
    const replay = async (user: string): Promise<number[] | string> => {
      const ticket = await call(user, 'POST', '/api/v0/events/ticket/');
      if (ticket.statusCode !== 200) return `ticket: ${describeRes(ticket)}`;
      const url = `/api/v0/events/?ticket=${ticket.json<{ ticket: string }>().ticket}&last_event_id=0`;
      const res = await injectAnswer(ctx.app, { method: 'GET', url }, 500);
      if (res.statusCode !== 200) return `stream: ${describeRes(res)}`;
      if (leakedMarkers(res).length) return `stream shows B's data ${leakedMarkers(res).join(', ')}`;
      return res.body
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => JSON.parse(line.slice(6)) as { key: number | null })
        .flatMap((e) => (e.key === null ? [] : [e.key]));
    };
    // bob's replay has his incident's events: B's events are there to be leaked
    const bobs = await replay('bob');
    expect(Array.isArray(bobs) && bobs.includes(B.key), String(bobs)).toBe(true);
    const failures: string[] = [];
    for (const user of ['alice', 'scoped']) {
      const keys = await replay(user);
      // a scoped token may also be refused a stream; it must never widen to every system
      if (typeof keys === 'string') {
        if (user === 'alice' || !/^ticket: 403/.test(keys)) failures.push(`${user}: ${keys}`);
        continue;
      }
      const foreign = keys.filter((k) => bKeys.has(k));
      if (foreign.length) failures.push(`${user}'s stream replays B's incidents ${foreign.join(', ')}`);
    }
    expect(failures).toEqual([]);
  });

  it('leaves every object of the other tenant as it was', async () => {
    expect(await bobsView()).toEqual(bobsViewBefore);
  });
});
