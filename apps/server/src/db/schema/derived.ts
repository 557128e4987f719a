import { sql } from 'drizzle-orm';
import { boolean, check, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * One row: what `applyDerived` (db/derived/apply.ts) last declared, as a checksum of the
 * functions and triggers of db/derived and of the newest migration, so that a start declares them
 * again only when either changed.
 */
export const derivedState = pgTable(
  'derived_state',
  {
    id: boolean('id').primaryKey().default(true),
    checksum: text('checksum').notNull(),
    appliedAt: timestamp('applied_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('derived_state_one_row', sql`${t.id}`)],
);
