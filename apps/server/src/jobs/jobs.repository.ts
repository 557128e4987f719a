import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { queryRows } from '../db/client.ts';
import { jobs } from '../db/schema/index.ts';

export type JobRow = typeof jobs.$inferSelect;

/** The SQL of the job runner: claiming, leases, outcomes and new jobs of the `jobs` table. */
export function createJobsRepository(db: Db, worker: string) {
  return {
    /**
     * Claims the next due job of `types` (or one whose lease of `leaseMs` passed), counting the
     * attempt; `FOR UPDATE SKIP LOCKED`, so exactly one runner gets it.
     */
    async claim(types: string[], leaseMs: number): Promise<JobRow | undefined> {
      const rows = await queryRows<Record<string, unknown>>(
        db,
        sql`UPDATE jobs SET status = 'running', locked_at = now(), locked_by = ${worker}, attempts = attempts + 1
             WHERE id = (
               SELECT id FROM jobs
                WHERE type IN (${sql.join(
                  types.map((t) => sql`${t}`),
                  sql`, `,
                )})
                  AND ((status = 'queued' AND run_at <= now())
                    OR (status = 'running' AND locked_at < now() - make_interval(secs => ${leaseMs / 1000})))
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
    },

    /** Renews the lease of a job this runner is still running. */
    async renew(id: number): Promise<void> {
      await db.execute(
        sql`UPDATE jobs SET locked_at = now() WHERE id = ${id} AND status = 'running' AND locked_by = ${worker}`,
      );
    },

    async finish(id: number, result: Record<string, unknown>): Promise<void> {
      await db.execute(
        sql`UPDATE jobs SET status = 'done', finished_at = now(), locked_at = NULL, last_error = NULL,
                            result = ${JSON.stringify(result)}::jsonb
             WHERE id = ${id}`,
      );
    },

    /** Records a failed attempt: queued again after `delayMs`, or failed for good when `final`. */
    async fail(id: number, message: string, delayMs: number, final: boolean): Promise<void> {
      await db.execute(
        sql`UPDATE jobs SET status = ${final ? 'failed' : 'queued'}, locked_at = NULL, last_error = ${message},
                            run_at = now() + make_interval(secs => ${delayMs / 1000}),
                            finished_at = ${final ? sql`now()` : sql`NULL`}
             WHERE id = ${id}`,
      );
    },

    async insert(
      type: string,
      payload: Record<string, unknown>,
      runAt: Date,
      maxAttempts: number,
    ): Promise<number> {
      const [row] = await db
        .insert(jobs)
        .values({ type, payload, runAt, maxAttempts })
        .returning({ id: jobs.id });
      return row!.id;
    },
  };
}
