import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { jobs } from '../db/schema/index.ts';
import type { TestContext } from '../test/harness.ts';
import { createTestContext } from '../test/harness.ts';
import { createJobRunner } from './runner.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
});
afterAll(() => ctx.close());
afterEach(() => {
  vi.useRealTimers();
});

const LEASE_MS = 600;

describe('job leases', () => {
  it('renews the lease of a running job, so that another runner does not take it', async () => {
    // only the heartbeat's interval is faked: the database and its driver keep real timers
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let runs = 0;
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    let release: () => void = () => undefined;
    const handlers = {
      'test.slow': async () => {
        runs += 1;
        started();
        await new Promise<void>((resolve) => (release = resolve));
      },
    };
    const a = createJobRunner({ db: ctx.database.db, handlers, lockTimeoutMs: LEASE_MS });
    const b = createJobRunner({ db: ctx.database.db, handlers, lockTimeoutMs: LEASE_MS });
    const id = await a.enqueue('test.slow', {});
    const done = a.runDue();
    await running;
    // the lease as it stands well past its end: without a renewal the job looks abandoned
    await ctx.database.db
      .update(jobs)
      .set({ lockedAt: sql`now() - make_interval(secs => ${(LEASE_MS * 2.5) / 1000})` })
      .where(eq(jobs.id, id));
    const leasePassed = () =>
      ctx.database.db
        .select({ id: jobs.id })
        .from(jobs)
        .where(
          sql`${jobs.id} = ${id} AND ${jobs.lockedAt} < now() - make_interval(secs => ${LEASE_MS / 1000})`,
        );
    expect(await leasePassed()).toHaveLength(1);
    // one heartbeat (a third of the lease) renews it
    await vi.advanceTimersByTimeAsync(LEASE_MS / 3);
    await vi.waitFor(async () => expect(await leasePassed()).toHaveLength(0));
    expect(await b.runDue()).toBe(0);
    release();
    await done;
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
