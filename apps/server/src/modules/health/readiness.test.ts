import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createReadiness } from './readiness.ts';

/** A logger that keeps the warnings it was given. */
function recordingLog() {
  const warnings: { obj: Record<string, unknown>; msg: string }[] = [];
  const log = {
    info: () => undefined,
    warn: (obj: Record<string, unknown>, msg: string) => warnings.push({ obj, msg }),
  } as unknown as FastifyBaseLogger;
  return { log, warnings };
}

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

describe('createReadiness', () => {
  it('is not ready before start(), and ready once every step has ended', async () => {
    const { log } = recordingLog();
    const readiness = createReadiness({ log });
    const ran: string[] = [];
    readiness.add('pool', async () => void ran.push('pool'));
    readiness.add('reference data', async () => void ran.push('reference data'));
    expect(readiness.state()).toEqual({ started: false, pending: ['pool', 'reference data'], failed: [] });
    expect(ran).toEqual([]);
    await readiness.start();
    expect(ran.sort()).toEqual(['pool', 'reference data']);
    expect(readiness.state()).toEqual({ started: true, pending: [], failed: [] });
  });

  it('runs its steps after start() returned, so the caller (the listening server) is not held', async () => {
    const { log } = recordingLog();
    const readiness = createReadiness({ log });
    let ran = false;
    readiness.add('busy step', async () => {
      ran = true;
    });
    const warming = readiness.start();
    expect(ran).toBe(false);
    await warming;
    expect(ran).toBe(true);
  });

  it('runs the steps at the same time', async () => {
    const { log } = recordingLog();
    const readiness = createReadiness({ log });
    let running = 0;
    let most = 0;
    const step = async () => {
      running += 1;
      most = Math.max(most, running);
      await tick(10);
      running -= 1;
    };
    readiness.add('a', step);
    readiness.add('b', step);
    readiness.add('c', step);
    await readiness.start();
    expect(most).toBe(3);
  });

  it('logs a failed step with its reason, stays not ready and tries it again until it succeeds', async () => {
    const { log, warnings } = recordingLog();
    const readiness = createReadiness({ log, retryMs: 10, maxRetryMs: 20 });
    let tries = 0;
    readiness.add('database pool', async () => {
      tries += 1;
      if (tries < 3) throw new Error('connect ECONNREFUSED /var/run/postgresql/.s.PGSQL.5432');
    });
    let ready = false;
    void readiness.start().then(() => (ready = true));
    await tick(2);
    expect(readiness.state()).toMatchObject({ pending: ['database pool'], failed: ['database pool'] });
    expect(ready).toBe(false);
    expect(warnings[0]?.msg).toMatch(/database pool.*failed/);
    expect((warnings[0]?.obj.err as Error).message).toMatch(/ECONNREFUSED/);
    for (let i = 0; i < 50 && !ready; i++) await tick(10);
    expect(ready).toBe(true);
    expect(tries).toBe(3);
    expect(warnings).toHaveLength(2);
    expect(readiness.state()).toEqual({ started: true, pending: [], failed: [] });
  });

  it('tries no more once stopped (the app closes)', async () => {
    const { log } = recordingLog();
    const readiness = createReadiness({ log, retryMs: 10 });
    let tries = 0;
    readiness.add('never', async () => {
      tries += 1;
      throw new Error('down');
    });
    void readiness.start();
    await tick(2);
    readiness.stop();
    await tick(40);
    expect(tries).toBe(1);
  });

  it('waits for a step added after start()', async () => {
    const { log } = recordingLog();
    const readiness = createReadiness({ log });
    readiness.add('first', async () => undefined);
    await readiness.start();
    let release!: () => void;
    readiness.add('late', () => new Promise<void>((r) => (release = r)));
    await tick();
    expect(readiness.state().pending).toEqual(['late']);
    const again = readiness.start();
    release();
    await again;
    expect(readiness.state().pending).toEqual([]);
  });

  it('runs the prerequisites one after another, tried again until each ends well, before any other step', async () => {
    const { log, warnings } = recordingLog();
    const readiness = createReadiness({ log, retryMs: 5, maxRetryMs: 10 });
    const ran: string[] = [];
    let reachable = false;
    readiness.addPrerequisite('database', async () => {
      ran.push('database');
      if (!reachable) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    });
    readiness.addPrerequisite('demo data', async () => void ran.push('demo data'));
    readiness.add('pool', async () => void ran.push('pool'));
    const warming = readiness.start();
    for (let i = 0; i < 100 && warnings.length < 2; i++) await tick(5);
    expect(readiness.state()).toEqual({
      started: true,
      pending: ['database', 'demo data', 'pool'],
      failed: ['database'],
    });
    expect(ran.every((step) => step === 'database')).toBe(true);
    reachable = true;
    await warming;
    expect(ran.filter((step) => step !== 'database')).toEqual(['demo data', 'pool']);
    expect(readiness.state()).toEqual({ started: true, pending: [], failed: [] });
  });
});
