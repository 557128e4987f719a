import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BUILT_PASSWORD,
  buildAnalyst,
  buildAsset,
  buildCustomer,
  buildService,
  buildSystem,
  buildUser,
  issueTypeReference,
} from '../../test/builders.ts';
import type { TestContext } from '../../test/harness.ts';
import { createTestContext } from '../../test/harness.ts';
import { answerChecker, typedClient } from '../../test/openapi-client.ts';
import type { ApiClient } from '../../test/openapi-client.ts';

/**
 * The analyst API driven by a client generated from the served OpenAPI document (openapi-fetch
 * over openapi-typescript's types, scripts/openapi.mjs) against the real server listening on a
 * port: a SIEM with a service token creates an incident (Idempotency-Key), adds alerts, comments,
 * raises the priority and completes it; the customer then lists and reads it with a personal API
 * token. The calls type-check against the generated types, and every answer is checked against
 * the document at run time (openapi-client.ts): status declared, JSON body as its schema says.
 */
let ctx: TestContext;
let baseUrl: string;
let document: Parameters<typeof typedClient>[1];
let analystId: number;
let customerName: string;
let adminName: string;
let system: number;
let issueType: { id: number; categories: number[] };
let service: number;
let assets: string[];

/** Signs in through the typed client (the web app's own sign-in call) and returns the access token. */
async function signIn(username: string): Promise<string> {
  const { data, error } = await typedClient(baseUrl, document).POST('/api/v0/auth/token/obtain/', {
    body: { username, password: BUILT_PASSWORD },
  });
  if (!data || !('access' in data))
    throw new Error(`sign-in of ${username}: ${JSON.stringify(error ?? data)}`);
  return data.access;
}

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  document = (await (await fetch(`${baseUrl}/api/v0/docs/json`)).json()) as typeof document;

  system = (await buildSystem(ctx)).id;
  customerName = (await buildCustomer(ctx, [system])).username;
  analystId = (await buildAnalyst(ctx)).id;
  adminName = (await buildUser(ctx, { role: 'admin' })).username;
  const reference = await issueTypeReference(ctx);
  issueType = { id: reference.id, categories: reference.categories.map((c) => c.id) };
  service = (await buildService(ctx, system, { sla: { critical: 1, high: 4, medium: 8, low: 24 } })).id;
  assets = [];
  for (let i = 0; i < 2; i++) assets.push((await buildAsset(ctx, system)).cmdbId);
});
afterAll(async () => ctx?.close());

describe('answerChecker', () => {
  it('refuses an answer whose body or status the document does not describe', () => {
    const check = answerChecker(document);
    const path = '/api/v0/analyst/incidents/{key}/alerts/';
    const good = { created: [randomUUID()], existing: [], conflicts: [] };
    expect(check(path, 'POST', 200, 'application/json', good)).toEqual([]);
    expect(check(path, 'POST', 200, 'application/json', { ...good, created: 'one' }).join()).toMatch(
      /created must be array/,
    );
    expect(check(path, 'POST', 200, 'application/json', { created: [] }).join()).toMatch(/existing/);
    expect(check(path, 'POST', 418, 'application/json', good).join()).toMatch(/does not declare/);
    expect(check(path, 'POST', 404, 'application/json', { detail: 'Not found.' })).toEqual([]);
    expect(check(path, 'POST', 404, 'application/json', { message: 'Not found.' })).not.toEqual([]);
    expect(check(path, 'POST', 200, 'text/html', '<p>')).not.toEqual([]);
  });

  it('makes the typed client fail a call whose answer differs from the document', async () => {
    // the served answer lacks a property that this copy of the document requires
    const doctored = structuredClone(document) as unknown as {
      paths: Record<string, { get: { responses: { 200: { content: Record<string, { schema: object }> } } } }>;
    };
    const answer = doctored.paths['/api/v0/portal/config/']!.get.responses[200].content['application/json']!;
    answer.schema = { allOf: [answer.schema, { required: ['not_served'] }] };
    const client = typedClient(baseUrl, doctored);
    await expect(client.GET('/api/v0/portal/config/')).rejects.toThrow(/not_served/);
    await expect(typedClient(baseUrl, document).GET('/api/v0/portal/config/')).resolves.toMatchObject({
      response: { status: 200 },
    });
  });
});

describe('analyst API through the generated client', () => {
  let siem: ApiClient;
  let key: number;
  const idempotencyKey = randomUUID();

  it('an admin issues a service token for the SIEM, acting as an analyst', async () => {
    const admin = typedClient(baseUrl, document, await signIn(adminName));
    const { data, error, response } = await admin.POST('/api/v0/admin/service_tokens/', {
      body: { name: 'SIEM', user_id: analystId },
    });
    expect(response.status, JSON.stringify(error)).toBe(201);
    expect(data!.token).toMatch(/^socp_/);
    siem = typedClient(baseUrl, document, data!.token);
  });

  it('creates an incident once for two calls with the same Idempotency-Key', async () => {
    const alertUuid = randomUUID();
    // the same request both times: a key reused with another request is refused (422)
    const create = () =>
      siem.POST('/api/v0/analyst/incidents/', {
        params: { header: { 'idempotency-key': idempotencyKey } },
        body: {
          system,
          issuetype: issueType.id,
          service,
          primary_category: issueType.categories[0]!,
          summary: 'Encoded PowerShell on a workstation',
          description: 'An Office document ran an **encoded PowerShell** command.',
          priority: 'high',
          tags: ['phishing'],
          affected_assets: assets,
          alerts: [
            {
              uuid: alertUuid,
              severity: 'High',
              title: 'Encoded PowerShell started by an Office document',
              platform: 'windows',
              affected_assets: [assets[0]!],
            },
          ],
        },
      });
    const first = await create();
    expect(first.response.status, JSON.stringify(first.error)).toBe(201);
    key = first.data!.key;
    expect(first.data!.status).toBe('waiting_for_customer');
    const again = await create();
    expect(again.response.status).toBe(201);
    expect(again.data!.key).toBe(key);
    const { data: list } = await siem.GET('/api/v0/soc/incs/', {
      params: { query: { search: String(key) } },
    });
    expect(list!.results.filter((i) => i.key === key)).toHaveLength(1);
  });

  it('adds alerts in bulk, idempotent by uuid', async () => {
    const alerts = [randomUUID(), randomUUID()].map((uuid) => ({
      uuid,
      severity: 'Medium' as const,
      platform: 'network' as const,
      title: 'Outbound connection to a rare domain',
    }));
    const path = { key };
    const added = await siem.POST('/api/v0/analyst/incidents/{key}/alerts/', {
      params: { path },
      body: { alerts },
    });
    expect(added.response.status, JSON.stringify(added.error)).toBe(200);
    expect(added.data!.created.sort()).toEqual(alerts.map((a) => a.uuid).sort());
    const repeated = await siem.POST('/api/v0/analyst/incidents/{key}/alerts/', {
      params: { path },
      body: { alerts: alerts.slice(0, 1) },
    });
    expect(repeated.data).toEqual({ created: [], existing: [alerts[0]!.uuid], conflicts: [] });
  });

  it('comments as the SOC, raises the priority to critical and completes the incident', async () => {
    const path = { key };
    const comment = await siem.POST('/api/v0/analyst/incidents/{key}/comments/', {
      params: { path },
      body: { body: 'Please confirm whether **j.smith** opened the attachment.' },
    });
    expect(comment.response.status, JSON.stringify(comment.error)).toBe(201);
    expect(comment.data!.from_soc).toBe(true);

    const raised = await siem.PATCH('/api/v0/analyst/incidents/{key}/', {
      params: { path },
      body: { priority: 'critical' },
    });
    expect(raised.response.status, JSON.stringify(raised.error)).toBe(200);
    expect(raised.data!.priority).toBe('critical');

    const done = await siem.POST('/api/v0/analyst/incidents/{key}/status/', {
      params: { path },
      body: { status: 'completed', comment: 'The host was cleaned and re-imaged.' },
    });
    expect(done.response.status, JSON.stringify(done.error)).toBe(200);
    expect(done.data!.status).toBe('completed');
  });

  it('the customer lists and reads it with a personal API token; the analyst API refuses it', async () => {
    const session = typedClient(baseUrl, document, await signIn(customerName));
    const minted = await session.POST('/api/v0/auth/tokens/', {
      body: { name: 'reporting script', password: BUILT_PASSWORD },
    });
    expect(minted.response.status, JSON.stringify(minted.error)).toBe(201);
    const customer = typedClient(baseUrl, document, minted.data!.token);

    const list = await customer.GET('/api/v0/soc/incs/', { params: { query: { limit: 10 } } });
    expect(list.response.status, JSON.stringify(list.error)).toBe(200);
    expect(list.data!.results.map((i) => i.key)).toEqual([key]);

    const card = await customer.GET('/api/v0/soc/incs/{key}/', { params: { path: { key } } });
    expect(card.response.status).toBe(200);
    expect(card.data).toMatchObject({ key, priority: 'critical', status: 'completed' });

    const comments = await customer.GET('/api/v0/soc/incs/{key}/comments/', { params: { path: { key } } });
    expect(comments.data!.results.map((c) => c.from_soc)).toContain(true);

    const alerts = await customer.GET('/api/v0/soc/incs/{key}/alerts/', { params: { path: { key } } });
    expect(alerts.data!.total).toBe(3);

    const refused = await customer.POST('/api/v0/analyst/incidents/{key}/comments/', {
      params: { path: { key } },
      body: { body: 'not mine to write' },
    });
    expect(refused.response.status).toBe(403);
    expect(typeof refused.error?.detail).toBe('string');
  });
});
