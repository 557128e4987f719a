import { bigint, date, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

/**
 * Incidents per system, UTC day of `created` and dashboard dimension (`all`, `priority`, `status`,
 * `category`, `sla_breached`, `tactic`, `technique`, `domain`, `ip`), kept exact by the trigger
 * `incidents_daily` (migration 0009). Rows with `system_id` 0 hold the sum over all systems (the
 * analysts' dashboard). The dashboard analytics read whole days from here and only the partial
 * days at the ends of a range from the incidents themselves.
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
