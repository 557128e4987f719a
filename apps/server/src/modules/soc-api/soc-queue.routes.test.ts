import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AnalystIncidentCard,
  ApiTokenCreated,
  QueueBulkResult,
  QueueCounts,
  QueueListResponse,
  StaffListResponse,
} from '@soc/contracts';
import { events, incidents } from '../../db/schema/index.ts';
import {
  buildAnalyst,
  buildComment,
  buildCustomer,
  buildIncident,
  buildIncidents,
  buildSystem,
  buildUser,
  issueTypeReference,
} from '../../test/builders.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';

let ctx: TestContext;
const tokens: Record<'analyst' | 'admin' | 'customer' | 'scopedToA', string> = {
  analyst: '',
  admin: '',
  customer: '',
  scopedToA: '',
};
const sys = { a: 0, b: 0, big: 0 };
const key: Record<string, number> = {};
const id: Record<string, string> = {};
let analystId: number;
let otherAnalystId: number;
let customerId: number;
let category: number;

const HOUR = 3_600_000;
const call = (method: 'GET' | 'POST' | 'PATCH', url: string, token: string, payload?: object, lang = 'en') =>
  ctx.app.inject({
    method,
    url: `/api/v0${url}`,
    headers: { ...bearer(token), 'accept-language': lang },
    ...(payload ? { payload } : {}),
  });
const queue = async (query: string, token = tokens.analyst) => {
  const res = await call('GET', `/analyst/queue/?${query}`, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<QueueListResponse>();
};
const keysOf = (page: QueueListResponse) => page.results.map((r) => r.key);
/** The queue of systems A and B only (the big system's rows are for the total's cap). */
const AB = () => `system__in=${sys.a},${sys.b}`;

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  sys.a = (await buildSystem(ctx)).id;
  sys.b = (await buildSystem(ctx)).id;
  const analyst = await buildAnalyst(ctx);
  analystId = analyst.id;
  tokens.analyst = await analyst.login();
  otherAnalystId = (await buildAnalyst(ctx)).id;
  const admin = await buildUser(ctx, { role: 'admin' });
  tokens.admin = await admin.login();
  const customer = await buildCustomer(ctx, [sys.a]);
  customerId = customer.id;
  tokens.customer = await customer.login();
  category = (await issueTypeReference(ctx)).categories[0]!.id;

  const now = Date.now();
  const make = async (name: string, system: number, fields: Parameters<typeof buildIncident>[2]) => {
    const row = await buildIncident(ctx, system, fields);
    key[name] = row.key;
    id[name] = row.id;
  };
  // waits: Waiting for support (assigned, registered, deadline far)
  await make('support', sys.a, {
    status: 'waiting_for_support',
    socAssigneeId: analystId,
    sla: new Date(now + 24 * HOUR),
    notifiedAt: new Date(now),
    categoryId: category,
    created: new Date(now - 5 * HOUR),
  });
  // waits: unregistered, deadline within the hour, nobody assigned
  await make('near', sys.a, {
    status: 'waiting_for_customer',
    priority: 'critical',
    sla: new Date(now + 10 * 60_000),
    created: new Date(now - 4 * HOUR),
  });
  // waits: unregistered, deadline passed
  await make('breached', sys.a, {
    status: 'work_in_progress',
    priority: 'high',
    socAssigneeId: otherAnalystId,
    sla: new Date(now - HOUR),
    created: new Date(now - 3 * HOUR),
  });
  // waits: a customer's comment after the SOC's
  await make('commented', sys.a, {
    status: 'work_in_progress',
    priority: 'low',
    socAssigneeId: analystId,
    sla: new Date(now + 48 * HOUR),
    notifiedAt: new Date(now),
    created: new Date(now - 2 * HOUR),
  });
  await buildComment(ctx, id.commented!);
  await buildComment(ctx, id.commented!, { authorId: customerId, authorName: 'Customer' });
  // an internal note of the SOC is no answer to the customer: the comment still waits
  await buildComment(ctx, id.commented!, { internal: true });
  // does not wait: assigned, registered, with the customer
  await make('quiet', sys.a, {
    status: 'waiting_for_customer',
    socAssigneeId: analystId,
    sla: new Date(now + 24 * HOUR),
    notifiedAt: new Date(now),
  });
  // does not wait: finished (until reopened below)
  await make('closed', sys.a, { status: 'closed', socAssigneeId: analystId, notifiedAt: new Date(now) });
  // waits on the other tenant: no deadline, nobody assigned
  await make('other', sys.b, { status: 'waiting_for_support', created: new Date(now - HOUR) });

  const res = await call('POST', '/admin/service_tokens/', tokens.admin, {
    name: 'SOAR of system A',
    user_id: analystId,
    systems: [sys.a],
  });
  expect(res.statusCode, res.body).toBe(201);
  tokens.scopedToA = res.json<ApiTokenCreated>().token;
});
afterAll(async () => ctx?.close());

describe('triage queue: access', () => {
  it('refuses customers with 403 before looking at the query or body', async () => {
    for (const [method, url] of [
      ['GET', '/analyst/queue/?nonsense=1'],
      ['GET', '/analyst/queue/counts/?nonsense=1'],
      ['POST', '/analyst/queue/bulk/'],
      ['GET', '/analyst/staff/?nonsense=1'],
      ['GET', '/analyst/incidents/1/?nonsense=1'],
    ] as const) {
      const res = await call(
        method,
        url,
        tokens.customer,
        method === 'POST' ? { nonsense: true } : undefined,
      );
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
  });

  it('refuses unknown filters to staff with 400', async () => {
    const res = await call('GET', '/analyst/queue/?owner=1', tokens.analyst);
    expect(res.statusCode).toBe(400);
  });
});

describe('triage queue: what waits and why', () => {
  it('lists the waiting incidents by SLA deadline, none last, each with its reasons', async () => {
    const page = await queue(AB());
    expect(keysOf(page)).toEqual([key.breached, key.near, key.support, key.commented, key.other]);
    expect(page.total).toBe(5);
    expect(page.total_exact).toBe(true);
    const reasons = Object.fromEntries(page.results.map((r) => [r.key, r.reasons]));
    expect(reasons).toEqual({
      [key.breached!]: ['sla_breached'],
      [key.near!]: ['sla_near', 'unassigned'],
      [key.support!]: ['waiting_for_support'],
      [key.commented!]: ['customer_comment'],
      [key.other!]: ['waiting_for_support', 'unassigned'],
    });
    const support = page.results.find((r) => r.key === key.support)!;
    expect(support.soc_assignee?.id).toBe(analystId);
    expect(support.category_ref.map((c) => c.id)).toEqual([category]);
    expect(support.sla_state).toBe('ok');
  });

  it('filters by tenant, priority, status, category, assignee, mine, SLA state and reason', async () => {
    expect(keysOf(await queue(`system__in=${sys.b}`))).toEqual([key.other]);
    expect(keysOf(await queue(`${AB()}&priority__in=critical,high`))).toEqual([key.breached, key.near]);
    expect(keysOf(await queue(`${AB()}&status__in=work_in_progress`))).toEqual([key.breached, key.commented]);
    expect(keysOf(await queue(`${AB()}&category__in=${category}`))).toEqual([key.support]);
    expect(keysOf(await queue(`${AB()}&soc_assignee__in=${otherAnalystId}`))).toEqual([key.breached]);
    expect(keysOf(await queue(`${AB()}&mine=true`))).toEqual([key.support, key.commented]);
    expect(keysOf(await queue(`${AB()}&soc_assignee__isnull=true`))).toEqual([key.near, key.other]);
    expect(keysOf(await queue(`${AB()}&sla_state__in=breached`))).toEqual([key.breached]);
    expect(keysOf(await queue(`${AB()}&sla_state__in=near,breached`))).toEqual([key.breached, key.near]);
    expect(keysOf(await queue(`${AB()}&sla_state__in=ok`))).toEqual([key.support, key.commented, key.other]);
    expect(keysOf(await queue(`${AB()}&reason__in=customer_comment`))).toEqual([key.commented]);
  });

  it('sorts by priority, creation and update on request', async () => {
    expect(keysOf(await queue(`${AB()}&ordering=-priority`))).toEqual([
      key.near,
      key.breached,
      key.other,
      key.support,
      key.commented,
    ]);
    expect(keysOf(await queue(`${AB()}&ordering=created`))).toEqual([
      key.support,
      key.near,
      key.breached,
      key.commented,
      key.other,
    ]);
    expect(keysOf(await queue(`${AB()}&ordering=-sla`))).toEqual([
      key.other,
      key.commented,
      key.support,
      key.near,
      key.breached,
    ]);
  });

  it('pages by limit and offset with next and previous links', async () => {
    const first = await queue(`${AB()}&limit=2`);
    expect(keysOf(first)).toEqual([key.breached, key.near]);
    expect(first.previous).toBeNull();
    expect(first.next).toContain('offset=2');
    const last = await queue(`${AB()}&limit=2&offset=4`);
    expect(keysOf(last)).toEqual([key.other]);
    expect(last.next).toBeNull();
    expect(last.previous).toContain('offset=2');
  });

  it('counts per tenant with the same filters', async () => {
    const res = await call('GET', `/analyst/queue/counts/?${AB()}`, tokens.analyst);
    expect(res.statusCode, res.body).toBe(200);
    const counts = res.json<QueueCounts>();
    expect(counts.results.map((r) => [r.system.id, r.count])).toEqual([
      [sys.a, 4],
      [sys.b, 1],
    ]);
    expect(counts.total).toBe(5);
  });

  it('drops the customer-comment reason when the SOC answers, and shows a reopened incident', async () => {
    const answered = await call('POST', `/analyst/incidents/${key.commented}/comments/`, tokens.analyst, {
      body: 'We are on it.',
    });
    expect(answered.statusCode, answered.body).toBe(201);
    const reopened = await call('POST', `/soc/incs/${key.closed}/reopen/`, tokens.customer, {
      comment: 'It happened again.',
    });
    expect(reopened.statusCode, reopened.body).toBe(200);
    const page = await queue(AB());
    expect(keysOf(page)).not.toContain(key.commented);
    // the reopening comment is the customer's, newer than the SOC's last word
    expect(page.results.find((r) => r.key === key.closed)?.reasons).toEqual([
      'waiting_for_support',
      'reopened',
      'customer_comment',
    ]);
  });
});

describe('triage queue: scope of a token limited to systems', () => {
  it('shows and counts only the token’s systems and refuses others’ incidents per item', async () => {
    const page = await queue('', tokens.scopedToA);
    expect(page.results.every((r) => r.system.id === sys.a)).toBe(true);
    expect(keysOf(page)).toContain(key.near);
    expect(keysOf(await queue(`system__in=${sys.b}`, tokens.scopedToA))).toEqual([]);
    const counts = (await call('GET', '/analyst/queue/counts/', tokens.scopedToA)).json<QueueCounts>();
    expect(counts.results.map((r) => r.system.id)).toEqual([sys.a]);
    const bulk = await call('POST', '/analyst/queue/bulk/', tokens.scopedToA, {
      action: 'priority',
      keys: [key.other, key.near],
      priority: 'critical',
    });
    expect(bulk.json<QueueBulkResult>().results.map((r) => [r.key, r.status])).toEqual([
      [key.other, 404],
      [key.near, 200],
    ]);
  });
});

describe('SOC assignee', () => {
  it('is set by staff, answered to staff and refused for a customer in both languages', async () => {
    const set = await call('PATCH', `/analyst/incidents/${key.near}/`, tokens.admin, {
      soc_assignee: analystId,
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json<AnalystIncidentCard>().soc_assignee?.id).toBe(analystId);
    for (const [lang, text] of [
      ['en', 'The SOC assignee must be an analyst or an administrator of the provider.'],
      ['ru', 'Ответственным SOC может быть только аналитик или администратор провайдера.'],
    ] as const) {
      const refused = await call(
        'PATCH',
        `/analyst/incidents/${key.near}/`,
        tokens.analyst,
        {
          soc_assignee: customerId,
        },
        lang,
      );
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ soc_assignee: [text] });
    }
    const cleared = await call('PATCH', `/analyst/incidents/${key.near}/`, tokens.analyst, {
      soc_assignee: null,
    });
    expect(cleared.json<AnalystIncidentCard>().soc_assignee).toBeNull();
  });

  it('never reaches the customer’s card or list', async () => {
    await call('PATCH', `/analyst/incidents/${key.support}/`, tokens.analyst, { soc_assignee: analystId });
    const card = await call('GET', `/soc/incs/${key.support}/`, tokens.customer);
    expect(card.statusCode).toBe(200);
    expect(card.json()).not.toHaveProperty('soc_assignee');
    const list = await call('GET', '/soc/incs/', tokens.customer);
    expect(list.body).not.toContain('soc_assignee');
    expect(list.body).not.toContain('customer_comment_at');
  });

  it('is forgotten when its user is deleted', async () => {
    const leaving = await buildAnalyst(ctx);
    const finished = await buildIncident(ctx, sys.b, { status: 'closed' });
    await call('PATCH', `/analyst/incidents/${finished.key}/`, tokens.analyst, { soc_assignee: leaving.id });
    await ctx.database.db.execute(sql`DELETE FROM users WHERE id = ${leaving.id}`);
    const [row] = await ctx.database.db
      .select({ assignee: incidents.socAssigneeId })
      .from(incidents)
      .where(eq(incidents.key, finished.key));
    expect(row!.assignee).toBeNull();
  });
});

describe('staff to assign', () => {
  it('lists active analysts and administrators by username, never customers or the inactive', async () => {
    const tag = `zz${Date.now().toString(36)}`;
    const b = await buildAnalyst(ctx, { username: `${tag}-b`, firstName: 'Vera', lastName: 'Orlova' });
    const a = await buildUser(ctx, { role: 'admin', username: `${tag}-a` });
    await buildAnalyst(ctx, { username: `${tag}-gone`, isActive: false });
    await buildCustomer(ctx, [sys.a], { username: `${tag}-customer` });
    const res = await call('GET', `/analyst/staff/?search=${tag}`, tokens.analyst);
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<StaffListResponse>();
    expect(page.results.map((u) => u.id)).toEqual([a.id, b.id]);
    expect(page.total).toBe(2);
    // by a part of the name, case-insensitive; the wildcards of LIKE match literally
    const byName = await call('GET', '/analyst/staff/?search=ORLOV', tokens.analyst);
    expect(byName.json<StaffListResponse>().results).toContainEqual({
      id: b.id,
      username: `${tag}-b`,
      full_name: 'Vera Orlova',
    });
    const literal = await call('GET', `/analyst/staff/?search=${encodeURIComponent('%')}`, tokens.analyst);
    expect(literal.json<StaffListResponse>().total).toBe(0);
    const paged = await call('GET', `/analyst/staff/?search=${tag}&limit=1&offset=1`, tokens.analyst);
    expect(paged.json<StaffListResponse>().results.map((u) => u.id)).toEqual([b.id]);
    expect(paged.json<StaffListResponse>().previous).not.toBeNull();
  });
});

describe('analyst incident card', () => {
  it('answers the customer’s card with the SOC assignee to staff', async () => {
    await call('PATCH', `/analyst/incidents/${key.support}/`, tokens.analyst, {
      soc_assignee: otherAnalystId,
    });
    const res = await call('GET', `/analyst/incidents/${key.support}/`, tokens.analyst);
    expect(res.statusCode, res.body).toBe(200);
    const card = res.json<AnalystIncidentCard>();
    expect(card.key).toBe(key.support);
    expect(card.soc_assignee?.id).toBe(otherAnalystId);
    expect((await call('GET', '/analyst/incidents/999999999/', tokens.analyst)).statusCode).toBe(404);
  });
});

describe('triage queue: bulk changes', () => {
  it('assigns many, refusing a customer as assignee for each and leaving the rest', async () => {
    const res = await call('POST', '/analyst/queue/bulk/', tokens.analyst, {
      action: 'assign',
      keys: [key.near, key.other],
      soc_assignee: analystId,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<QueueBulkResult>().results.map((r) => r.status)).toEqual([200, 200]);
    expect(keysOf(await queue(`${AB()}&soc_assignee__isnull=true`))).toEqual([]);
    const refused = await call('POST', '/analyst/queue/bulk/', tokens.analyst, {
      action: 'assign',
      keys: [key.near],
      soc_assignee: customerId,
    });
    expect(refused.json<QueueBulkResult>().results[0]).toMatchObject({
      status: 400,
      errors: { soc_assignee: ['The SOC assignee must be an analyst or an administrator of the provider.'] },
    });
  });

  it('sets the status where the workflow allows it and writes each change’s events', async () => {
    const before = await ctx.database.db.select({ n: sql<number>`max(id)` }).from(events);
    const res = await call('POST', '/analyst/queue/bulk/', tokens.analyst, {
      action: 'status',
      keys: [key.support, key.other, 99_999_999],
      status: 'completed',
      comment: 'Handled by the SOC.',
    });
    expect(res.statusCode, res.body).toBe(200);
    const results = res.json<QueueBulkResult>().results;
    expect(results.map((r) => [r.key, r.status, r.incident_status])).toEqual([
      [key.support, 200, 'completed'],
      [key.other, 200, 'completed'],
      [99_999_999, 404, null],
    ]);
    // a finished incident cannot be completed again: the workflow's 400, the others unaffected
    const again = await call('POST', '/analyst/queue/bulk/', tokens.analyst, {
      action: 'status',
      keys: [key.support, key.near],
      status: 'canceled',
      comment: 'Duplicate.',
    });
    const [refused, canceled] = again.json<QueueBulkResult>().results;
    expect(refused!.status).toBe(400);
    expect(refused!.errors).not.toBeNull();
    expect(canceled).toMatchObject({ status: 200, incident_status: 'canceled' });
    const written = await ctx.database.db
      .select({ key: events.incidentKey, data: events.data })
      .from(events)
      .where(and(eq(events.type, 'incident.updated'), sql`${events.id} > ${before[0]!.n ?? 0}`));
    const statusChanges = written.filter((e) => (e.data as { previous_status?: string }).previous_status);
    expect(statusChanges.map((e) => e.key).sort()).toEqual([key.support, key.other, key.near].sort());
  });

  it('sets the priority of many through the single-incident change', async () => {
    const res = await call('POST', '/analyst/queue/bulk/', tokens.analyst, {
      action: 'priority',
      keys: [key.breached, key.commented],
      priority: 'medium',
    });
    expect(res.json<QueueBulkResult>().results.map((r) => r.status)).toEqual([200, 200]);
    const rows = await ctx.database.db
      .select({ priority: incidents.priority })
      .from(incidents)
      .where(sql`${incidents.key} IN (${key.breached}, ${key.commented})`);
    expect(rows.map((r) => r.priority)).toEqual(['medium', 'medium']);
  });
});

describe('triage queue: totals past 10,000', () => {
  it('stops counting at 10,000 and still offers the next page', { timeout: 240_000 }, async () => {
    sys.big = (await buildSystem(ctx)).id;
    // in batches: each row of one statement updates the same count rows, walking a longer chain
    // of their versions each time
    for (let built = 0; built < 10_001; built += 250)
      await buildIncidents(ctx, sys.big, Math.min(250, 10_001 - built), () => ({
        status: 'waiting_for_support',
      }));
    const page = await queue(`system__in=${sys.big}&limit=10`);
    expect(page.total).toBe(10_000);
    expect(page.total_exact).toBe(false);
    expect(page.next).toContain('offset=10');
  });
});

describe('Markdown preview of the staff editors', () => {
  it('renders and sanitises as saved texts are, for staff only', async () => {
    const res = await call('POST', '/analyst/markdown/', tokens.analyst, {
      markdown: '## Steps\n\n1. **Isolate** the host <script>alert(1)</script> <img src=x onerror=alert(1)>',
    });
    expect(res.statusCode, res.body).toBe(200);
    const { html } = res.json<{ html: string }>();
    expect(html).toContain('<h2>Steps</h2>');
    expect(html).toContain('<strong>Isolate</strong>');
    expect(html).not.toMatch(/<script|onerror/);
    expect((await call('POST', '/analyst/markdown/', tokens.customer, { markdown: 'x' })).statusCode).toBe(
      403,
    );
    const tooLong = await call('POST', '/analyst/markdown/', tokens.analyst, {
      markdown: 'x'.repeat(200_001),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toHaveProperty('markdown');
  });
});
