import { OPENAPI_TAGS } from '../plugins/openapi.ts';

/**
 * What a client generator needs of every operation of the served OpenAPI document, checked
 * without Redocly (which `npm test` runs too): a unique camelCase `operationId`, a `summary`, one
 * declared tag, a 2xx answer (3xx for a browser redirect), a 4xx answer, 401 unless public;
 * every `$ref` resolvable; servers, licence and contact present. Routes added later by any module are held to the same.
 */

type Json = Record<string, unknown>;
export interface OpenApiDocument {
  info?: Json;
  servers?: { url: string }[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Json>>;
  components?: Json;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
const CAMEL_CASE = /^[a-z][a-zA-Z0-9]*$/;

const unescapePointer = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~');

function resolvePointer(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node = document;
  for (const part of ref.slice(2).split('/').map(unescapePointer)) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Json)[part];
  }
  return node;
}

function collectRefs(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) for (const v of value) collectRefs(v, into);
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') into.add(v);
      else collectRefs(v, into);
    }
  }
}

/** Every problem found, one line each (empty: the document is as required). */
export function documentProblems(document: OpenApiDocument): string[] {
  const problems: string[] = [];
  const tags = new Map((document.tags ?? []).map((t) => [t.name, t.description]));
  const known = new Set(OPENAPI_TAGS.map((t) => t.name));
  const ids = new Map<string, string>();
  const without4xx = new Set<string>();

  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      const where = `${method.toUpperCase()} ${path}`;
      const id = op.operationId;
      if (typeof id !== 'string' || !CAMEL_CASE.test(id))
        problems.push(`${where}: operationId ${String(id)}`);
      else if (ids.has(id)) problems.push(`${where}: operationId ${id} also names ${ids.get(id)}`);
      else ids.set(id, where);
      if (typeof op.summary !== 'string' || !op.summary.trim()) problems.push(`${where}: no summary`);
      const opTags = Array.isArray(op.tags) ? (op.tags as string[]) : [];
      if (opTags.length !== 1) problems.push(`${where}: ${opTags.length} tags (one per area)`);
      for (const tag of opTags) {
        if (!known.has(tag) || !tags.get(tag))
          problems.push(`${where}: tag ${tag} is not declared with a description in OPENAPI_TAGS`);
      }
      const codes = Object.keys((op.responses as Json | undefined) ?? {});
      if (!codes.some((c) => /^[23]/.test(c))) problems.push(`${where}: no 2xx answer`);
      if (!codes.some((c) => c.startsWith('4'))) without4xx.add(where);
      const anonymous = Array.isArray(op.security) && op.security.length === 0;
      if (!anonymous && !codes.includes('401')) problems.push(`${where}: signed-in route without 401`);
    }
  }
  for (const where of without4xx) problems.push(`${where}: no 4xx answer`);

  const refs = new Set<string>();
  collectRefs(document, refs);
  for (const ref of refs) {
    if (resolvePointer(document, ref) === undefined) problems.push(`unresolved $ref ${ref}`);
  }
  if (!document.servers?.length) problems.push('no servers');
  const info = document.info ?? {};
  if (!info.license) problems.push('no info.license');
  if (!info.contact) problems.push('no info.contact');
  return problems;
}
