import { readFile, readdir } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import PostalMime from 'postal-mime';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiTokenCreated, WebhookDelivery, WebhookEndpointWithSecret } from '@soc/contracts';
import { buildApp } from '../../app.ts';
import type { Config } from '../../core/config.ts';
import { ROUTE_LIMIT_DEFAULTS, WEBHOOK_QUEUE_DEFAULTS, routeLimitsOff } from '../../core/config.ts';
import { queryRows } from '../../db/client.ts';
import { auditLog, incidents, jobs, reports, tasks, webhookEndpoints } from '../../db/schema/index.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import { maskWebhookUrl } from './webhooks.presenter.ts';
import {
  BUILT_PASSWORD,
  buildAnalyst,
  buildComment,
  buildContact,
  buildCustomer,
  buildIncident,
  buildReport,
  buildSystem,
} from '../../test/builders.ts';

/** What the receiver answers next (first in, first out); empty: 204. */
type Answer = { status: number; headers?: Record<string, string> };

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let ctx: TestContext;
let receiverUrl: string;
const received: Received[] = [];
const answers: Answer[] = [];
let closeReceiver: () => Promise<void>;

let systemA: { id: number };
let systemB: { id: number };
let customerA: string;
let customerB: string;
let analyst: string;

beforeAll(async () => {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() });
      const answer = answers.shift() ?? { status: 204 };
      res.writeHead(answer.status, answer.headers);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closeReceiver = () => new Promise((resolve) => server.close(() => resolve()));
  ctx = await createTestContext({
    incidents: 0,
    // the receiver runs on loopback: allowed by the administrator's list in this test only
    config: {
      webhooks: { allowPrivateCidrs: ['127.0.0.1/32'], retryBaseMs: 0, ...WEBHOOK_QUEUE_DEFAULTS },
    },
  });
  systemA = await buildSystem(ctx);
  systemB = await buildSystem(ctx);
  customerA = await (await buildCustomer(ctx, [systemA.id])).login();
  customerB = await (await buildCustomer(ctx, [systemB.id])).login();
  analyst = await (await buildAnalyst(ctx)).login();
});

afterAll(async () => {
  await ctx?.close();
  await closeReceiver?.();
});

beforeEach(() => {
  received.length = 0;
  answers.length = 0;
});

// each test starts without endpoints (a failed one must not leave its endpoint behind)
afterEach(async () => {
  await ctx.database.db.delete(webhookEndpoints);
});

async function createEndpoint(
  token: string,
  body: Record<string, unknown>,
): Promise<WebhookEndpointWithSecret> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v0/soc/webhooks/',
    headers: bearer(token),
    payload: { url: `${receiverUrl}/hook`, events: ['incident.created'], ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<WebhookEndpointWithSecret>();
}

async function deliveriesOf(token: string, id: number): Promise<WebhookDelivery[]> {
  const res = await ctx.app.inject({
    method: 'GET',
    url: `/api/v0/soc/webhooks/${id}/deliveries/`,
    headers: bearer(token),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ results: WebhookDelivery[] }>().results;
}

/** Verifies a received request as a receiver would, with the `standardwebhooks` package. */
const verify = (r: Received, secret: string) =>
  new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as {
    type: string;
    data: Record<string, unknown>;
  };

const runJobs = () => ctx.app.jobs.runDue();

describe('webhook endpoints', () => {
  it('are managed by the system’s customers, the secret shown once, other tenants answered 404', async () => {
    const created = await createEndpoint(customerA, { system: systemA.id, description: 'SIEM' });
    expect(created.secret).toMatch(/^whsec_/);
    expect(created).toMatchObject({ system: { id: systemA.id }, format: 'generic', active: true });

    const list = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/soc/webhooks/',
      headers: bearer(customerA),
    });
    expect(list.statusCode).toBe(200);
    expect(list.json<{ results: { id: number }[] }>().results.map((x) => x.id)).toContain(created.id);
    expect(list.body).not.toContain(created.secret);
    expect(list.body).not.toContain('secret_sealed');

    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const res = await ctx.app.inject({
        method,
        url: `/api/v0/soc/webhooks/${created.id}/`,
        headers: bearer(customerB),
        ...(method === 'PATCH' ? { payload: { active: false } } : {}),
      });
      expect(res.statusCode, method).toBe(404);
    }
    const foreign = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/soc/webhooks/',
      headers: bearer(customerB),
      payload: { system: systemA.id, url: `${receiverUrl}/x`, events: ['incident.created'] },
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toHaveProperty('system');

    // analysts manage any system's endpoints
    const patched = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/v0/soc/webhooks/${created.id}/`,
      headers: bearer(analyst),
      payload: { events: ['incident.created', 'report.ready'], active: false },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ events: ['incident.created', 'report.ready'], active: false });
    const removed = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/v0/soc/webhooks/${created.id}/`,
      headers: bearer(customerA),
    });
    expect(removed.statusCode).toBe(204);
  });

  it('refuses private, loopback, link-local and metadata targets and URLs with credentials', async () => {
    const cases: [string, string][] = [
      ['http://10.1.2.3/hook', 'url'],
      ['http://192.168.1.10/hook', 'url'],
      ['http://169.254.169.254/latest/meta-data/', 'url'],
      ['http://[::1]:8080/hook', 'url'],
      ['http://[::ffff:10.0.0.1]/hook', 'url'],
      // IPv4-compatible and NAT64 spellings of loopback and metadata (issue 37)
      ['http://[::127.0.0.1]:6666/', 'url'],
      ['http://[64:ff9b::169.254.169.254]/', 'url'],
      // loopback, but not the one address the allow-list names
      ['http://127.0.0.2:9/hook', 'url'],
      ['ftp://example.com/hook', 'url'],
      ['http://user:pass@example.com/hook', 'url'],
    ];
    for (const [url, field] of cases) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/v0/soc/webhooks/',
        headers: { ...bearer(customerA), 'accept-language': 'en' },
        payload: { system: systemA.id, url, events: ['incident.created'] },
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toHaveProperty(field);
    }
    const ru = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/soc/webhooks/?language=ru',
      headers: bearer(customerA),
      payload: { system: systemA.id, url: 'http://169.254.169.254/', events: ['incident.created'] },
    });
    expect(ru.json<{ url: string[] }>().url[0]).toMatch(/вебхуки туда не отправляются/);
    // the schema's own messages too
    const credentials = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/soc/webhooks/?language=ru',
      headers: bearer(customerA),
      payload: { system: systemA.id, url: 'http://u:p@example.com/', events: [] },
    });
    expect(credentials.json()).toEqual({
      url: ['Адрес не может содержать имя пользователя или пароль.'],
      events: ['Выберите хотя бы одно событие.'],
    });
  });

  it('refuses at send time a target that is not allowed, without retrying', async () => {
    const e = await createEndpoint(customerA, { system: systemA.id, events: ['incident.created'] });
    // a target saved before the rule (or changed behind the API) is checked again at every attempt
    await ctx.database.db
      .update(webhookEndpoints)
      .set({ url: 'http://127.0.0.2:9/hook' })
      .where(eq(webhookEndpoints.id, e.id));
    await buildIncident(ctx, systemA.id);
    await runJobs();
    const [d] = await deliveriesOf(customerA, e.id);
    expect(d).toMatchObject({ event: 'incident.created', status: 'failed', attempt: 1, status_code: null });
    expect(d!.error).toMatch(/refused/);
    expect(received).toHaveLength(0);
  });
});

describe('webhook deliveries', () => {
  it('sends a signed delivery for each event of the endpoint’s system', async () => {
    const e = await createEndpoint(customerA, {
      system: systemA.id,
      events: [
        'incident.created',
        'incident.updated',
        'incident.status_changed',
        'comment.created',
        'report.ready',
        'task.updated',
      ],
    });
    const inc = await buildIncident(ctx, systemA.id, {
      status: 'waiting_for_customer',
      summary: 'Port scan',
    });
    await runJobs();
    await ctx.database.db
      .update(incidents)
      .set({ status: 'work_in_progress', priority: 'high' })
      .where(eq(incidents.id, inc.id));
    // a change of what customers do not see sends no incident.updated
    await ctx.database.db.update(incidents).set({ gossopkaError: 'x' }).where(eq(incidents.id, inc.id));
    await buildComment(ctx, inc.id, { body: '<p>We are <b>on it</b></p>' });
    const report = await buildReport(ctx, [systemA.id], { status: 'queued' });
    await ctx.database.db.update(reports).set({ status: 'ready' }).where(eq(reports.id, report.id));
    const [task] = await ctx.database.db
      .insert(tasks)
      .values({
        systemId: systemA.id,
        type: 'question',
        subject: 'Help',
        description: 'd',
        authorName: 'A',
      })
      .returning({ id: tasks.id });
    await ctx.database.db.update(tasks).set({ status: 'in_progress' }).where(eq(tasks.id, task!.id));
    await runJobs();

    const messages = received.map((r) => verify(r, e.secret));
    expect(messages.map((m) => m.type).sort()).toEqual(
      [
        'comment.created',
        'incident.created',
        'incident.status_changed',
        'incident.updated',
        'report.ready',
        'task.updated',
      ].sort(),
    );
    const byType = Object.fromEntries(messages.map((m) => [m.type, m.data]));
    expect(byType['incident.created']).toMatchObject({ incident: { key: inc.key, summary: 'Port scan' } });
    expect(byType['incident.updated']!.changed_fields).toEqual(['priority', 'status']);
    expect(byType['incident.status_changed']).toMatchObject({
      previous_status: 'waiting_for_customer',
      incident: { status: 'work_in_progress' },
    });
    expect(byType['comment.created']).toMatchObject({
      comment: { text: expect.stringContaining('on it') as unknown },
    });
    expect(byType['report.ready']).toMatchObject({ report: { id: report.id } });
    expect(byType['task.updated']).toMatchObject({
      task: { id: task!.id, status: 'in_progress' },
      previous_status: 'open',
    });
    // nothing internal travels
    for (const r of received) expect(r.body).not.toMatch(/gossopka|search_text|reporter_id/);
    const ids = new Set(received.map((r) => r.headers['webhook-id']));
    expect(ids.size).toBe(received.length);

    const log = await deliveriesOf(customerA, e.id);
    expect(log).toHaveLength(6);
    for (const d of log) {
      expect(d).toMatchObject({ status: 'succeeded', status_code: 204, attempt: 1 });
      expect(d.duration_ms).toBeGreaterThanOrEqual(0);
    }
  });

  it('never sends an internal note of the SOC, nor a change it would make (design §9)', async () => {
    const e = await createEndpoint(customerA, {
      system: systemA.id,
      events: ['comment.created', 'incident.updated', 'incident.status_changed'],
    });
    const inc = await buildIncident(ctx, systemA.id, { status: 'waiting_for_support' });
    await runJobs();
    received.length = 0;
    const post = (what: 'notes' | 'comments', body: string) =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/v0/analyst/incidents/${inc.key}/${what}/`,
        headers: bearer(analyst),
        payload: { body },
      });
    const note = await post('notes', 'WEBHOOK-NOTE-MARKER of the SOC');
    expect(note.statusCode, note.body).toBe(201);
    await runJobs();
    expect(received).toHaveLength(0);
    expect(await deliveriesOf(customerA, e.id)).toHaveLength(0);
    // the same endpoint does get the SOC's comment, and the status change it makes
    expect((await post('comments', 'a reply the customer sees')).statusCode).toBe(201);
    await runJobs();
    const types = received.map((r) => verify(r, e.secret).type).sort();
    expect(types).toEqual(['comment.created', 'incident.status_changed', 'incident.updated']);
    for (const r of received) expect(r.body).not.toContain('WEBHOOK-NOTE-MARKER');
  });

  it('never sends another tenant’s events, nor one of several systems', async () => {
    const e = await createEndpoint(customerA, {
      system: systemA.id,
      events: ['incident.created', 'report.ready'],
    });
    await buildIncident(ctx, systemB.id);
    const shared = await buildReport(ctx, [systemA.id, systemB.id], { status: 'queued' });
    await ctx.database.db.update(reports).set({ status: 'ready' }).where(eq(reports.id, shared.id));
    await runJobs();
    expect(received).toHaveLength(0);
    expect(await deliveriesOf(customerA, e.id)).toHaveLength(0);
    // the same kind of event of its own system does arrive
    await buildIncident(ctx, systemA.id);
    await runJobs();
    expect(received).toHaveLength(1);
  });

  it('retries after a 500 and a 429 (honouring Retry-After) with the same webhook-id', async () => {
    const e = await createEndpoint(customerA, { system: systemA.id });
    answers.push({ status: 500 }, { status: 429, headers: { 'retry-after': '120' } });
    const before = Date.now();
    await buildIncident(ctx, systemA.id);
    await runJobs();
    // the 500 was retried at once (base delay 0 in tests); the 429 waits as long as it asked
    expect(received).toHaveLength(2);
    let [d] = await deliveriesOf(customerA, e.id);
    expect(d).toMatchObject({ status: 'retrying', attempt: 2, status_code: 429 });
    expect(Date.parse(d!.next_attempt_at!) - before).toBeGreaterThanOrEqual(120_000);
    const [job] = await queryRows<{ run_at: Date }>(
      ctx.database.db,
      sql`SELECT run_at FROM jobs WHERE type = 'webhooks.deliver' AND status = 'queued'`,
    );
    expect(new Date(job!.run_at).getTime() - before).toBeGreaterThanOrEqual(120_000);

    // not due yet: nothing is sent
    await runJobs();
    expect(received).toHaveLength(2);
    await ctx.database.db.execute(
      sql`UPDATE jobs SET run_at = now() WHERE type = 'webhooks.deliver' AND status = 'queued'`,
    );
    await runJobs();
    expect(received).toHaveLength(3);
    [d] = await deliveriesOf(customerA, e.id);
    expect(d).toMatchObject({ status: 'succeeded', attempt: 3, status_code: 204, next_attempt_at: null });
    expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    for (const r of received) verify(r, e.secret);
  });

  it('does not retry a 4xx, nor past 24 hours', async () => {
    const e = await createEndpoint(customerA, { system: systemA.id });
    answers.push({ status: 404 });
    await buildIncident(ctx, systemA.id);
    await runJobs();
    expect(received).toHaveLength(1);
    expect((await deliveriesOf(customerA, e.id))[0]).toMatchObject({ status: 'failed', status_code: 404 });

    // a delivery made 25 hours ago: its retry window is over, a 503 ends it
    const test = await ctx.app.inject({
      method: 'POST',
      url: `/api/v0/soc/webhooks/${e.id}/test/`,
      headers: bearer(customerA),
    });
    await ctx.database.db.execute(
      sql`UPDATE webhook_deliveries SET created_at = now() - interval '25 hours' WHERE id = ${test.json<WebhookDelivery>().id}`,
    );
    answers.push({ status: 503 });
    await runJobs();
    expect(received).toHaveLength(2);
    expect((await deliveriesOf(customerA, e.id))[0]).toMatchObject({
      status: 'failed',
      next_attempt_at: null,
    });
  });

  it('turns an endpoint off after 3 days of failures and mails the system’s contacts', async () => {
    const contact = await buildContact(ctx, systemA.id, { locale: 'en' });
    const e = await createEndpoint(customerA, { system: systemA.id });
    await ctx.database.db
      .update(webhookEndpoints)
      .set({ failingSince: new Date(Date.now() - 3 * 86_400_000 - 60_000) })
      .where(eq(webhookEndpoints.id, e.id));
    answers.push({ status: 500 }, { status: 500 });
    await buildIncident(ctx, systemA.id);
    await runJobs();
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/v0/soc/webhooks/${e.id}/`,
      headers: bearer(customerA),
    });
    expect(res.json()).toMatchObject({ active: false });
    expect(res.json<{ disabled_at: string | null }>().disabled_at).not.toBeNull();
    const outbox = ctx.config.mail.outboxDir;
    const mails = await Promise.all(
      (await readdir(outbox)).map(async (f) => PostalMime.parse(await readFile(path.join(outbox, f)))),
    );
    const mail = mails.find(
      (m) => m.to?.[0]?.address === contact.email && m.subject?.includes('Webhook endpoint turned off'),
    );
    expect(mail?.text).toContain('failed for 3 days');
    // the pending retry of a turned-off endpoint is not sent
    const sent = received.length;
    await ctx.database.db.execute(
      sql`UPDATE jobs SET run_at = now() WHERE type = 'webhooks.deliver' AND status = 'queued'`,
    );
    await runJobs();
    expect(received).toHaveLength(sent);

    // turned on again by a person: its failures start anew
    const on = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/v0/soc/webhooks/${e.id}/`,
      headers: bearer(customerA),
      payload: { active: true },
    });
    expect(on.json()).toMatchObject({ active: true, disabled_at: null, failing_since: null });
  });

  it('sends a test event and sends a message again with the same id', async () => {
    const e = await createEndpoint(customerA, { system: systemA.id });
    const test = await ctx.app.inject({
      method: 'POST',
      url: `/api/v0/soc/webhooks/${e.id}/test/`,
      headers: bearer(customerA),
    });
    expect(test.statusCode, test.body).toBe(202);
    await runJobs();
    expect(received).toHaveLength(1);
    expect(verify(received[0]!, e.secret)).toMatchObject({ type: 'webhook.test' });

    const again = await ctx.app.inject({
      method: 'POST',
      url: `/api/v0/soc/webhooks/${e.id}/deliveries/${test.json<WebhookDelivery>().id}/resend/`,
      headers: bearer(customerA),
    });
    expect(again.statusCode, again.body).toBe(202);
    await runJobs();
    expect(received).toHaveLength(2);
    expect(received[1]!.headers['webhook-id']).toBe(received[0]!.headers['webhook-id']);
    expect(received[1]!.body).toBe(received[0]!.body);
    expect(await deliveriesOf(customerA, e.id)).toHaveLength(2);

    const foreign = await ctx.app.inject({
      method: 'POST',
      url: `/api/v0/soc/webhooks/${e.id}/deliveries/${test.json<WebhookDelivery>().id}/resend/`,
      headers: bearer(customerB),
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('signs with both secrets for 24 hours after a rotation', async () => {
    const e = await createEndpoint(customerA, { system: systemA.id });
    const rotated = await ctx.app.inject({
      method: 'POST',
      url: `/api/v0/soc/webhooks/${e.id}/rotate_secret/`,
      headers: bearer(customerA),
    });
    expect(rotated.statusCode).toBe(200);
    const next = rotated.json<WebhookEndpointWithSecret>();
    expect(next.secret).not.toBe(e.secret);
    expect(Date.parse(next.previous_secret_expires_at!) - Date.now()).toBeGreaterThan(23 * 3_600_000);
    await buildIncident(ctx, systemA.id);
    await runJobs();
    expect(received).toHaveLength(1);
    verify(received[0]!, next.secret);
    verify(received[0]!, e.secret);

    // once the overlap is over, only the new secret signs
    await ctx.database.db
      .update(webhookEndpoints)
      .set({ previousSecretExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(webhookEndpoints.id, e.id));
    await buildIncident(ctx, systemA.id);
    await runJobs();
    verify(received[1]!, next.secret);
    expect(() => verify(received[1]!, e.secret)).toThrow();
  });

  it('shapes Slack, Teams and Telegram bodies', async () => {
    const slack = await createEndpoint(customerA, { system: systemA.id, format: 'slack', language: 'en' });
    const teams = await createEndpoint(customerA, { system: systemA.id, format: 'teams', language: 'ru' });
    const telegram = await createEndpoint(customerA, {
      system: systemA.id,
      format: 'telegram',
      telegram_chat_id: '-100123',
      language: 'en',
    });
    const inc = await buildIncident(ctx, systemA.id, { summary: 'Malware <found>' });
    await runJobs();
    const bodyOf = (id: number) =>
      JSON.parse(received.find((r) => r.path === '/hook' && verifyOwner(r, id))!.body) as Record<
        string,
        unknown
      >;
    const verifyOwner = (r: Received, id: number) => {
      const secret = [slack, teams, telegram].find((x) => x.id === id)!.secret;
      try {
        verify(r, secret);
        return true;
      } catch {
        return false;
      }
    };
    expect(bodyOf(slack.id)).toMatchObject({
      text: `New incident #${inc.key}: Malware <found>`,
      blocks: expect.arrayContaining([expect.objectContaining({ type: 'actions' })]) as unknown,
    });
    expect(bodyOf(teams.id)).toMatchObject({
      type: 'message',
      attachments: [
        { contentType: 'application/vnd.microsoft.card.adaptive', content: { type: 'AdaptiveCard' } },
      ],
    });
    expect(JSON.stringify(bodyOf(teams.id))).toContain(`Новый инцидент №${inc.key}`);
    expect(bodyOf(telegram.id)).toMatchObject({ chat_id: '-100123', parse_mode: 'HTML' });
    expect(bodyOf(telegram.id).text).toContain('Malware &lt;found&gt;');
  });

  it('lists every route in the OpenAPI document with an operationId', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/api/v0/docs/json' })).json<{
      paths: Record<string, Record<string, { operationId?: string; tags?: string[] }>>;
    }>();
    const ops = Object.entries(doc.paths)
      .filter(([p]) => p.startsWith('/api/v0/soc/webhooks/'))
      .flatMap(([, methods]) => Object.values(methods));
    expect(ops).toHaveLength(9);
    for (const op of ops) {
      expect(op.operationId).toMatch(/^[a-z][A-Za-z]+$/);
      expect(op.tags).toEqual(['webhooks']);
    }
  });
});

describe('webhook URLs are secrets (issue 37 item 4)', () => {
  it('are masked in every answer, audit entry, mail and log line; deliveries use them whole', async () => {
    const lines: string[] = [];
    const app = await buildApp({
      config: { ...ctx.config, logLevel: 'debug' },
      database: ctx.database,
      logStream: { write: (line) => void lines.push(line) },
    });
    await app.ready();
    try {
      // a Telegram bot token in the path, a key in the query
      const secretPath = '/bot123456789:AAEbotTokenSecret0123/sendMessage?key=querySecret42';
      const url = `${receiverUrl}${secretPath}`;
      const masked = `${receiverUrl}/…`;
      const secrets = /AAEbotTokenSecret0123|querySecret42/;
      await buildContact(ctx, systemA.id, { locale: 'en' });
      // another user of the system, with a read-only personal token
      const colleague = await (await buildCustomer(ctx, [systemA.id])).login();
      const token = await ctx.app.inject({
        method: 'POST',
        url: '/api/v0/auth/tokens/',
        headers: bearer(colleague),
        payload: { name: 'reader', password: BUILT_PASSWORD },
      });
      expect(token.statusCode, token.body).toBe(201);
      const readOnly = token.json<ApiTokenCreated>().token;
      const call = (method: 'GET' | 'POST' | 'PATCH', path: string, who: string, payload?: object) =>
        app.inject({ method, url: `/api/v0/soc/webhooks/${path}`, headers: bearer(who), payload });

      const created = await call('POST', '', customerA, {
        system: systemA.id,
        url,
        events: ['incident.created'],
        format: 'telegram',
        telegram_chat_id: '-100123',
      });
      expect(created.statusCode, created.body).toBe(201);
      const { id } = created.json<WebhookEndpointWithSecret>();
      expect(created.json()).toMatchObject({ url: masked });

      // a change of other fields keeps the URL: without it, or with the masked one sent back
      const patched = await call('PATCH', `${id}/`, customerA, { url: masked, description: 'Bot' });
      expect(patched.statusCode, patched.body).toBe(200);
      const renamed = await call('PATCH', `${id}/`, customerA, { language: 'en' });
      expect(renamed.statusCode, renamed.body).toBe(200);
      const [stored] = await ctx.database.db
        .select({ url: webhookEndpoints.url })
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.id, id));
      expect(stored!.url).toBe(url);

      // the receiver gets the whole URL
      const test = await call('POST', `${id}/test/`, customerA);
      expect(test.statusCode, test.body).toBe(202);
      await app.jobs.runDue();
      expect(received.map((r) => r.path)).toEqual([secretPath]);
      // the mail that tells the system's contacts the endpoint was turned off
      await ctx.database.db
        .insert(jobs)
        .values({ type: 'webhooks.disabled_mail', payload: { endpointId: id } });
      await app.jobs.runDue();
      const outbox = ctx.config.mail.outboxDir;
      const mails = await Promise.all(
        (await readdir(outbox)).map(async (f) => PostalMime.parse(await readFile(path.join(outbox, f)))),
      );
      const mail = mails.find((m) => m.subject === `Webhook endpoint turned off: ${masked}`);
      expect(mail?.text).toContain(`${masked} of`);
      expect(`${mail?.subject} ${mail?.text}`).not.toMatch(secrets);

      const answers = [
        created,
        patched,
        renamed,
        await call('GET', '', readOnly),
        await call('GET', `${id}/`, readOnly),
        await call('GET', `${id}/deliveries/`, readOnly),
        await call('GET', '', analyst),
      ];
      for (const res of answers) {
        expect(res.statusCode, res.body).toBe(res === created ? 201 : 200);
        expect(res.body).not.toMatch(secrets);
      }
      expect(answers[3]!.json<{ results: { id: number; url: string }[] }>().results).toContainEqual(
        expect.objectContaining({ id, url: masked }),
      );
      const audit = await ctx.database.db
        .select({ action: auditLog.action, details: auditLog.details })
        .from(auditLog)
        .where(eq(auditLog.objectType, 'webhook_endpoint'));
      expect(audit.map((a) => a.action)).toEqual(
        expect.arrayContaining(['webhook.create', 'webhook.update', 'webhook.test']),
      );
      expect(JSON.stringify(audit)).not.toMatch(secrets);
      expect(audit.find((a) => a.action === 'webhook.create')!.details).toMatchObject({ url: masked });
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.join('')).not.toMatch(secrets);
    } finally {
      await app.close();
    }
  });

  it('keeps the scheme, host and port only', () => {
    expect(maskWebhookUrl('https://api.telegram.org/bot1:AAE/sendMessage')).toBe(
      'https://api.telegram.org/…',
    );
    expect(maskWebhookUrl('https://hooks.slack.com/services/T0/B0/xyz')).toBe('https://hooks.slack.com/…');
    expect(maskWebhookUrl('https://siem.example.com:8443/?token=1')).toBe('https://siem.example.com:8443/…');
    expect(maskWebhookUrl('http://[2001:db8::1]:8080/h#x')).toBe('http://[2001:db8::1]:8080/…');
    expect(maskWebhookUrl('https://u:p@siem.example.com/')).toBe('https://siem.example.com/…');
    expect(maskWebhookUrl('https://siem.example.com')).toBe('https://siem.example.com/');
    expect(maskWebhookUrl('not a url')).toBe('…');
  });
});

describe('outbound deliveries are bounded (issue 37 item 3)', () => {
  const instances: FastifyInstance[] = [];
  afterAll(async () => {
    for (const app of instances) await app.close();
  });
  async function instance(config: Partial<Config>): Promise<FastifyInstance> {
    const app = await buildApp({ config: { ...ctx.config, ...config }, database: ctx.database });
    await app.ready();
    instances.push(app);
    return app;
  }
  const post = (app: FastifyInstance, path: string, token = customerA, lang = 'en') =>
    app.inject({
      method: 'POST',
      url: `/api/v0/soc/webhooks/${path}`,
      headers: { ...bearer(token), 'accept-language': lang },
    });

  it('answers 429 with Retry-After to test events past the default limit', async () => {
    const app = await instance({
      routeLimits: { windowSeconds: 60, buckets: { ...routeLimitsOff(), ...ROUTE_LIMIT_DEFAULTS } },
    });
    const e = await createEndpoint(customerA, { system: systemA.id });
    const codes: number[] = [];
    let last: Awaited<ReturnType<typeof post>> | undefined;
    for (let i = 0; i < 25; i++) {
      last = await post(app, `${e.id}/test/`);
      codes.push(last.statusCode);
    }
    const n = ROUTE_LIMIT_DEFAULTS.webhook_test.perUser;
    expect(codes).toEqual([...Array<number>(n).fill(202), ...Array<number>(25 - n).fill(429)]);
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    expect(last!.json<{ detail: string }>().detail).toBe(
      `Too many test and repeated webhook deliveries from your account: at most ${n} a minute. Please try again later.`,
    );
    const ru = await post(app, `${e.id}/test/`, customerA, 'ru');
    expect(ru.json<{ detail: string }>().detail).toMatch(
      /^Слишком много тестовых и повторных отправок вебхуков/,
    );
    // a refused request queued nothing
    expect(await deliveriesOf(customerA, e.id)).toHaveLength(n);
  });

  it('caps the deliveries waiting per endpoint and per system; past a cap events are logged as not sent', async () => {
    const app = await instance({
      webhooks: { ...ctx.config.webhooks, queueMaxPerEndpoint: 3, queueMaxPerSystem: 4 },
    });
    const first = await createEndpoint(customerA, { system: systemA.id });
    const second = await createEndpoint(customerA, { system: systemA.id });
    // the receiver is overloaded: every attempt is told to come back in an hour
    answers.push(...Array.from({ length: 20 }, () => ({ status: 429, headers: { 'retry-after': '3600' } })));
    for (let i = 0; i < 3; i++) expect((await post(app, `${first.id}/test/`)).statusCode).toBe(202);
    const full = await post(app, `${first.id}/test/`);
    expect(full.statusCode).toBe(429);
    expect(full.headers['retry-after']).toBe('60');
    expect(full.json<{ detail: string }>().detail).toBe(
      '3 deliveries to this endpoint are waiting to be sent. Try again once some of them are done.',
    );
    // their attempts fail and wait for a retry: still waiting, still full
    await app.jobs.runDue();
    expect(received).toHaveLength(3);
    expect((await post(app, `${first.id}/test/`)).statusCode).toBe(429);

    // an event: the full endpoint does not get it, the other one does (the system has room for one)
    await buildIncident(ctx, systemA.id);
    await app.jobs.runDue();
    expect(received).toHaveLength(4);
    const [dropped] = await deliveriesOf(customerA, first.id);
    expect(dropped).toMatchObject({ event: 'incident.created', status: 'failed', attempt: 0 });
    expect(dropped!.error).toBe(
      'not sent: too many deliveries waiting (at most 3 per endpoint, 4 per system)',
    );
    expect((await deliveriesOf(customerA, second.id))[0]).toMatchObject({ status: 'retrying', attempt: 1 });
    // now the system is full: the next event reaches neither, a test is refused with the system's text
    await buildIncident(ctx, systemA.id);
    await app.jobs.runDue();
    expect(received).toHaveLength(4);
    expect((await deliveriesOf(customerA, second.id))[0]).toMatchObject({ status: 'failed', attempt: 0 });
    const systemFull = await post(app, `${second.id}/test/`, customerA, 'ru');
    expect(systemFull.statusCode).toBe(429);
    expect(systemFull.json<{ detail: string }>().detail).toBe(
      'По этой системе ждут отправки 4 доставок вебхуков. Повторите попытку, когда часть из них завершится.',
    );
    // another tenant's endpoints have queues of their own
    const other = await createEndpoint(customerB, { system: systemB.id });
    expect((await post(app, `${other.id}/test/`, customerB)).statusCode).toBe(202);

    // the receiver is back: the retries go out, the queues empty, and what was not sent can be sent again
    answers.length = 0;
    await ctx.database.db.execute(
      sql`UPDATE jobs SET run_at = now() WHERE type = 'webhooks.deliver' AND status = 'queued'`,
    );
    await app.jobs.runDue();
    expect((await deliveriesOf(customerA, first.id)).filter((d) => d.status === 'succeeded')).toHaveLength(3);
    const again = await post(app, `${first.id}/deliveries/${dropped!.id}/resend/`);
    expect(again.statusCode, again.body).toBe(202);
    await app.jobs.runDue();
    expect(JSON.parse(received.at(-1)!.body)).toMatchObject({ type: 'incident.created' });
  });
});
