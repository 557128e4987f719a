import { isDeepStrictEqual } from 'node:util';
import fastJson from 'fast-json-stringify';
import type { Schema as FastJsonSchema } from 'fast-json-stringify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type Serialize = (data: unknown) => string;

/** What Fastify hands a serializer compiler: a route's response schema (zod here) and where it is used. */
interface RouteSchema {
  schema: unknown;
  method: string;
  url: string;
  httpStatus?: string;
}

type JsonSchema = Record<string, unknown>;

const isObject = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The JSON Schema of a zod response schema, in the shape fast-json-stringify serialises fastest:
 * zod writes `nullable` as `anyOf: [X, {type: 'null'}]`, which fast-json-stringify would test
 * branch by branch with a validator on every value; a type list says the same.
 */
function simplify(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(simplify);
  if (!isObject(node)) return node;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node)) out[k] = simplify(v);
  const anyOf: unknown = out.anyOf;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const branches = anyOf as unknown[];
    const nullIndex = branches.findIndex(
      (b) => isObject(b) && b.type === 'null' && Object.keys(b).length === 1,
    );
    const other = branches[1 - nullIndex];
    if (nullIndex >= 0 && isObject(other) && typeof other.type === 'string' && !other.anyOf && !other.oneOf) {
      const { anyOf: _anyOf, ...rest } = out;
      return { ...rest, ...other, type: [other.type, 'null'] };
    }
  }
  return out;
}

/** Whether fast-json-stringify would only need its own code: no branch it must choose by validating. */
function plain(node: unknown): boolean {
  if (Array.isArray(node)) return node.every(plain);
  if (!isObject(node)) return true;
  if ('anyOf' in node || 'oneOf' in node || 'allOf' in node || 'if' in node || 'not' in node) return false;
  return Object.values(node).every(plain);
}

/** The compiled serializer of a zod schema, or null where zod's own must serve (see below). */
export function compileResponseSchema(schema: unknown): Serialize | null {
  if (!(schema instanceof z.ZodType)) return null;
  try {
    const json = simplify(z.toJSONSchema(schema, { io: 'output', unrepresentable: 'throw' }));
    if (!plain(json)) return null;
    const { $schema: _draft, ...rest } = json as JsonSchema;
    return fastJson(rest as unknown as FastJsonSchema);
  } catch {
    return null;
  }
}

/**
 * Response serialisation through the routes' zod schemas, compiled once per route: the schema's
 * JSON Schema (zod's own conversion of the output type) drives fast-json-stringify, which writes
 * exactly the declared properties, as zod's encoding did (required ones first), several times faster. Schemas
 * it would have to branch on (unions other than `nullable`) and any that cannot be converted keep
 * zod's serializer. With `verify` (tests) every response is also encoded by zod, which still
 * refuses a response that breaks its schema, and the two must be the same JSON, so that the whole
 * test suite checks the compiled serializers against zod's.
 */
export function createSerializerCompiler({ verify }: { verify: boolean }) {
  return (route: RouteSchema): Serialize => {
    const viaZod = zodSerializerCompiler(route as Parameters<typeof zodSerializerCompiler>[0]) as Serialize;
    const fast = compileResponseSchema(route.schema);
    if (!fast) return viaZod;
    if (!verify) return fast;
    return (data) => {
      const expected = viaZod(data);
      const actual = fast(data);
      // fast-json-stringify writes required properties before optional ones: the same JSON
      if (actual !== expected && !isDeepStrictEqual(JSON.parse(actual), JSON.parse(expected))) {
        throw new Error(
          `Compiled serializer of ${route.method} ${route.url} (${route.httpStatus ?? ''}) differs from zod's:\n` +
            `zod:  ${expected.slice(0, 2000)}\nfast: ${actual.slice(0, 2000)}`,
        );
      }
      return actual;
    };
  };
}
