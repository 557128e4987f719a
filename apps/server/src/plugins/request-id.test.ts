import Fastify from 'fastify';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../config.ts';
import { auditLog } from '../db/schema/index.ts';
import { buildCustomer } from '../test/builders.ts';
import { createTestContext } from '../test/harness.ts';
import type { TestContext } from '../test/harness.ts';
import { loggerOptions } from './logger.ts';
import { genRequestId, requestIdPlugin } from './request-id.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const GOOD = 'a3f1c0de9b8e4f7a8c6d5e4f3a2b1c0d'; // nginx's $request_id

let ctx: TestContext;
const lines: Record<string, unknown>[] = [];

beforeAll(async () => {
  ctx = await createTestContext({
    incidents: 0,
    config: { logLevel: 'info' },
    logStream: { write: (line) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  });
});
afterAll(() => ctx.close());

describe('X-Request-Id', () => {
  it('keeps a well-formed id from the proxy and returns it', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': GOOD } });
    expect(res.headers['x-request-id']).toBe(GOOD);
  });

  it.each([
    ['too short', 'abc'],
    ['too long', 'a'.repeat(129)],
    ['a space', 'forged id 12345'],
    ['a line break', 'forged\nline-12345'],
    ['markup', '<script>alert(1)</script>'],
    ['a JSON quote', 'x","level":60,"y":"12345'],
  ])('replaces a forged id with %s by a random UUID', async (_, forged) => {
    const res = await ctx.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': forged } });
    expect(res.headers['x-request-id']).toMatch(UUID);
  });

  it('answers with the id on errors and 404s too', async () => {
    const answers = await Promise.all([
      ctx.app.inject({ method: 'GET', url: '/api/v0/soc/incs/' }),
      ctx.app.inject({ method: 'GET', url: '/api/v0/no-such-route/' }),
      ctx.app.inject({
        method: 'POST',
        url: '/api/v0/auth/token/obtain/',
        headers: { 'content-type': 'application/json' },
        payload: '{"username": ',
      }),
      ctx.app.inject({ method: 'POST', url: '/api/v0/auth/token/obtain/', payload: { username: 1 } }),
      ctx.app.inject({ method: 'GET', url: '/api/v0/soc/incs/%E0%A4%A' }),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([401, 404, 400, 400, 400]);
    for (const res of answers) expect(res.headers['x-request-id']).toMatch(UUID);
  });

  it('puts the id on the log lines of the request', async () => {
    lines.length = 0;
    await ctx.app.inject({ method: 'GET', url: '/api/v0/soc/incs/', headers: { 'x-request-id': GOOD } });
    const ofRequest = lines.filter((l) => l.reqId === GOOD);
    expect(ofRequest.map((l) => l.msg)).toEqual(
      expect.arrayContaining(['incoming request', 'request completed']),
    );
  });

  it('writes the id on the audit rows of the request', async () => {
    const user = await buildCustomer(ctx);
    const id = 'req-id-of-a-failed-sign-in-0001';
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/auth/token/obtain/',
      headers: { 'x-request-id': id },
      payload: { username: user.username, password: 'not-the-password-1' },
    });
    expect(res.statusCode).toBe(401);
    const rows = await ctx.database.db
      .select({ requestId: auditLog.requestId })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'auth.login_failed'), eq(auditLog.objectId, String(user.id))));
    expect(rows).toEqual([{ requestId: id }]);
  });
});

describe('request ids of several instances', () => {
  it('never gives two instances the same id', async () => {
    const other = await createTestContext({ incidents: 0 });
    try {
      const ids = await Promise.all(
        [ctx, other].map(async ({ app }) => {
          const seen: string[] = [];
          for (let i = 0; i < 100; i++)
            seen.push(String((await app.inject({ method: 'GET', url: '/healthz' })).headers['x-request-id']));
          return seen;
        }),
      );
      const all = ids.flat();
      expect(new Set(all).size).toBe(200);
      for (const id of all) expect(id).toMatch(UUID);
    } finally {
      await other.close();
    }
  });

  it("marks the lines of the app's own logger written while a request runs", async () => {
    const logged: Record<string, unknown>[] = [];
    const app = Fastify({
      logger: loggerOptions(testConfig({ logLevel: 'info' }), {
        write: (line: string) => void logged.push(JSON.parse(line) as Record<string, unknown>),
      }),
      genReqId: genRequestId,
      requestIdHeader: false,
    });
    await app.register(requestIdPlugin);
    app.get('/work', async (request) => {
      // as services write them: through the app's logger, after an await
      await Promise.resolve();
      app.log.info('working');
      return { id: request.id };
    });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await app.inject({ method: 'GET', url: '/work' })).json<{ id: string }>().id);
    app.log.info('outside any request');
    await app.close();
    expect(logged.filter((l) => l.msg === 'working').map((l) => l.reqId)).toEqual(ids);
    expect(logged.find((l) => l.msg === 'outside any request')).not.toHaveProperty('reqId');
  });
});
