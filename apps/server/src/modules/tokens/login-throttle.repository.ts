import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import { LOGIN_LOCK_SECONDS, LOGIN_MAX_FAILURES } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { loginThrottle } from '../../db/schema/index.ts';

/**
 * The lock against guessing credentials, per user name and per address: the
 * password sign-in, the second factor (modules/auth) and API tokens count their failures here.
 */
export function createLoginThrottleRepository(db: Db) {
  return {
    /** Seconds until the latest lock among `keys` ends, or 0 when none is locked. */
    async lockedFor(keys: string[]): Promise<number> {
      const rows = await db
        .select({ lockedUntil: loginThrottle.lockedUntil })
        .from(loginThrottle)
        .where(and(inArray(loginThrottle.key, keys), gt(loginThrottle.lockedUntil, sql`now()`)));
      const until = Math.max(0, ...rows.map((r) => r.lockedUntil?.getTime() ?? 0));
      return until ? Math.max(1, Math.ceil((until - Date.now()) / 1000)) : 0;
    },

    /** Counts a failure in a row; the LOGIN_MAX_FAILURES-th locks the key. An hour of quiet starts over. */
    async recordFailure(key: string): Promise<void> {
      await db.execute(sql`
        INSERT INTO login_throttle AS t (key, failures, locked_until, updated_at)
        VALUES (${key}, 1, NULL, now())
        ON CONFLICT (key) DO UPDATE SET
          failures = CASE WHEN t.updated_at < now() - interval '1 hour' THEN 1 ELSE t.failures + 1 END,
          locked_until = CASE
            WHEN t.updated_at >= now() - interval '1 hour' AND t.failures + 1 >= ${LOGIN_MAX_FAILURES}
            THEN now() + make_interval(secs => ${LOGIN_LOCK_SECONDS})
            ELSE t.locked_until END,
          updated_at = now()`);
    },

    async clearFailures(key: string): Promise<void> {
      await db.delete(loginThrottle).where(eq(loginThrottle.key, key));
    },
  };
}
