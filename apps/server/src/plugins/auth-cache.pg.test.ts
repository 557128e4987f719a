import { setTimeout as sleep } from 'node:timers/promises';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.ts';
import type { Database } from '../db/client.ts';
import { openDatabase } from '../db/client.ts';
import type { TestContext } from '../test/harness.ts';
import { bearer, createTestContext } from '../test/harness.ts';
import type { BuiltUser } from '../test/builders.ts';
import { BUILT_PASSWORD, buildCustomer, buildSystem } from '../test/builders.ts';

/*
 * Two instances on one PostgreSQL database, each with its own pool and its own LISTEN connection
 * (as two processes behind a load balancer): a change committed through one instance, or by hand,
 * ends the cached sessions of the other within the delivery of a NOTIFY.
 */

let ctx: TestContext;
let a: FastifyInstance;
let b: FastifyInstance;
let bDatabase: Database;
let direct: pg.Client;
/** One customer per test, so that a deactivation stays in its test. */
const users: BuiltUser[] = [];
const dialect = new PgDialect();

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  const system = await buildSystem(ctx);
  for (let i = 0; i < 3; i++) users.push(await buildCustomer(ctx, [system.id]));
  a = ctx.app;
  bDatabase = await openDatabase({ kind: 'postgres', url: ctx.databaseUrl!, poolSize: 4 });
  b = await buildApp({
    config: ctx.config,
    database: bDatabase,
    auth: { failureFloorMs: 0, failureJitterMs: 0 },
  });
  await b.ready();
  direct = new pg.Client({ connectionString: ctx.databaseUrl });
  await direct.connect();
}, 180_000);
afterAll(async () => {
  await direct?.end();
  await b?.close();
  await bDatabase?.close();
  await ctx?.close();
});

async function login(app: FastifyInstance, username: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v0/auth/token/obtain/',
    payload: { username, password: BUILT_PASSWORD },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ access: string; refresh: string }>();
}

const get = (app: FastifyInstance, access: string) =>
  app.inject({ method: 'GET', url: '/api/v0/auth/user/', headers: bearer(access) }).then((r) => r.statusCode);

/** Counts instance B's auth queries from now on. */
function countAuthQueriesOfB(): () => number {
  const execute = vi.spyOn(bDatabase.db, 'execute');
  return () =>
    execute.mock.calls.filter(([query]) =>
      dialect.sqlToQuery(query as SQL).sql.includes('AS session_ms_left'),
    ).length;
}

async function within2s(probe: () => Promise<number>, expected: number): Promise<number> {
  const until = Date.now() + 2_000;
  let last = await probe();
  while (last !== expected && Date.now() < until) {
    await sleep(20);
    last = await probe();
  }
  return last;
}

/** Waits until B answers from its cache again (its LISTEN connection is back). */
async function untilBCaches(access: string): Promise<void> {
  const until = Date.now() + 10_000;
  for (;;) {
    const queries = countAuthQueriesOfB();
    expect(await get(b, access)).toBe(200);
    const before = queries();
    expect(await get(b, access)).toBe(200);
    const cached = queries() === before;
    vi.restoreAllMocks();
    if (cached) return;
    if (Date.now() > until) throw new Error('instance B did not cache again');
    await sleep(100);
  }
}

describe('auth cache across two instances on PostgreSQL', () => {
  it('a sign-out on A is refused at once on A and within a NOTIFY on B, which had cached the session', async () => {
    const pair = await login(a, users[0]!.username);
    const queries = countAuthQueriesOfB();
    expect(await get(b, pair.access)).toBe(200);
    expect(await get(b, pair.access)).toBe(200);
    expect(queries()).toBe(1);
    expect(await get(a, pair.access)).toBe(200);
    vi.restoreAllMocks();

    const out = await a.inject({
      method: 'POST',
      url: '/api/v0/auth/logout/',
      payload: { refresh: pair.refresh },
    });
    expect(out.statusCode).toBe(200);
    expect(await get(a, pair.access)).toBe(401);
    expect(await within2s(() => get(b, pair.access), 401)).toBe(401);
  });

  it('a deactivation by hand (another connection) reaches both instances', async () => {
    const onA = await login(a, users[1]!.username);
    const onB = await login(b, users[1]!.username);
    expect(await get(a, onA.access)).toBe(200);
    expect(await get(b, onB.access)).toBe(200);
    await direct.query('UPDATE users SET is_active = false WHERE id = $1', [users[1]!.id]);
    expect(await within2s(() => get(a, onA.access), 401)).toBe(401);
    expect(await within2s(() => get(b, onB.access), 401)).toBe(401);
  });

  it('while its LISTEN connection is gone, B reads every request and sees a change at once', async () => {
    const { access } = await login(b, users[2]!.username);
    await untilBCaches(access);
    const killed = await direct.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND query ILIKE 'LISTEN%'`,
    );
    expect(killed.rowCount).toBeGreaterThan(0);
    // the listeners notice the loss at once; they listen again only after two seconds
    await sleep(300);
    await direct.query('UPDATE users SET is_active = false WHERE id = $1', [users[2]!.id]);
    expect(await get(b, access)).toBe(401);
    await direct.query('UPDATE users SET is_active = true WHERE id = $1', [users[2]!.id]);
    // and once it listens again, B caches again
    await untilBCaches(access);
  });
});
