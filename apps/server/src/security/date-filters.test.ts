import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestContext } from '../test/harness.ts';
import { bearer, createTestContext } from '../test/harness.ts';
import { buildAnalyst, buildCustomer, buildIncident, buildSystem } from '../test/builders.ts';
import type { ApiOperation, QueryParameter } from './openapi-operations.ts';
import { injectAnswer, loadOperations } from './openapi-operations.ts';

/*
 * Dates at the ends of the calendar (issue 37, item 7): every date filter of every list in the
 * OpenAPI document, alone (the other bound missing) and paired with the other end, answers a
 * success or a 400 naming the field, never a 5xx.
 */

let ctx: TestContext;
let ops: ApiOperation[];
const tokens: Record<string, string> = {};

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  const own = await buildSystem(ctx);
  tokens.customer = await (await buildCustomer(ctx, [own.id])).login();
  tokens.analyst = await (await buildAnalyst(ctx)).login();
  await buildIncident(ctx, own.id);
  ops = await loadOperations(ctx.app);
}, 120_000);
afterAll(() => ctx?.close());

const BOUND = /^(.+)__(gte|lte|gt|lt)$/;

/** A date filter: a bound whose schema is a millisecond timestamp (it has a maximum) or a date text. */
const isDateFilter = (q: QueryParameter) => {
  if (!BOUND.test(q.name)) return false;
  const type = q.schema.type;
  if (type === 'integer' || type === 'number') return (q.schema.maximum ?? 0) > 1e12;
  return type === 'string' || type === undefined;
};

/** The extremes a client can send: year 1, the last moment of 9999, year 10000, the JS maximum. */
const extremes = (q: QueryParameter): string[] =>
  q.schema.type === 'integer' || q.schema.type === 'number'
    ? [
        String(new Date('0001-01-01T00:00:00Z').getTime()),
        '0',
        String(Date.UTC(9999, 11, 31, 23, 59, 59, 999)),
        String(new Date('+010000-01-01T00:00:00Z').getTime()),
        String(q.schema.maximum ?? 8_640_000_000_000_000),
      ]
    : [
        '0001-01-01',
        '0001-01-01T00:00:00Z',
        '9999-12-31',
        '9999-12-31T23:59:59.999Z',
        '10000-01-01',
        '+010000-01-01T00:00:00Z',
      ];

/** The other bound of `name` (`created__gte` → `created__lte`). */
const partner = (name: string) =>
  name.replace(
    BOUND,
    (_all, field: string, op: string) => `${field}__${op.startsWith('g') ? 'l' : 'g'}${op.slice(1)}`,
  );

describe('date filters at the ends of the calendar', () => {
  it('answers every date filter of every list with a success or a 400 naming it, never a 5xx', async () => {
    const lists = ops.filter(
      (op) =>
        op.method === 'GET' &&
        op.pathParams.length === 0 &&
        !op.path.startsWith('/api/v0/auth/') &&
        // queues an e-mail job per call; its filters are those of get_csv
        !op.path.endsWith('/get_async_csv/'),
    );
    const failures: string[] = [];
    let filters = 0;
    for (const op of lists) {
      for (const q of op.query.filter(isDateFilter)) {
        filters++;
        const other = op.query.find((p) => p.name === partner(q.name));
        const values = extremes(q);
        const queries = values.flatMap((v) => [
          { [q.name]: v },
          ...(other ? extremes(other).map((w) => ({ [q.name]: v, [other.name]: w })) : []),
        ]);
        for (const query of queries) {
          const url = `${op.path}?${new URLSearchParams(query).toString()}`;
          for (const user of ['customer', 'analyst']) {
            const res = await injectAnswer(ctx.app, { method: 'GET', url, headers: bearer(tokens[user]!) });
            if (
              res.statusCode >= 500 ||
              (res.statusCode >= 300 && res.statusCode !== 400 && res.statusCode !== 403)
            ) {
              failures.push(`${user} ${url}: ${res.statusCode} ${res.body.slice(0, 160)}`);
            } else if (res.statusCode === 400) {
              const body = res.json<Record<string, unknown>>();
              if (!Object.keys(query).some((k) => k in body)) {
                failures.push(`${user} ${url}: 400 without the field: ${res.body.slice(0, 160)}`);
              }
            }
          }
        }
      }
    }
    expect(filters).toBeGreaterThan(20);
    expect(failures).toEqual([]);
  }, 600_000);

  it('answers the dashboard with one bound or the last moment of 9999, and 400 with the field’s message past it', async () => {
    const last = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
    for (const path of ['/api/v0/soc/incs/analytics/', '/api/v0/soc/incs/analytics/mitre_layer/']) {
      for (const query of [
        `created__gte=0`,
        `created__gte=${last}`,
        `created__lte=${last}`,
        `created__gte=0&created__lte=${last}`,
      ]) {
        const res = await ctx.app.inject({ url: `${path}?${query}`, headers: bearer(tokens.customer!) });
        expect(res.statusCode, `${path}?${query}: ${res.body}`).toBe(200);
      }
      const en = await ctx.app.inject({
        url: `${path}?created__gte=0&created__lte=${last + 1}&language=en`,
        headers: bearer(tokens.customer!),
      });
      expect(en.statusCode).toBe(400);
      expect(en.json()).toEqual({
        created__lte: [
          'Enter a millisecond timestamp from 0 (1970-01-01) to 253402300799999 (9999-12-31T23:59:59.999Z).',
        ],
      });
      const ru = await ctx.app.inject({
        url: `${path}?created__gte=-1&language=ru`,
        headers: bearer(tokens.customer!),
      });
      expect(ru.json()).toEqual({
        created__gte: [
          'Укажите метку времени в миллисекундах от 0 (1970-01-01) до 253402300799999 (9999-12-31T23:59:59.999Z).',
        ],
      });
    }
  });
});
