import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import createClient from 'openapi-fetch';
import type { Client } from 'openapi-fetch';
import type { paths } from './generated/openapi.d.ts';

/**
 * A typed client of the API as a generated client sees it: openapi-fetch over the types that
 * openapi-typescript wrote from the served document (scripts/openapi.mjs), and every answer
 * checked against that document — its status must be one the operation declares and its JSON
 * body must match the declared schema — so that a server that answers other than it documents
 * fails the test that drives it.
 */
export type ApiClient = Client<paths>;

type Json = Record<string, unknown>;
interface OpenApiDocument {
  paths: Record<string, Record<string, { responses?: Record<string, Json> }>>;
  components?: { responses?: Record<string, Json> };
}

/** `~` and `/` escaped for a JSON pointer segment. */
const pointerSegment = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

// ajv-formats is a CommonJS module whose default export is the plugin
const addFormats = addFormatsPlugin as unknown as (ajv: Ajv2020) => Ajv2020;

/**
 * Checks answers against an OpenAPI 3.1 document: `check(path template, method, status, media
 * type, body)` lists what is wrong (empty: the answer is as documented).
 */
export function answerChecker(document: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  ajv.addSchema(document, 'openapi');
  const compiled = new Map<string, ValidateFunction>();

  return (schemaPath: string, method: string, status: number, mediaType: string, body: unknown): string[] => {
    const operation = document.paths[schemaPath]?.[method.toLowerCase()];
    if (!operation) return [`${method} ${schemaPath} is not in the document`];
    const responses = operation.responses ?? {};
    const code = [String(status), `${String(status)[0]}XX`, 'default'].find((c) => c in responses);
    // the default answer documents the server's failures (5xx), not an undeclared status
    if (!code || (code === 'default' && status < 500))
      return [`${method} ${schemaPath} answered ${status}, which the document does not declare`];
    let pointer = `/paths/${pointerSegment(schemaPath)}/${method.toLowerCase()}/responses/${code}`;
    let response = responses[code]!;
    const ref = response.$ref;
    if (typeof ref === 'string') {
      const name = ref.replace('#/components/responses/', '');
      response = document.components?.responses?.[name] ?? {};
      pointer = `/components/responses/${pointerSegment(name)}`;
    }
    const content = (response.content ?? {}) as Record<string, { schema?: unknown }>;
    const declared = Object.keys(content);
    if (!declared.length) return [];
    if (!declared.includes(mediaType))
      return [
        `${method} ${schemaPath} ${status}: media type ${mediaType}, documented ${declared.join(', ')}`,
      ];
    if (!mediaType.includes('json')) return [];
    const key = `${pointer}/content/${pointerSegment(mediaType)}/schema`;
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile({ $ref: `openapi#${key}` });
      compiled.set(key, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).map(
      (e) => `${method} ${schemaPath} ${status}: ${e.instancePath || '(body)'} ${e.message ?? ''}`,
    );
  };
}

/** The typed client of `baseUrl`, checking every answer against `document` (see above). */
export function typedClient(baseUrl: string, document: OpenApiDocument, token?: string): ApiClient {
  const check = answerChecker(document);
  const client = createClient<paths>({
    baseUrl,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  client.use({
    async onResponse({ request, response, schemaPath }) {
      const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
      const text = await response.clone().text();
      const body: unknown = mediaType.includes('json') && text ? JSON.parse(text) : text;
      const problems = check(schemaPath, request.method, response.status, mediaType, body);
      if (problems.length)
        throw new Error(`The answer differs from the OpenAPI document:\n${problems.join('\n')}`);
      return undefined;
    },
  });
  return client;
}
