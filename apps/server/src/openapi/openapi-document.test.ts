import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishDocument, implicitErrors } from '../plugins/openapi.ts';
import { buildAnalyst } from '../test/builders.ts';
import type { TestContext } from '../test/harness.ts';
import { bearer, createTestContext } from '../test/harness.ts';
import { answerChecker } from '../test/openapi-client.ts';
import { documentProblems } from './document-check.ts';
import type { OpenApiDocument } from './document-check.ts';

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
    expect(documentProblems(doc)).toEqual([]);
    expect(operations().length).toBeGreaterThan(190);
  });

  it('keeps the operationIds that clients generate method names from', () => {
    const ids = new Map(operations().map(({ where, op }) => [where, op.operationId]));
    expect(Object.fromEntries([...ids].filter(([where]) => where.includes('/analyst/incidents/')))).toEqual({
      'POST /api/v0/analyst/incidents/': 'analystCreateIncident',
      'GET /api/v0/analyst/incidents/{key}/': 'analystGetIncident',
      'PATCH /api/v0/analyst/incidents/{key}/': 'analystUpdateIncident',
      'POST /api/v0/analyst/incidents/{key}/status/': 'analystSetIncidentStatus',
      'POST /api/v0/analyst/incidents/{key}/comments/': 'analystCommentIncident',
      'POST /api/v0/analyst/incidents/{key}/notes/': 'analystCreateIncidentNote',
      'GET /api/v0/analyst/incidents/{key}/notes/': 'analystListIncidentNotes',
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
    // a public route answers 400 for a query it does not know, never 401
    expect(Object.keys(doc.paths['/api/v0/portal/config/']!.get!.responses as object)).toEqual([
      '200',
      '400',
      'default',
    ]);
    const unknown = await ctx.app.inject({ method: 'GET', url: '/api/v0/portal/config/?nope=1' });
    expect(unknown.statusCode, unknown.body).toBe(400);

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
    expect(documentProblems(bad)).toEqual([
      'POST /a/: operationId listA also names GET /a/',
      'GET /b/: operationId Get_B',
      'GET /b/: no summary',
      'GET /b/: 2 tags (one per area)',
      'GET /b/: tag alerts is not declared with a description in OPENAPI_TAGS',
      'PUT /b/: no 2xx answer',
      'PATCH /b/: signed-in route without 401',
      'PATCH /b/: no 4xx answer',
      'unresolved $ref #/components/responses/Nope',
      'no servers',
      'no info.license',
      'no info.contact',
    ]);
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
