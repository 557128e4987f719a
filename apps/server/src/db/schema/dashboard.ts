import { bigint, date, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Incidents per system, UTC day of `created` and dashboard dimension (`all`, `priority`, `status`,
 * `category`, `sla_breached`, `tactic`, `technique`, `domain`, `ip`), kept exact by the trigger
 * `incidents_daily` (db/derived/incident-daily-hourly.ts). Rows with `system_id` 0 hold the sum
 * over all systems (the analysts' dashboard). The dashboard analytics read whole days from here
 * and only the partial days at the ends of a range from the incidents themselves.
 */
export const incidentDaily = pgTable(
  'incident_daily',
  {
    systemId: integer('system_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    dim: text('dim').notNull(),
    value: text('value').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.systemId, t.day, t.dim, t.value] })],
);

/**
 * Incidents over all systems per UTC hour of `created` and dashboard dimension (the keys of
 * `incident_daily`), kept exact by the same trigger. The analysts' dashboard reads
 * the whole hours of a range's partial first and last day here, so that only the partial hours at
 * its ends are counted over the incidents. Per system there are no hourly rows: a system's partial
 * days hold few incidents, and the rows of all systems would multiply the table by 18.
 */
export const incidentHourly = pgTable(
  'incident_hourly',
  {
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    dim: text('dim').notNull(),
    value: text('value').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.hour, t.dim, t.value] })],
);

/**
 * Events per system and hour, summed over the system's log sources (`log_source_event_buckets`),
 * kept exact by statement triggers on that table (db/derived/eps-hourly.ts); `system_id` 0 holds
 * the sum over all systems. The dashboard's EPS reads a system's hours here instead of every
 * source's.
 */
export const epsHourly = pgTable(
  'eps_hourly',
  {
    systemId: integer('system_id').notNull(),
    bucketStart: timestamp('bucket_start', { withTimezone: true }).notNull(),
    events: bigint('events', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.systemId, t.bucketStart] })],
);
