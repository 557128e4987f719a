import { hostname } from 'node:os';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { queryRows } from '../db/client.ts';
import { jobs } from '../db/schema/index.ts';

export type JobRow = typeof jobs.$inferSelect;

/** A job handler; what it returns is stored as the job's result. */
export type JobHandler = (
  payload: Record<string, unknown>,
  job: JobRow,
) => Promise<Record<string, unknown> | void>;

export interface JobRunnerOptions {
  db: Db;
  handlers: Record<string, JobHandler>;
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
  const { db, handlers } = options;
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

  async function claim(): Promise<JobRow | undefined> {
    const rows = await queryRows<Record<string, unknown>>(
      db,
      sql`UPDATE jobs SET status = 'running', locked_at = now(), locked_by = ${worker}, attempts = attempts + 1
           WHERE id = (
             SELECT id FROM jobs
              WHERE type IN (${sql.join(
                Object.keys(handlers).map((t) => sql`${t}`),
                sql`, `,
              )})
                AND ((status = 'queued' AND run_at <= now())
                  OR (status = 'running' AND locked_at < now() - make_interval(secs => ${lockTimeoutMs / 1000})))
              ORDER BY run_at
              FOR UPDATE SKIP LOCKED
              LIMIT 1)
        RETURNING id`,
    );
    const id = rows[0]?.id;
    if (id === undefined) return undefined;
    const [job] = await db
      .select()
      .from(jobs)
      .where(sql`${jobs.id} = ${Number(id)}`);
    return job;
  }

  /** Renews the lease of a job this runner is still running. */
  async function renew(job: JobRow): Promise<void> {
    await db.execute(
      sql`UPDATE jobs SET locked_at = now() WHERE id = ${job.id} AND status = 'running' AND locked_by = ${worker}`,
    );
  }

  async function finish(job: JobRow, result: Record<string, unknown> | void): Promise<void> {
    await db.execute(
      sql`UPDATE jobs SET status = 'done', finished_at = now(), locked_at = NULL, last_error = NULL,
                          result = ${JSON.stringify(result ?? {})}::jsonb
           WHERE id = ${job.id}`,
    );
  }

  async function fail(job: JobRow, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    const final = job.attempts >= job.maxAttempts;
    const delay = Math.min(BACKOFF_MAX_MS, backoffBaseMs * 2 ** (job.attempts - 1));
    await db.execute(
      sql`UPDATE jobs SET status = ${final ? 'failed' : 'queued'}, locked_at = NULL, last_error = ${message.slice(0, 2000)},
                          run_at = now() + make_interval(secs => ${delay / 1000}),
                          finished_at = ${final ? sql`now()` : sql`NULL`}
           WHERE id = ${job.id}`,
    );
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
      const heartbeat = setInterval(() => void renew(job).catch(() => undefined), lockTimeoutMs / 3);
      try {
        if (!handler) throw new Error(`No handler for job type ${job.type}`);
        await finish(job, await handler(job.payload, job));
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
      const [row] = await db
        .insert(jobs)
        .values({ type, payload, runAt: opts.runAt ?? new Date(), maxAttempts: opts.maxAttempts ?? 5 })
        .returning({ id: jobs.id });
      wake?.();
      return row!.id;
    },
    runDue,
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
