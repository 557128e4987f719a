import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CommentListResponseSchema, IncidentCardSchema, IncidentListResponseSchema } from '@soc/contracts';
import { compileResponseSchema, createSerializerCompiler } from './serializer.ts';

const Schema = z.object({
  id: z.number().int(),
  name: z.string(),
  state: z.enum(['open', 'closed']),
  note: z.string().nullable(),
  owner: z.object({ id: z.number(), name: z.string() }).nullable(),
  tags: z.array(z.string()),
  extra: z.string().optional(),
  map: z.record(z.string(), z.array(z.string())),
  items: z.array(z.object({ key: z.number(), title: z.string().nullable() })),
});

const route = (schema: unknown) => ({ schema, method: 'GET', url: '/test/', httpStatus: '200' });

describe('compiled response serializers', () => {
  it('write what zod writes: the declared properties, nulls, nested objects, escapes', () => {
    const fast = compileResponseSchema(Schema)!;
    expect(fast).toBeTypeOf('function');
    const zod = (data: unknown) => JSON.stringify(z.encode(Schema, data as z.output<typeof Schema>));
    const samples = [
      {
        map: { execution: ['T1059'] },
        id: 1,
        name: 'Ввод "кавычек" </script>\n\u2028',
        state: 'open',
        note: null,
        owner: null,
        tags: [],
        items: [{ key: 2, title: null }],
        secret: 'must not be written',
      },
      {
        id: 2,
        name: '',
        state: 'closed',
        note: 'x',
        owner: { id: 3, name: 'Анна', password: 'no' },
        tags: ['a', 'b'],
        extra: 'e',
        map: {},
        items: [],
      },
    ];
    for (const sample of samples) {
      expect(JSON.parse(fast(sample))).toStrictEqual(JSON.parse(zod(sample)));
      expect(fast(sample)).not.toMatch(/secret|password/);
    }
  });

  it('compile the hot responses (card, incident list, comments)', () => {
    for (const schema of [IncidentCardSchema, IncidentListResponseSchema, CommentListResponseSchema])
      expect(compileResponseSchema(schema)).toBeTypeOf('function');
  });

  it('leave unions to zod', () => {
    expect(
      compileResponseSchema(z.union([z.object({ a: z.string() }), z.object({ b: z.number() })])),
    ).toBeNull();
    expect(compileResponseSchema({ type: 'object' })).toBeNull();
  });

  it('in verify mode still refuse a response that breaks its schema, as zod did', () => {
    const serialize = createSerializerCompiler({ verify: true })(route(Schema));
    expect(() => serialize({ id: 'one', name: 'x' })).toThrow();
    const plain = createSerializerCompiler({ verify: false })(route(Schema));
    const ok = { id: 1, name: 'n', state: 'open', note: null, owner: null, tags: [], map: {}, items: [] };
    expect(serialize(ok)).toBe(plain(ok));
  });
});
