import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { queryRows } from '../db/client.ts';

/** What the metrics scrape reads of the database. */
export function createMetricsRepository(db: Db) {
  return {
    /**
     * The due jobs waiting for a runner, by type, and how long the oldest of each has waited: read at
     * scrape time through the partial index of queued jobs (`jobs_queued_idx`), so a scrape costs one
     * short statement however many jobs are done.
     */
    async readJobQueue(): Promise<{ type: string; queued: number; oldestSeconds: number }[]> {
      const rows = await queryRows<{ type: string; queued: number | string; oldest: number | string }>(
        db,
        sql`SELECT type, count(*)::int AS queued,
                   extract(epoch FROM now() - min(run_at))::float8 AS oldest
              FROM jobs
             WHERE status = 'queued' AND run_at <= now()
             GROUP BY type`,
      );
      return rows.map((r) => ({
        type: r.type,
        queued: Number(r.queued),
        oldestSeconds: Math.max(0, Number(r.oldest)),
      }));
    },
  };
}
