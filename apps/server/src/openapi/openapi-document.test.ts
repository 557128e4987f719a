import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishDocument, implicitErrors } from '../plugins/openapi.ts';
import { buildAnalyst } from '../test/builders.ts';
import type { TestContext } from '../test/harness.ts';
import { bearer, createTestContext } from '../test/harness.ts';
import { answerChecker } from '../test/openapi-client.ts';
import { documentProblems, no4xxExceptions } from './document-check.ts';
import type { OpenApiDocument } from './document-check.ts';

const IGNORE_FILE = path.resolve(import.meta.dirname, '../../../../.redocly.lint-ignore.yaml');

let ctx: TestContext;
let doc: OpenApiDocument;

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  doc = (await ctx.app.inject('/api/v0/docs/json')).json<OpenApiDocument>();
});
afterAll(async () => ctx?.close());

const operations = () =>
  Object.entries(doc.paths).flatMap(([p, item]) =>
    Object.entries(item).map(([method, op]) => ({ where: `${method.toUpperCase()} ${p}`, op })),
  );

describe('the served OpenAPI document', () => {
  it('gives every operation a unique camelCase operationId, a summary, one tag, 2xx and 4xx answers', () => {
    const exceptions = no4xxExceptions(readFileSync(IGNORE_FILE, 'utf8'));
    expect([...exceptions].sort()).toEqual([
      'GET /api/v0/auth/oidc_providers/',
      'GET /api/v0/portal/config/',
      'GET /healthz',
      'GET /readyz',
    ]);
    expect(documentProblems(doc, exceptions)).toEqual([]);
    expect(operations().length).toBeGreaterThan(190);
  });

  it('keeps the operationIds that clients generate method names from', () => {
    const ids = new Map(operations().map(({ where, op }) => [where, op.operationId]));
    expect(Object.fromEntries([...ids].filter(([where]) => where.includes('/analyst/incidents/')))).toEqual({
      'POST /api/v0/analyst/incidents/': 'analystCreateIncident',
      'PATCH /api/v0/analyst/incidents/{key}/': 'analystUpdateIncident',
      'POST /api/v0/analyst/incidents/{key}/status/': 'analystSetIncidentStatus',
      'POST /api/v0/analyst/incidents/{key}/comments/': 'analystCommentIncident',
      'POST /api/v0/analyst/incidents/{key}/alerts/': 'analystAddAlerts',
      'POST /api/v0/analyst/incidents/{key}/misconfigs/': 'analystCreateMisconfigs',
    });
    expect(ids.get('GET /api/v0/soc/incs/')).toBe('listIncidents');
    expect(ids.get('POST /api/v0/soc/incs/{key}/close/')).toBe('closeIncident');
    expect(ids.get('GET /api/v0/soc/response_instructions/{id}/')).toBe('getResponseInstruction');
    expect(ids.get('GET /api/v0/soc/rules/sensor_types/')).toBe('listRuleSensorTypes');
  });

  it('answers errors through shared components, 400 in the field-error shape the server sends', async () => {
    const create = doc.paths['/api/v0/analyst/incidents/']!.post!;
    expect(create.responses).toMatchObject({
      400: { $ref: '#/components/responses/BadRequest' },
      401: { $ref: '#/components/responses/Unauthorized' },
      403: { $ref: '#/components/responses/Forbidden' },
      409: { $ref: '#/components/responses/Conflict' },
      422: { $ref: '#/components/responses/UnprocessableEntity' },
      429: { $ref: '#/components/responses/TooManyRequests' },
      default: { $ref: '#/components/responses/ServerError' },
    });
    const update = doc.paths['/api/v0/analyst/incidents/{key}/']!.patch!;
    expect(update.responses).toMatchObject({ 404: { $ref: '#/components/responses/NotFound' } });
    // a public route without input answers neither 400 nor 401
    expect(Object.keys(doc.paths['/api/v0/portal/config/']!.get!.responses as object)).toEqual([
      '200',
      'default',
    ]);

    const check = answerChecker(doc);
    const analyst = await (await buildAnalyst(ctx)).login();
    const invalid = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/analyst/incidents/',
      headers: bearer(analyst),
      payload: { summary: '' },
    });
    expect(invalid.statusCode).toBe(400);
    expect(Object.keys(invalid.json<object>())).toContain('system');
    expect(check('/api/v0/analyst/incidents/', 'POST', 400, 'application/json', invalid.json())).toEqual([]);
    const anonymous = await ctx.app.inject({
      method: 'PATCH',
      url: '/api/v0/analyst/incidents/1/',
      payload: {},
    });
    expect(anonymous.statusCode).toBe(401);
    expect(
      check('/api/v0/analyst/incidents/{key}/', 'PATCH', 401, 'application/json', anonymous.json()),
    ).toEqual([]);
  });

  it('names the server from PUBLIC_URL, with licence and contact', () => {
    expect(doc.servers).toEqual([{ url: '/', description: expect.any(String) as string }]);
    const finished = finishDocument(
      { paths: {} },
      { ...ctx.config, publicUrl: 'https://portal.example.net/' },
    );
    expect(finished.servers).toEqual([
      { url: 'https://portal.example.net', description: 'This installation (PUBLIC_URL)' },
    ]);
    expect(doc.info).toMatchObject({
      license: { identifier: 'LicenseRef-Proprietary' },
      contact: { name: expect.any(String) as string },
    });
  });
});

describe('documentProblems', () => {
  it('reports what a client generator would miss', () => {
    const ok = { responses: { 200: {}, 401: {} }, summary: 'x', tags: ['incidents'] };
    const bad: OpenApiDocument = {
      info: {},
      servers: [],
      tags: [{ name: 'incidents', description: 'Incidents.' }],
      paths: {
        '/a/': { get: { ...ok, operationId: 'listA' }, post: { ...ok, operationId: 'listA' } },
        '/b/': {
          get: { ...ok, operationId: 'Get_B', summary: '', tags: ['incidents', 'alerts'] },
          put: { ...ok, operationId: 'putB', responses: { 401: {} } },
          patch: {
            ...ok,
            operationId: 'patchB',
            responses: { 200: { $ref: '#/components/responses/Nope' } },
          },
        },
      },
    };
    expect(documentProblems(bad, new Set(['GET /a/']))).toEqual([
      'POST /a/: operationId listA also names GET /a/',
      'GET /b/: operationId Get_B',
      'GET /b/: no summary',
      'GET /b/: 2 tags (one per area)',
      'GET /b/: tag alerts is not declared with a description in OPENAPI_TAGS',
      'PUT /b/: no 2xx answer',
      'PATCH /b/: signed-in route without 401',
      'PATCH /b/: no 4xx answer',
      'GET /a/: listed in .redocly.lint-ignore.yaml but has a 4xx',
      'unresolved $ref #/components/responses/Nope',
      'no servers',
      'no info.license',
      'no info.contact',
    ]);
  });

  it('reads the exceptions of .redocly.lint-ignore.yaml', () => {
    const file = [
      'tmp/openapi.json:',
      '  operation-4xx-response:',
      "    - '#/paths/~1healthz/get/responses'",
      '  operation-2xx-response:',
      "    - '#/paths/~1a~1/post/responses'",
    ].join('\n');
    expect([...no4xxExceptions(file)]).toEqual(['GET /healthz']);
  });
});

describe('implicitErrors', () => {
  it('adds 400 on input, 401/403 unless public, 404 on an object path, 429 when limited', () => {
    expect(implicitErrors({ url: '/x/:id/', schema: { params: {} } })).toEqual([400, 401, 403, 404]);
    expect(implicitErrors({ url: '/x/', config: { public: true } })).toEqual([]);
    expect(implicitErrors({ url: '/x/', config: { costLimit: 'export' }, schema: { body: {} } })).toEqual([
      400, 401, 403, 429,
    ]);
  });
});
