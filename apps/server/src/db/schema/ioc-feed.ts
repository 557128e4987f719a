import { bigint, integer, pgTable, timestamp } from 'drizzle-orm/pg-core';
import { systems } from './systems.ts';

/**
 * The version of each system's IOC feed (issue 29 §3): raised by a trigger on incidents
 * (db/derived/ioc-feed.ts), in the writer's transaction, whenever an incident that lists IOCs,
 * before or after the change, is created, deleted, or changes its IOCs, status, system or creation
 * time. A feed's ETag is made of the versions of the systems it reads, so a poll that finds them
 * unchanged answers 304 after one primary-key lookup per system. No row: never changed (0).
 */
export const iocFeedVersions = pgTable('ioc_feed_versions', {
  systemId: integer('system_id')
    .primaryKey()
    .references(() => systems.id, { onDelete: 'cascade' }),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
  /** When the version last moved (the feed's Last-Modified). */
  changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
});
