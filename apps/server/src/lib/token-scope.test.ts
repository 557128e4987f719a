import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiTokenCreated } from '@soc/contracts';
import { EXAMPLE_RULE } from '../modules/soc-api/index.ts';
import { multipart } from '../security/openapi-operations.ts';
import type { TestContext } from '../test/harness.ts';
import { bearer, createTestContext } from '../test/harness.ts';
import { buildDocument, buildSystem, buildUser } from '../test/builders.ts';
import { SCOPED_TOKEN_GLOBAL_WRITE } from './token-scope.ts';

let ctx: TestContext;
let documentId: number;
let systemId: number;
/** Service tokens by role: one limited to a system, one without a limit. */
const tokens: Record<'analyst' | 'admin', { scoped: string; unscoped: string }> = {
  analyst: { scoped: '', unscoped: '' },
  admin: { scoped: '', unscoped: '' },
};

interface GlobalWrite {
  /** The object every tenant sees and what the call does to it. */
  name: string;
  role: 'analyst' | 'admin';
  method: 'POST' | 'PATCH' | 'PUT';
  url: () => string;
  /** A valid request: a JSON body, or multipart form data. */
  body: () => object | { payload: Buffer; headers: Record<string, string> };
  /** The status of the unscoped token's call. */
  ok: number;
}

const isForm = (b: object): b is { payload: Buffer; headers: Record<string, string> } =>
  'payload' in b && Buffer.isBuffer(b.payload);

/** Every write operation on an object shared by all systems, as a reviewer should see them. */
const GLOBAL_WRITES: GlobalWrite[] = [
  {
    name: 'create a link template',
    role: 'analyst',
    method: 'POST',
    url: () => '/api/v0/alerts/links_templates/',
    body: () => ({ name: `VT ${randomUUID()}`, field: 'ip', url_template: 'https://vt.example/{value}' }),
    ok: 201,
  },
  {
    name: 'publish a rule (analyst API)',
    role: 'analyst',
    method: 'POST',
    url: () => '/api/v0/analyst/rules/',
    body: () => ({ ...EXAMPLE_RULE, rule_id: `R-${randomUUID()}` }),
    ok: 200,
  },
  {
    name: 'publish a document (analyst API)',
    role: 'analyst',
    method: 'POST',
    url: () => '/api/v0/analyst/documents/articles/',
    body: () => ({ title: `Article ${randomUUID()}`, language: 'en' }),
    ok: 201,
  },
  {
    name: 'create a document',
    role: 'analyst',
    method: 'POST',
    url: () => '/api/v0/soc/articles/',
    body: () => ({ title: `Article ${randomUUID()}`, language: 'en' }),
    ok: 201,
  },
  {
    name: 'edit a document',
    role: 'analyst',
    method: 'PATCH',
    url: () => `/api/v0/soc/articles/${documentId}/`,
    body: () => ({ title: `Edited ${randomUUID()}` }),
    ok: 200,
  },
  {
    name: 'comment on a document',
    role: 'analyst',
    method: 'POST',
    url: () => `/api/v0/soc/articles/${documentId}/comments/`,
    body: () => multipart({ text: 'A comment every tenant reads' }),
    ok: 201,
  },
  {
    name: 'attach a file to a document',
    role: 'analyst',
    method: 'POST',
    url: () => `/api/v0/soc/articles/${documentId}/attachments/`,
    body: () =>
      multipart({}, [{ field: 'file', name: 'notes.txt', type: 'text/plain', body: Buffer.from('notes\n') }]),
    ok: 201,
  },
  {
    name: 'create a system (administration)',
    role: 'admin',
    method: 'POST',
    url: () => '/api/v0/admin/systems/',
    body: () => ({ is_id: `IS-T${randomUUID().slice(0, 8)}`, full_name: 'Token probe' }),
    ok: 201,
  },
  {
    name: 'change a system (administration)',
    role: 'admin',
    method: 'PATCH',
    url: () => `/api/v0/admin/systems/${systemId}/`,
    body: () => ({ full_name: 'Renamed by a token' }),
    ok: 200,
  },
  {
    name: 'change the branding (administration)',
    role: 'admin',
    method: 'PUT',
    url: () => '/api/v0/admin/branding/',
    body: () => ({ portal_name: 'Token probe portal' }),
    ok: 200,
  },
];

function send(op: GlobalWrite, token: string, language = 'ru') {
  const body = op.body();
  const headers = { ...bearer(token), 'accept-language': language };
  return ctx.app.inject({
    method: op.method,
    url: op.url(),
    ...(isForm(body)
      ? { payload: body.payload, headers: { ...headers, ...body.headers } }
      : { payload: body, headers }),
  });
}

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  const admin = await (await buildUser(ctx, { role: 'admin' })).login();
  systemId = (await buildSystem(ctx)).id;
  documentId = (await buildDocument(ctx, { language: 'en' })).id;
  for (const role of ['analyst', 'admin'] as const) {
    const user = await buildUser(ctx, { role });
    const issue = async (limit?: number[]) => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/v0/admin/service_tokens/',
        headers: bearer(admin),
        payload: { name: `${role} ${limit ? 'scoped' : 'unscoped'}`, user_id: user.id, systems: limit },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<ApiTokenCreated>().token;
    };
    tokens[role] = { scoped: await issue([systemId]), unscoped: await issue() };
  }
});
afterAll(() => ctx.close());

describe('objects every tenant sees, written with an API token', () => {
  it.each(GLOBAL_WRITES)('$name: a token limited to a system gets 403', async (op) => {
    const res = await send(op, tokens[op.role].scoped);
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json<{ detail: string }>().detail).toBe(SCOPED_TOKEN_GLOBAL_WRITE.ru);
  });

  it.each(GLOBAL_WRITES)('$name: a token without a limit succeeds', async (op) => {
    const res = await send(op, tokens[op.role].unscoped);
    expect(res.statusCode, res.body).toBe(op.ok);
  });

  it('explains the refusal in English to an English client', async () => {
    const res = await send(GLOBAL_WRITES[0]!, tokens.analyst.scoped, 'en');
    expect(res.json<{ detail: string }>().detail).toBe(SCOPED_TOKEN_GLOBAL_WRITE.en);
  });

  it('still lets the limited token read its own system', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/soc/incs/?limit=1',
      headers: bearer(tokens.analyst.scoped),
    });
    expect(res.statusCode).toBe(200);
  });
});
