import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/client.ts';
import { sqlList } from '../../db/fragments.ts';

/** The sign-in names the demo data set creates (README's table of demo logins). */
export const DEMO_USERNAMES = ['alice', 'bob', 'carol', 'dave', 'analyst', 'admin'] as const;

/** Whether the demo data set is loaded (the SMS outbox page is for the demo only). */
export function createDemoAccountsRepository(db: Db) {
  return {
    /** Whether the demo's accounts are in the database, i.e. the demo data set is loaded. */
    async demoAccountsPresent(): Promise<boolean> {
      const rows = await queryRows<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM users WHERE username IN (${sqlList(DEMO_USERNAMES)})`,
      );
      return rows[0]?.n === DEMO_USERNAMES.length;
    },
  };
}
