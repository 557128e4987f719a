import type { Db } from '../db/client.ts';
import { jobs } from '../db/schema/index.ts';

/**
 * New jobs as the writers queue them, apart from the runner's repository (which is bound to one
 * runner): pass the writer's transaction, so that the job exists only if the write commits.
 */
export function createJobQueueRepository(db: Db) {
  return {
    /** Queues a job to run now with the default attempts. */
    async queueJob(type: string, payload: Record<string, unknown>): Promise<void> {
      await db.insert(jobs).values({ type, payload });
    },
  };
}
