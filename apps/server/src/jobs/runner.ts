import { hostname } from 'node:os';
import type { Db } from '../db/client.ts';
import { jobRuns } from '../lib/metrics.ts';
import { traced } from '../telemetry.ts';
import type { JobRow } from './jobs.repository.ts';
import { createJobsRepository } from './jobs.repository.ts';

export type { JobRow };

/** A job handler; what it returns is stored as the job's result. */
export type JobHandler = (
  payload: Record<string, unknown>,
  job: JobRow,
) => Promise<Record<string, unknown> | void>;

export interface JobRunnerOptions {
  db: Db;
  /** Handlers known from the start; modules add theirs with `handle` (see app.ts). */
  handlers?: Record<string, JobHandler>;
  /** How often an idle runner looks for work. */
  pollMs?: number;
  /**
   * The lease of a running job: renewed every third of it while the handler runs, so a job whose
   * lease passed has lost its runner (the process died) and is claimed again, its attempt counted.
   */
  lockTimeoutMs?: number;
  /** The first retry waits this long; each further one twice as long (at most 30 minutes). */
  backoffBaseMs?: number;
  log?: { error: (obj: object, msg: string) => void; info: (obj: object, msg: string) => void };
}

export interface EnqueueOptions {
  runAt?: Date;
  maxAttempts?: number;
}

const BACKOFF_MAX_MS = 30 * 60_000;

/**
 * Runs jobs stored in PostgreSQL. Each instance runs one; a job is claimed with
 * `FOR UPDATE SKIP LOCKED`, so exactly one instance runs it. Failures are retried with
 * exponential backoff until `max_attempts`, then the job is marked failed with its error.
 */
export function createJobRunner(options: JobRunnerOptions) {
  const { db } = options;
  const handlers: Record<string, JobHandler> = { ...options.handlers };
  const pollMs = options.pollMs ?? 1_000;
  const lockTimeoutMs = options.lockTimeoutMs ?? 10 * 60_000;
  const backoffBaseMs = options.backoffBaseMs ?? 5_000;
  const worker = `${hostname()}:${process.pid}`;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = true;
  let wake: (() => void) | undefined;
  // work that turns due rows into jobs (report schedules) before each claim round
  const pollers: (() => Promise<unknown>)[] = [];

  const repo = createJobsRepository(db, worker);
  const claim = () => repo.claim(Object.keys(handlers), lockTimeoutMs);

  async function fail(job: JobRow, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    const final = job.attempts >= job.maxAttempts;
    const delay = Math.min(BACKOFF_MAX_MS, backoffBaseMs * 2 ** (job.attempts - 1));
    await repo.fail(job.id, message.slice(0, 2000), delay, final);
    jobRuns.inc({ type: job.type, result: final ? 'failed' : 'retry' });
    options.log?.error(
      { jobId: job.id, type: job.type, attempt: job.attempts, final, err: message },
      'job failed',
    );
  }

  /** Runs queued jobs until none is due; returns how many ran. */
  async function runDue(): Promise<number> {
    let count = 0;
    for (const poll of pollers) await poll();
    for (;;) {
      const job = await claim();
      if (!job) return count;
      count += 1;
      const handler = handlers[job.type];
      const heartbeat = setInterval(() => void repo.renew(job.id).catch(() => undefined), lockTimeoutMs / 3);
      try {
        if (!handler) throw new Error(`No handler for job type ${job.type}`);
        const run = () => handler(job.payload, job);
        await repo.finish(
          job.id,
          (await traced(`job ${job.type}`, { 'job.id': job.id, 'job.type': job.type }, run)) ?? {},
        );
        jobRuns.inc({ type: job.type, result: 'done' });
      } catch (err) {
        await fail(job, err);
      } finally {
        clearInterval(heartbeat);
      }
    }
  }

  async function loop(): Promise<void> {
    while (!stopped) {
      try {
        await runDue();
      } catch (err) {
        // the database may be briefly unavailable: keep polling
        options.log?.error(
          { err: err instanceof Error ? err.message : String(err) },
          'job runner poll failed',
        );
      }
      if (stopped) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, pollMs);
      });
    }
  }

  return {
    async enqueue(
      type: string,
      payload: Record<string, unknown>,
      opts: EnqueueOptions = {},
    ): Promise<number> {
      const id = await repo.insert(type, payload, opts.runAt ?? new Date(), opts.maxAttempts ?? 5);
      wake?.();
      return id;
    },
    runDue,
    /** Runs jobs of type `type` with `handler`; one handler per type. */
    handle(type: string, handler: JobHandler): void {
      if (handlers[type]) throw new Error(`A handler for job type ${type} is already registered`);
      handlers[type] = handler;
    },
    /** Runs `poll` at the start of every `runDue` (e.g. to queue jobs of due schedules). */
    addPoller(poll: () => Promise<unknown>): void {
      pollers.push(poll);
    },
    start(): void {
      if (!stopped) return;
      stopped = false;
      running = loop();
    },
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearTimeout(timer);
      wake?.();
      await running;
    },
  };
}

export type JobRunner = ReturnType<typeof createJobRunner>;
