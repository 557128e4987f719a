import { randomUUID } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { API_BASE } from '@soc/contracts';

/** The part of a JSON Schema (as @fastify/swagger writes it from zod) that the sampler reads. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  format?: string;
  pattern?: string;
  default?: unknown;
}

export interface QueryParameter {
  name: string;
  required: boolean;
  schema: JsonSchema;
}

/** One operation of the OpenAPI document. */
export interface ApiOperation {
  /** `GET /api/v0/soc/incs/{key}/` */
  id: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** Path parameters in the order they appear in the path. */
  pathParams: string[];
  query: QueryParameter[];
  /** The JSON request body, if the operation declares one. */
  jsonBody: JsonSchema | undefined;
  /** Declared with `security: []` (reachable without signing in). */
  anonymous: boolean;
}

interface OpenApiOperation {
  parameters?: { in: string; name: string; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  security?: unknown[];
}

/** Every operation of the app's OpenAPI document (`/api/v0/docs/json`). */
export async function loadOperations(app: FastifyInstance): Promise<ApiOperation[]> {
  const res = await app.inject(`${API_BASE}/docs/json`);
  if (res.statusCode !== 200) throw new Error(`OpenAPI document: ${res.statusCode}`);
  const doc = res.json<{ paths: Record<string, Record<string, OpenApiOperation>> }>();
  const out: ApiOperation[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [m, op] of Object.entries(ops)) {
      const method = m.toUpperCase() as ApiOperation['method'];
      if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(method)) continue;
      out.push({
        id: `${method} ${path}`,
        method,
        path,
        pathParams: [...path.matchAll(/\{([^}]+)\}/g)].map((x) => x[1]!),
        query: (op.parameters ?? [])
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, required: Boolean(p.required), schema: p.schema ?? {} })),
        jsonBody: op.requestBody?.content?.['application/json']?.schema,
        anonymous: Array.isArray(op.security) && op.security.length === 0,
      });
    }
  }
  return out;
}

/** The literal path segment before a parameter plus the parameter: `incs/{key}`, `alerts/{uuid}`. */
export function paramSlot(path: string, param: string): string {
  const segments = path.split('/').filter(Boolean);
  const at = segments.indexOf(`{${param}}`);
  return `${segments[at - 1] ?? ''}/{${param}}`;
}

/** Fills `{param}` placeholders (values are URL-encoded, so `/` in a file path becomes `%2F`). */
export function fillPath(path: string, values: Record<string, string | number>): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for {${name}} in ${path}`);
    return encodeURIComponent(String(value));
  });
}

const first = <T>(xs: T[] | undefined): T | undefined => (xs && xs.length ? xs[0] : undefined);

/**
 * A minimal valid value of a JSON Schema: required properties only, the first enum value, the
 * smallest number allowed, `minItems` items. Good enough for the bodies of this API's write
 * routes; a route whose schema it cannot satisfy gets an explicit sample in the test.
 */
export function sampleOf(schema: JsonSchema | undefined): unknown {
  if (!schema) return undefined;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const alt = first(schema.anyOf) ?? first(schema.oneOf);
  if (alt) {
    const nonNull = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].find((s) => s.type !== 'null');
    return sampleOf(nonNull ?? alt);
  }
  if (schema.allOf?.length) {
    return Object.assign({}, ...schema.allOf.map((s) => sampleOf(s) as object));
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const name of schema.required ?? []) out[name] = sampleOf(schema.properties?.[name]);
      return out;
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sampleOf(schema.items));
    case 'integer':
    case 'number': {
      if (schema.minimum !== undefined) return Math.max(schema.minimum, Math.min(1, schema.maximum ?? 1));
      if (schema.exclusiveMinimum !== undefined) return Math.floor(schema.exclusiveMinimum) + 1;
      return 1;
    }
    case 'boolean':
      return false;
    case 'string': {
      if (schema.format === 'uuid') return randomUUID();
      if (schema.format === 'email') return 'someone@example.com';
      if (schema.format === 'date-time') return '2026-11-01T00:00:00Z';
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    }
    default:
      return undefined;
  }
}

/** An answer read whole, or for at most `streamMs` when it is an endless event stream. */
export interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  /** The answer is a server-sent event stream (read for a moment, then closed). */
  streamed: boolean;
  json<T>(): T;
}

/**
 * `app.inject` that survives endless answers: server-sent events (`/api/v0/events/`) never end,
 * so the body is read for at most `streamMs` and the stream then closed.
 */
export async function injectAnswer(
  app: FastifyInstance,
  options: InjectOptions,
  streamMs = 1000,
): Promise<Answer> {
  const res = await app.inject({ ...options, payloadAsStream: true });
  const stream = res.stream();
  const streamed = String(res.headers['content-type'] ?? '').startsWith('text/event-stream');
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      stream.destroy();
      resolve();
    }, streamMs);
    stream.on('data', (c: Buffer | string) => chunks.push(Buffer.from(c)));
    stream.on('end', () => {
      clearTimeout(timer);
      resolve();
    });
    stream.on('error', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  const body = Buffer.concat(chunks).toString('utf8');
  return {
    statusCode: res.statusCode,
    headers: res.headers,
    body,
    streamed,
    json: <T>() => JSON.parse(body) as T,
  };
}

export { multipart } from '../test/multipart.ts';
export type { MultipartFile } from '../test/multipart.ts';

/**
 * A response body for comparison: JSON without the `next`/`previous` links (they echo the
 * query string), anything else as text.
 */
export function comparable(res: { body: string; headers: Record<string, unknown> }): string {
  const { body } = res;
  const type = res.headers['content-type'];
  if (typeof type !== 'string' || !type.includes('json')) return body;
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.entries(v)
          .filter(([k]) => k !== 'next' && k !== 'previous')
          .map(([k, x]) => [k, strip(x)]),
      );
    }
    return v;
  };
  try {
    return JSON.stringify(strip(JSON.parse(body)));
  } catch {
    return body;
  }
}
