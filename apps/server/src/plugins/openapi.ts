import { STATUS_CODES } from 'node:http';
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PRODUCT_VERSION } from '@soc/contracts';
import type { Config } from '../core/config.ts';

/**
 * The OpenAPI document (`/api/v0/docs/json`) as clients generate from it: every operation has
 * its route's `operationId`, `summary` and one tag (declared here with a description), the error
 * answers it can give as shared components (`#/components/responses/…`, one schema for
 * `{detail}` and one for the field errors), `servers` from PUBLIC_URL, and no schema that nothing
 * refers to. `security/openapi-document.test.ts` keeps it that way for routes added later, and
 * `npm test` lints it with Redocly (redocly.yaml).
 */

/** One tag per area; an operation's tag must be one of these (the document test checks). */
export const OPENAPI_TAGS: { name: string; description: string }[] = [
  { name: 'health', description: 'Liveness and readiness probes of the process (no sign-in).' },
  {
    name: 'auth',
    description: 'Sign-in with password, second factor, OIDC or SSO; tokens, password and second factors.',
  },
  { name: 'tokens', description: 'Personal read-only API tokens of the signed-in user.' },
  {
    name: 'iocs',
    description: 'The IOC feed of the caller’s systems for blocking tools: STIX 2.1, CSV or plain text.',
  },
  {
    name: 'webhooks',
    description: 'Outbound webhook endpoints of a system, their signed deliveries and the delivery log.',
  },
  { name: 'portal', description: 'Branding and brand-variant flags of the installation.' },
  {
    name: 'admin',
    description: 'Administration: systems, contracts, services, contacts, users, API tokens, branding.',
  },
  {
    name: 'incidents',
    description: 'Incidents of the caller’s systems: list, card, workflow actions, files, CSV and PDF.',
  },
  { name: 'comments', description: 'Comments on incidents, and replies to notifications by mail.' },
  { name: 'lookups', description: 'Reference data: issue types, categories, resolutions, filter choices.' },
  { name: 'users', description: 'Users of the caller’s systems.' },
  { name: 'tenants', description: 'The caller’s protected systems (tenants) and their people.' },
  { name: 'assets', description: 'CMDB assets of the caller’s systems, their incidents and software.' },
  { name: 'logsources', description: 'Log sources with their status and events per second.' },
  { name: 'files', description: 'Files the caller may see, by storage path.' },
  {
    name: 'alerts',
    description: 'Alerts of incidents: events, process trees, IOCs, tags, response teams, link templates.',
  },
  { name: 'documents', description: 'Instructions, response instructions and articles, with versions.' },
  { name: 'dashboard', description: 'Dashboard figures: incident analytics, EPS, the MITRE ATT&CK matrix.' },
  { name: 'rules', description: 'Detection rules, their MITRE ATT&CK coverage and filter suggestions.' },
  { name: 'reports', description: 'Generated reports and report schedules.' },
  { name: 'events', description: 'Live updates of the caller’s incidents, comments and reports (SSE).' },
  { name: 'notifications', description: 'The caller’s notification e-mail preferences.' },
  { name: 'audit', description: 'The audit log of the caller’s systems.' },
  {
    name: 'analyst',
    description:
      'The analyst API (`/api/v0/analyst/…`): the SOC’s analysts and their SIEM/SOAR feed the portal. ' +
      'Roles analyst and admin, with a session or a service token.',
  },
  { name: 'tasks', description: 'Service requests (tasks) between customer and SOC, with their chat.' },
  { name: 'misconfigs', description: 'Security recommendations (misconfigurations) and their status.' },
  { name: 'development', description: 'Demo installations only: the embedded SMS outbox.' },
];

type Json = Record<string, unknown>;

/**
 * A route's answer that is a file rather than JSON (`response: { 200: fileAnswer(…) }`): the
 * document gives its media type and a binary body. The body is sent as a stream, a buffer or a
 * string with its content type, which Fastify passes on without the JSON serialiser.
 */
export const fileAnswer = (mediaType: string, description: string) => ({
  description,
  // any: the handler sends a stream or a buffer; the document says a binary string
  content: { [mediaType]: { schema: z.any().meta({ type: 'string', format: 'binary' }) } },
});

/** A redirect answer (`response: { 302: redirectAnswer(…) }`): no body, the target in `Location`. */
export const redirectAnswer = (description: string) =>
  z.null().meta({
    description,
    headers: { Location: { type: 'string', description: 'Where the browser goes next.' } },
  });

/** What the error answers mean, by status (the shared `#/components/responses/…`). */
const ERROR_DESCRIPTIONS: Record<number, string> = {
  400:
    'The request is invalid: messages under each field’s name (`non_field_errors`: the request as a ' +
    'whole), or a `detail` when the body could not be read at all.',
  401: 'Not signed in, or the token is invalid, expired or revoked.',
  403:
    'The caller’s role, token scope or read-only token does not allow this, or a temporary password ' +
    'must be changed first.',
  404: 'No such object among those the caller may see (another tenant’s objects answer 404 too).',
  409: 'The request conflicts with the current state (e.g. a call with the same Idempotency-Key still runs).',
  413: 'The body or a file is larger than allowed.',
  415: 'The body’s media type is not accepted here.',
  416: 'The requested byte range lies outside the file.',
  422: 'The request cannot be processed (e.g. an Idempotency-Key reused with a different request).',
  429: 'Too many requests: retry after the seconds in `Retry-After`.',
};

const DETAIL_ERROR: Json = {
  type: 'object',
  description: 'An error answer: one human-readable message in the caller’s language.',
  properties: { detail: { type: 'string' } },
  required: ['detail'],
};
const FIELD_ERRORS: Json = {
  type: 'object',
  description:
    'Field errors (the DRF shape): each invalid field’s name with its messages; `non_field_errors` ' +
    'for the request as a whole.',
  additionalProperties: { type: 'array', items: { type: 'string' } },
  examples: [{ title: ['This field is required.'], non_field_errors: ['Unknown parameter.'] }],
};
const ref = (kind: 'schemas' | 'responses', name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** `Not Found` → `NotFound`: the component name of an error answer. */
const componentName = (status: number) =>
  (STATUS_CODES[status] ?? `Status${status}`).replace(/[^A-Za-z0-9 ]/g, '').replace(/ /g, '');

function errorResponse(status: number): Json {
  const schema =
    status === 400
      ? { anyOf: [ref('schemas', 'FieldErrors'), ref('schemas', 'DetailError')] }
      : ref('schemas', 'DetailError');
  return {
    description: ERROR_DESCRIPTIONS[status] ?? STATUS_CODES[status] ?? 'Error',
    ...(status === 429 || status === 503
      ? {
          headers: {
            'Retry-After': {
              description: 'Seconds to wait before trying again.',
              schema: { type: 'integer', minimum: 0 },
            },
          },
        }
      : {}),
    content: { 'application/json': { schema } },
  };
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `{detail: string}` as zod writes DetailErrorSchema (or this module's own). */
function isDetailError(schema: unknown): boolean {
  if (!isObject(schema) || schema.type !== 'object' || !isObject(schema.properties)) return false;
  const keys = Object.keys(schema.properties);
  return (
    keys.length === 1 && isObject(schema.properties.detail) && schema.properties.detail.type === 'string'
  );
}

/** `Record<string, string[]>` as zod writes FieldErrorsSchema. */
function isFieldErrors(schema: unknown): boolean {
  if (!isObject(schema) || schema.type !== 'object' || schema.properties) return false;
  const extra = schema.additionalProperties;
  return isObject(extra) && extra.type === 'array' && isObject(extra.items) && extra.items.type === 'string';
}

/** Whether an answer of `status` with this schema is one of the shared error answers. */
function isSharedError(status: number, schema: unknown): boolean {
  if (isDetailError(schema)) return true;
  if (status !== 400) return false;
  if (isFieldErrors(schema)) return true;
  const alternatives = isObject(schema) ? (schema.anyOf ?? schema.oneOf) : undefined;
  return (
    Array.isArray(alternatives) &&
    alternatives.length > 0 &&
    alternatives.every((s) => isDetailError(s) || isFieldErrors(s))
  );
}

/**
 * The error answers a route can give besides those it declares: 400 when it reads input, 401
 * and 403 unless it is public (a temporary password forbids every signed-in route but its
 * change), 404 when its path names an object, 429 when it is rate- or cost-limited.
 */
export function implicitErrors(route: {
  url: string;
  config?: { public?: boolean; rateLimit?: unknown; costLimit?: unknown } | undefined;
  schema?: { body?: unknown; querystring?: unknown; params?: unknown; headers?: unknown } | undefined;
}): number[] {
  const out: number[] = [];
  const { schema, config } = route;
  if (schema?.body || schema?.querystring || schema?.params || schema?.headers) out.push(400);
  if (!config?.public) out.push(401, 403);
  if (route.url.includes(':')) out.push(404);
  if (config?.rateLimit || config?.costLimit) out.push(429);
  return out;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every `$ref` under a value. */
function collectRefs(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) for (const v of value) collectRefs(v, into);
  else if (isObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') into.add(v);
      else collectRefs(v, into);
    }
  }
}

/**
 * The finished document: shared error answers, descriptions of the other answers, the tags and
 * their descriptions, servers, licence and contact; schemas that nothing refers to left out.
 */
export function finishDocument(document: Json, config: Config): Json {
  const paths = (document.paths ?? {}) as Record<string, Record<string, Json>>;
  const usedErrors = new Set<number>();
  for (const item of Object.values(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!HTTP_METHODS.includes(method) || !isObject(operation.responses)) continue;
      const responses = operation.responses as Record<string, Json>;
      for (const [code, response] of Object.entries(responses)) {
        const status = Number(code);
        const content = isObject(response.content) ? (response.content as Record<string, Json>) : {};
        const schemas = Object.values(content).map((c) => c.schema);
        if (status >= 400 && schemas.length > 0 && schemas.every((s) => isSharedError(status, s))) {
          usedErrors.add(status);
          responses[code] = ref('responses', componentName(status));
        } else if (response.description === 'Default Response') {
          response.description = STATUS_CODES[status] ?? 'Answer';
        }
      }
      // any route can fail on the server's side: `{detail}`, no internals (error-handler.ts)
      responses.default ??= ref('responses', 'ServerError');
    }
  }
  const components = (document.components ?? {}) as Record<string, Record<string, unknown>>;
  const errorResponses: Record<string, Json> = Object.fromEntries(
    [...usedErrors].sort().map((status) => [componentName(status), errorResponse(status)]),
  );
  errorResponses.ServerError = {
    description:
      'A failure on the server’s side (5xx): `{detail}` without internals; 503 with `Retry-After` ' +
      'while the database cannot be reached.',
    content: { 'application/json': { schema: ref('schemas', 'DetailError') } },
  };
  const schemas: Record<string, unknown> = {
    ...components.schemas,
    DetailError: DETAIL_ERROR,
    FieldErrors: FIELD_ERRORS,
  };
  const out: Json = {
    ...document,
    servers: [
      config.publicUrl
        ? { url: config.publicUrl.replace(/\/+$/, ''), description: 'This installation (PUBLIC_URL)' }
        : { url: '/', description: 'The origin that serves this document' },
    ],
    tags: OPENAPI_TAGS,
    components: { ...components, schemas, responses: { ...components.responses, ...errorResponses } },
  };
  // schemas reachable from the paths (and from each other) only: the registry also yields the
  // input variants of output schemas, which no operation uses
  const reachable = new Set<string>();
  let frontier: unknown = { paths: out.paths, responses: (out.components as Json).responses };
  for (;;) {
    const refs = new Set<string>();
    collectRefs(frontier, refs);
    const fresh = [...refs]
      .filter((r) => r.startsWith('#/components/schemas/'))
      .map((r) => r.slice('#/components/schemas/'.length))
      .filter((name) => !reachable.has(name));
    if (!fresh.length) break;
    for (const name of fresh) reachable.add(name);
    frontier = fresh.map((name) => schemas[name]);
  }
  (out.components as Json).schemas = Object.fromEntries(
    Object.entries(schemas).filter(([name]) => reachable.has(name)),
  );
  return out;
}

/** @fastify/swagger's options: the document's head, and the transforms above. */
export function swaggerOptions(config: Config): FastifyDynamicSwaggerOptions {
  const origin = config.publicUrl?.replace(/\/+$/, '');
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'SOC customer portal API',
        version: PRODUCT_VERSION,
        description:
          'The API of the SOC customer portal: the web app’s own API and the analyst API. Sign in ' +
          'with `POST /api/v0/auth/token/obtain/` or use an API token: `Authorization: Bearer …`.',
        contact: { name: `${config.branding.portalName} support`, ...(origin ? { url: origin } : {}) },
        license: {
          name: 'Proprietary: use under the service contract',
          identifier: 'LicenseRef-Proprietary',
        },
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
      security: [{ bearer: [] }],
    },
    transform: (input) => {
      const out = jsonSchemaTransform(input);
      const { route } = input;
      if (!out.schema || (out.schema as { hide?: boolean }).hide) return out;
      const schema = out.schema as Json & { response?: Record<string, unknown> };
      const response: Record<string, unknown> = { ...schema.response };
      for (const status of implicitErrors(route)) {
        if (!(status in response)) response[status] = status === 400 ? FIELD_ERRORS : DETAIL_ERROR;
      }
      return {
        ...out,
        // a route reachable without signing in says so in the document (`security: []`)
        schema: { ...schema, response, ...(route.config?.public ? { security: [] } : {}) },
      };
    },
    transformObject: (input) => finishDocument(jsonSchemaTransformObject(input), config),
  };
}
