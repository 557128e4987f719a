import { PassThrough } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { injectAnswer, paramSlot, sampleOf } from './openapi-operations.ts';

describe('injectAnswer', () => {
  it('reads an endless event stream for a moment instead of hanging', async () => {
    const app = Fastify();
    app.get('/events/', (_request, reply) => {
      const stream = new PassThrough();
      stream.write('event: hello\ndata: {}\n\n');
      return reply.type('text/event-stream').send(stream);
    });
    app.get('/plain/', () => ({ ok: true }));
    try {
      const started = Date.now();
      const events = await injectAnswer(app, { url: '/events/' }, 200);
      expect(events.streamed).toBe(true);
      expect(events.body).toContain('event: hello');
      expect(Date.now() - started).toBeLessThan(5000);
      const plain = await injectAnswer(app, { url: '/plain/' });
      expect(plain.streamed).toBe(false);
      expect(plain.json()).toEqual({ ok: true });
    } finally {
      await app.close();
    }
  });
});

describe('sampleOf and paramSlot', () => {
  it('builds the smallest valid value of a schema', () => {
    expect(
      sampleOf({
        type: 'object',
        required: ['a', 'b', 'c', 'd'],
        properties: {
          a: { type: 'string', minLength: 3 },
          b: { type: 'integer', exclusiveMinimum: 0 },
          c: { type: 'array', minItems: 1, items: { type: 'string', enum: ['x', 'y'] } },
          d: { anyOf: [{ type: 'null' }, { type: 'boolean' }] },
        },
      }),
    ).toEqual({ a: 'xxx', b: 1, c: ['x'], d: false });
  });

  it('names a path parameter by the segment before it', () => {
    expect(paramSlot('/api/v0/soc/incs/{key}/alerts/{uuid}/', 'uuid')).toBe('alerts/{uuid}');
    expect(paramSlot('/api/v0/soc/incs/{key}/alerts/{uuid}/', 'key')).toBe('incs/{key}');
  });
});
