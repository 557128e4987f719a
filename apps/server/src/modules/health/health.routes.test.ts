import { afterEach, describe, expect, it } from 'vitest';
import { createTestContext } from '../../test/harness.ts';
import type { TestContext } from '../../test/harness.ts';
import { LocalFileStorage } from '../../integrations/storage/local-storage.ts';
import { until } from '../../test/server-process.ts';

/** A warm-up step that ends when the test says so. */
function gate() {
  let release!: () => void;
  let fail!: (err: Error) => void;
  const done = new Promise<void>((resolve, reject) => {
    release = resolve;
    fail = reject;
  });
  return { run: () => done, release: () => release(), fail: (err: Error) => fail(err) };
}

describe('readiness (/readyz) and the warm-up of a new instance', () => {
  let ctx: TestContext | undefined;
  afterEach(async () => {
    await ctx?.close();
    ctx = undefined;
  });

  it('answers 503 naming every step before the warm-up starts, 200 once it has ended', async () => {
    ctx = await createTestContext({ incidents: 0 });
    const before = await ctx.app.inject('/readyz');
    expect(before.statusCode).toBe(503);
    expect(before.json()).toEqual({
      status: 'unavailable',
      database: 'ok',
      storage: 'ok',
      warming_up: ['database pool', 'ATT&CK data'],
      failed: [],
    });
    await ctx.app.readiness.start();
    const after = await ctx.app.inject('/readyz');
    expect(after.statusCode).toBe(200);
    expect(after.json()).toEqual({ status: 'ok', database: 'ok', storage: 'ok' });
    // the warm-up reads the whole ATT&CK bundle: seconds on a quiet machine, more on a busy one
  }, 120_000);

  it('stays 503 while a step runs, without holding the event loop: liveness and readiness answer', async () => {
    ctx = await createTestContext({ incidents: 0 });
    const slow = gate();
    ctx.app.readiness.add('slow cache', slow.run);
    const warming = ctx.app.readiness.start();
    let ended = false;
    void warming.then(() => (ended = true));

    // timers and requests keep being served while the step waits
    await new Promise((r) => setTimeout(r, 20));
    expect((await ctx.app.inject('/healthz')).statusCode).toBe(200);
    // the other steps (the ATT&CK bundle: seconds on a busy machine) end; the gated one waits
    const during = await until('the slow step alone', async () => {
      const answer = await ctx!.app.inject('/readyz');
      const warmingUp = answer.json<{ warming_up: string[] }>().warming_up;
      return warmingUp.length === 1 && answer;
    });
    expect(during.statusCode).toBe(503);
    expect(during.json<{ warming_up: string[] }>().warming_up).toEqual(['slow cache']);
    expect(ended).toBe(false);

    slow.release();
    await warming;
    expect((await ctx.app.inject('/readyz')).statusCode).toBe(200);
  }, 120_000);

  it('stays 503 when a step fails and logs why', async () => {
    const lines: string[] = [];
    ctx = await createTestContext({
      incidents: 0,
      config: { logLevel: 'warn' },
      logStream: { write: (line) => lines.push(line) },
    });
    const broken = gate();
    ctx.app.readiness.add('reference data', broken.run);
    void ctx.app.readiness.start();
    broken.fail(new Error('reference file unreadable'));
    // the other steps end and the broken one is marked failed, however busy the machine is
    const res = await until('the failed step alone', async () => {
      const answer = await ctx!.app.inject('/readyz');
      const body = answer.json<{ warming_up: string[]; failed: string[] }>();
      return body.failed.length > 0 && body.warming_up.length === 1 && answer;
    });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      status: 'unavailable',
      database: 'ok',
      storage: 'ok',
      warming_up: ['reference data'],
      failed: ['reference data'],
    });
    // the reason goes to the log, never to the public answer
    expect(res.body).not.toContain('unreadable');
    const logged = lines.map(
      (l) => JSON.parse(l) as { level: number; step?: string; err?: { message?: string } },
    );
    const failure = logged.find((l) => l.step === 'reference data' && l.err);
    expect(failure?.err?.message).toBe('reference file unreadable');
    // pino's warn level
    expect(failure?.level).toBe(40);
  });

  it('reports the file storage and Redis without answering 503 for them: every instance shares them', async () => {
    ctx = await createTestContext({
      incidents: 0,
      // a Redis nobody listens on
      config: { redisUrl: 'redis://127.0.0.1:1' },
      storage: (config) => new UnreachableStorage(config.filesDir),
    });
    await ctx.app.readiness.start();
    const res = await ctx.app.inject('/readyz');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ok',
      database: 'ok',
      storage: 'unavailable',
      redis: 'unavailable',
    });
  });

  it('names the database while its prerequisite step has not ended, and starts no other step before it', async () => {
    ctx = await createTestContext({ incidents: 0 });
    const database = gate();
    let others = 0;
    ctx.app.readiness.addPrerequisite('database', database.run);
    ctx.app.readiness.add('after the database', async () => void (others += 1));
    const warming = ctx.app.readiness.start();
    const during = await ctx.app.inject('/readyz');
    expect(during.statusCode).toBe(503);
    expect(during.json<{ warming_up: string[] }>().warming_up).toEqual([
      'database',
      'database pool',
      'ATT&CK data',
      'after the database',
    ]);
    expect(others).toBe(0);
    database.release();
    await warming;
    expect(others).toBe(1);
    expect((await ctx.app.inject('/readyz')).statusCode).toBe(200);
  });
});

/** A storage whose service does not answer (its files are never touched here). */
class UnreachableStorage extends LocalFileStorage {
  override async check(): Promise<void> {
    throw new Error('connect ECONNREFUSED');
  }
}
