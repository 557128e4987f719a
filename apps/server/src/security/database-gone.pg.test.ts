import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestContext } from '../test/harness.ts';
import { bearer, createTestContext } from '../test/harness.ts';
import { buildCustomer, buildSystem } from '../test/builders.ts';
import type { TcpProxy } from '../test/tcp-proxy.ts';
import { startTcpProxy } from '../test/tcp-proxy.ts';
import type { ApiOperation, JsonSchema } from './openapi-operations.ts';
import { fillPath, injectAnswer, loadOperations, sampleOf } from './openapi-operations.ts';

/*
 * Issue 38, item 4: every operation of the OpenAPI document, sent to an app whose database is gone
 * (the TCP proxy in front of PostgreSQL stopped), answers an error body that the document declares
 * for its status: 503 `{detail}` with Retry-After where the database is needed, or the 4xx the
 * request earns before it is touched. Sign-in answered 503 `{}` before: its declared 503 (the
 * field errors of a failed SMS) made the serializer drop `detail`.
 */

type Json = Record<string, unknown>;

interface Document {
  paths: Record<
    string,
    Record<string, { parameters?: { in: string; name: string; schema?: JsonSchema }[]; responses: Json }>
  >;
  components: { responses: Record<string, Json> };
}

let proxy: TcpProxy;
let ctx: TestContext;
let token: string;
let ops: ApiOperation[];
let doc: Document;
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
const validators = new Map<string, ValidateFunction>();

beforeAll(async () => {
  const target = new URL(process.env.TEST_DATABASE_URL!);
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  ctx = await createTestContext({ incidents: 0, databaseVia: { host: '127.0.0.1', port: proxy.port } });
  const system = await buildSystem(ctx);
  token = await (await buildCustomer(ctx, [system.id])).login();
  ops = await loadOperations(ctx.app);
  doc = (await ctx.app.inject('/api/v0/docs/json')).json<Document>();
  ajv.addSchema(doc, 'openapi');
  // the database goes away: every connection is cut and the port refuses new ones
  await proxy.cut();
});

afterAll(async () => {
  await ctx?.close();
  await proxy?.close();
});

/** The JSON schema the document declares for `status` of an operation (its own, else `default`). */
function declaredSchema(op: ApiOperation, status: number): ValidateFunction | undefined {
  const responses = doc.paths[op.path]![op.method.toLowerCase()]!.responses;
  let response = (responses[String(status)] ?? responses.default) as Json | undefined;
  const ref = response?.$ref;
  if (typeof ref === 'string') response = doc.components.responses[ref.split('/').pop()!];
  const schema = (response?.content as Record<string, { schema?: Json }> | undefined)?.['application/json']
    ?.schema;
  if (!schema) return undefined;
  const text = JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/');
  let validate = validators.get(text);
  if (!validate) validators.set(text, (validate = ajv.compile(JSON.parse(text) as Json)));
  return validate;
}

/** A value for each path parameter from its declared schema. */
function pathValues(op: ApiOperation): Record<string, string | number> {
  const parameters = doc.paths[op.path]![op.method.toLowerCase()]!.parameters ?? [];
  return Object.fromEntries(
    op.pathParams.map((name) => {
      const schema = parameters.find((p) => p.in === 'path' && p.name === name)?.schema;
      const value = sampleOf(schema);
      return [name, typeof value === 'number' || typeof value === 'string' ? value : 1];
    }),
  );
}

function queryOf(op: ApiOperation): string {
  const required = op.query.filter((q) => q.required);
  if (!required.length) return '';
  const params = new URLSearchParams(
    required.map((q): [string, string] => {
      const value = sampleOf(q.schema);
      return [q.name, typeof value === 'string' || typeof value === 'number' ? String(value) : 'x'];
    }),
  );
  return `?${params.toString()}`;
}

describe('every operation with the database gone', () => {
  it('answers an error body its document declares: 503 with Retry-After, or the 4xx of the request', async () => {
    expect(ops.length).toBeGreaterThan(100);
    const problems: string[] = [];
    const unavailable: string[] = [];
    const answered: string[] = [];
    for (const op of ops) {
      const body = op.jsonBody ? sampleOf(op.jsonBody) : undefined;
      const res = await injectAnswer(
        ctx.app,
        {
          method: op.method,
          url: fillPath(op.path, pathValues(op)) + queryOf(op),
          headers: { ...bearer(token), 'accept-language': 'en' },
          ...(body === undefined ? {} : { payload: body as object }),
        },
        200,
      );
      const where = `${op.id}: ${res.statusCode} ${res.body.slice(0, 160)}`;
      // what needs no database (liveness, the OIDC provider list from the configuration) still answers
      if (res.statusCode < 300) {
        answered.push(op.id);
        continue;
      }
      if (res.statusCode !== 503 && ![400, 401, 404, 406, 415].includes(res.statusCode)) {
        problems.push(`${where}: not an answer of a database outage`);
        continue;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(res.body);
      } catch {
        problems.push(`${where}: not JSON`);
        continue;
      }
      if (!parsed || typeof parsed !== 'object' || Object.keys(parsed).length === 0) {
        problems.push(`${where}: empty body`);
        continue;
      }
      const validate = declaredSchema(op, res.statusCode);
      if (!validate) problems.push(`${where}: no schema declared for ${res.statusCode}`);
      else if (!validate(parsed)) problems.push(`${where}: ${ajv.errorsText(validate.errors)}`);
      if (res.statusCode === 503 && op.path !== '/readyz') {
        unavailable.push(op.id);
        if (typeof (parsed as { detail?: unknown }).detail !== 'string') problems.push(`${where}: no detail`);
        if (!(Number(res.headers['retry-after']) > 0)) problems.push(`${where}: no Retry-After`);
      }
    }
    expect(problems).toEqual([]);
    // the outage was met: sign-in among them, and most of the API
    expect(unavailable).toContain('POST /api/v0/auth/token/obtain/');
    expect(unavailable.length).toBeGreaterThan(ops.length / 2);
    expect(answered.length).toBeLessThan(5);
  });
});
