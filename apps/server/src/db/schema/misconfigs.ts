import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { MISCONFIG_SEVERITIES, MISCONFIG_STATUSES } from '@soc/contracts';
import { incidents } from './incidents.ts';
import { systems } from './systems.ts';
import { users } from './users.ts';

/**
 * Misconfigurations the SOC found in a customer's systems: the security recommendations of
 * /misconfigs, and the misconfigurations tab of the Remediation incidents linked to them.
 */
export const misconfigurations = pgTable(
  'misconfigurations',
  {
    id: serial('id').primaryKey(),
    systemId: integer('system_id')
      .notNull()
      .references(() => systems.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    /** Remediation steps. */
    recommendation: text('recommendation').notNull().default(''),
    severity: text('severity', { enum: MISCONFIG_SEVERITIES }).notNull(),
    /** Sort key: critical first. */
    severityRank: smallint('severity_rank')
      .notNull()
      .generatedAlwaysAs(
        sql`CASE severity WHEN 'critical' THEN 4 WHEN 'high' THEN 3 WHEN 'medium' THEN 2 ELSE 1 END`,
      ),
    status: text('status', { enum: MISCONFIG_STATUSES }).notNull().default('open'),
    /** Host names or addresses of the affected assets. */
    affectedAssets: text('affected_assets')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The comment of the latest status change. */
    statusComment: text('status_comment').notNull().default(''),
    statusChangedBy: integer('status_changed_by').references(() => users.id, { onDelete: 'set null' }),
    statusChangedAt: timestamp('status_changed_at', { withTimezone: true }),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
    updated: timestamp('updated', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // the list's orderings within a customer's systems (severity is the default)
    index('misconfigurations_system_severity_idx').on(t.systemId, t.severityRank, t.updated, t.id),
    index('misconfigurations_system_updated_idx').on(t.systemId, t.updated, t.id),
    index('misconfigurations_system_created_idx').on(t.systemId, t.created, t.id),
    // analysts see every system
    index('misconfigurations_severity_idx').on(t.severityRank, t.updated, t.id),
    index('misconfigurations_updated_idx').on(t.updated, t.id),
    index('misconfigurations_status_idx').on(t.status, t.systemId),
    // the list grouped by title, and a group's items (?title=), within a customer's systems and
    // across all of them for staff
    index('misconfigurations_system_title_idx').on(t.systemId, t.title),
    index('misconfigurations_title_idx').on(t.title),
    index('misconfigurations_title_trgm').using('gin', sql`${t.title} gin_trgm_ops`),
  ],
);

/** Remediation incidents that ask the customer to fix a misconfiguration. */
export const misconfigurationIncidents = pgTable(
  'misconfiguration_incidents',
  {
    misconfigurationId: integer('misconfiguration_id')
      .notNull()
      .references(() => misconfigurations.id, { onDelete: 'cascade' }),
    incidentId: uuid('incident_id')
      .notNull()
      .references(() => incidents.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.misconfigurationId, t.incidentId] }),
    index('misconfiguration_incidents_incident_idx').on(t.incidentId, t.misconfigurationId),
  ],
);
