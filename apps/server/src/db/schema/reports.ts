import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

type Crontab = {
  minute: string;
  hour: string;
  day_of_week: string;
  day_of_month: string;
  month_of_year: string;
};

/**
 * Report schedules (report tasks, product §B3). `next_run_at` is the next slot of the crontab in
 * `time_zone`; the scheduler claims due rows with FOR UPDATE SKIP LOCKED and advances it in the
 * same transaction that queues the report, so each slot runs once across instances, and a
 * restart that missed several slots runs the latest one once.
 */
export const reportSchedules = pgTable(
  'report_schedules',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    ownerId: integer('owner_id').references((): AnyPgColumn => users.id, { onDelete: 'cascade' }),
    systemIds: integer('system_ids')
      .array()
      .notNull()
      .default(sql`'{}'::int[]`),
    emails: text('emails')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** `YYYY-MM-DDTHH:mm`, wall time in `time_zone`. */
    startTime: text('start_time').notNull(),
    period: text('period', { enum: ['everyDay', 'everyWeek', 'twiceAMonth', 'onceAMonth'] }).notNull(),
    crontab: jsonb('crontab').$type<Crontab>().notNull(),
    /** IANA zone of the schedule's wall times (the system's time zone). */
    timeZone: text('time_zone').notNull().default('Europe/Moscow'),
    /** Language of the reports (the recipients'). */
    language: text('language', { enum: ['ru', 'en'] })
      .notNull()
      .default('ru'),
    nextRunAt: timestamp('next_run_at', { withTimezone: true }),
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
    updated: timestamp('updated', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('report_schedules_next_run_idx')
      .on(t.nextRunAt)
      .where(sql`${t.nextRunAt} IS NOT NULL`),
    index('report_schedules_created_idx').on(t.created, t.id),
    index('report_schedules_systems_gin').using('gin', t.systemIds),
  ],
);

/** Generated report files (product §B3 Report file); listed once `status` is ready. */
export const reports = pgTable(
  'reports',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    filename: text('filename').notNull(),
    status: text('status', { enum: ['queued', 'ready', 'failed'] })
      .notNull()
      .default('queued'),
    scheduleId: integer('schedule_id').references(() => reportSchedules.id, { onDelete: 'set null' }),
    createdById: integer('created_by_id').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    systemIds: integer('system_ids')
      .array()
      .notNull()
      .default(sql`'{}'::int[]`),
    /** Names of the systems at creation time, comma-separated (the list's `system` column). */
    systemLabel: text('system_label').notNull().default(''),
    emails: text('emails')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    language: text('language', { enum: ['ru', 'en'] })
      .notNull()
      .default('ru'),
    timeZone: text('time_zone').notNull().default('Europe/Moscow'),
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    periodFinish: timestamp('period_finish', { withTimezone: true }).notNull(),
    storageKey: text('storage_key'),
    size: bigint('size', { mode: 'number' }).notNull().default(0),
    error: text('error'),
    mailedAt: timestamp('mailed_at', { withTimezone: true }),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('reports_ready_created_idx')
      .on(t.created, t.id)
      .where(sql`${t.status} = 'ready'`),
    index('reports_ready_filename_idx')
      .on(t.filename, t.id)
      .where(sql`${t.status} = 'ready'`),
    index('reports_ready_size_idx')
      .on(t.size, t.id)
      .where(sql`${t.status} = 'ready'`),
    index('reports_systems_gin').using('gin', t.systemIds),
    // a schedule's slot is one report even if two instances got past the row lock
    uniqueIndex('reports_schedule_slot_uq')
      .on(t.scheduleId, t.periodFinish)
      .where(sql`${t.scheduleId} IS NOT NULL`),
  ],
);
