import { setTimeout as sleep } from 'node:timers/promises';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../db/schema/index.ts';
import type { TestContext } from '../test/harness.ts';
import { createTestContext } from '../test/harness.ts';
import { createJobRunner } from './runner.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
});
afterAll(() => ctx.close());

const LEASE_MS = 600;

describe('job leases', () => {
  it('renews the lease of a running job, so that another runner does not take it', async () => {
    let runs = 0;
    let release: () => void = () => undefined;
    const handlers = {
      'test.slow': async () => {
        runs += 1;
        await new Promise<void>((resolve) => (release = resolve));
      },
    };
    const a = createJobRunner({ db: ctx.database.db, handlers, lockTimeoutMs: LEASE_MS });
    const b = createJobRunner({ db: ctx.database.db, handlers, lockTimeoutMs: LEASE_MS });
    const id = await a.enqueue('test.slow', {});
    const running = a.runDue();
    while (runs === 0) await sleep(20);
    // well past the lease: without its renewal the job would look abandoned
    await sleep(LEASE_MS * 2.5);
    expect(await b.runDue()).toBe(0);
    release();
    await running;
    const [job] = await ctx.database.db.select().from(jobs).where(eq(jobs.id, id));
    expect(job).toMatchObject({ status: 'done', attempts: 1 });
    expect(runs).toBe(1);
  });

  it('takes up again a running job whose lease has passed (its process died), counting the attempt', async () => {
    let runs = 0;
    const handlers = {
      'test.quick': () => {
        runs += 1;
        return Promise.resolve({ ok: true });
      },
    };
    const runner = createJobRunner({ db: ctx.database.db, handlers, lockTimeoutMs: LEASE_MS });
    // as a killed process leaves them: one lease expired, one still current
    const [dead] = await ctx.database.db
      .insert(jobs)
      .values({
        type: 'test.quick',
        status: 'running',
        attempts: 1,
        lockedBy: 'gone:1',
        lockedAt: sql`now() - interval '10 seconds'`,
      })
      .returning({ id: jobs.id });
    const [alive] = await ctx.database.db
      .insert(jobs)
      .values({
        type: 'test.quick',
        status: 'running',
        attempts: 1,
        lockedBy: 'busy:2',
        lockedAt: sql`now()`,
      })
      .returning({ id: jobs.id });
    expect(await runner.runDue()).toBe(1);
    expect(runs).toBe(1);
    const [d] = await ctx.database.db.select().from(jobs).where(eq(jobs.id, dead!.id));
    expect(d).toMatchObject({ status: 'done', attempts: 2, result: { ok: true } });
    const [a] = await ctx.database.db.select().from(jobs).where(eq(jobs.id, alive!.id));
    expect(a).toMatchObject({ status: 'running', attempts: 1, lockedBy: 'busy:2' });
  });
});
