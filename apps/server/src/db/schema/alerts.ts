import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  ALERT_PLATFORMS,
  ALERT_PRIORITIES,
  ALERT_SEVERITIES,
  ALERT_STATES,
  ALERT_STATUSES,
} from '@soc/contracts';
import { incidents } from './incidents.ts';
import { systems } from './systems.ts';
import { users } from './users.ts';

/** One event behind an alert; `parent` links a process event to the one that started it. */
export interface AlertEvent {
  id: string;
  parent: string | null;
  /** Milliseconds after the alert's created_time. */
  dt: number;
  host: string;
  user: string;
  process: string;
  pid: number;
  cmdline: string;
  src_ip?: string;
  dst_ip?: string;
  domain?: string;
  file_hash?: string;
  action?: string;
  /** This event matched the detection rule. */
  matched?: boolean;
}

/** An asset an alert touches, copied from the incident's snapshot when the alert is recorded. */
export interface AlertAssetRef {
  cmdb_id: string;
  name: string;
  ip_address: string;
}

/** Response teams of a system (alerts are routed to one). */
export const responseTeams = pgTable(
  'response_teams',
  {
    id: serial('id').primaryKey(),
    systemId: integer('system_id')
      .notNull()
      .references(() => systems.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
  },
  (t) => [uniqueIndex('response_teams_system_name_uq').on(t.systemId, t.name)],
);

/** Detection alerts (product §A3 Alert); `incident_id` is set once the alert is grouped into an incident. */
export const alerts = pgTable(
  'alerts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    systemId: integer('system_id')
      .notNull()
      .references(() => systems.id, { onDelete: 'cascade' }),
    incidentId: uuid('incident_id').references(() => incidents.id, { onDelete: 'set null' }),
    severity: text('severity', { enum: ALERT_SEVERITIES }).notNull(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    rule: text('rule').notNull().default(''),
    sourceTag: text('source_tag').notNull().default(''),
    status: text('status', { enum: ALERT_STATUSES }).notNull().default('new'),
    priority: text('priority', { enum: ALERT_PRIORITIES }).notNull().default('medium'),
    state: text('state', { enum: ALERT_STATES }).notNull().default('unclassified'),
    classificationDetails: text('classification_details').notNull().default(''),
    groupNo: bigint('group_no', { mode: 'number' }),
    platform: text('platform', { enum: ALERT_PLATFORMS }).notNull(),
    assigneeId: integer('assignee_id').references(() => users.id, { onDelete: 'set null' }),
    responseTeamId: integer('response_team_id').references(() => responseTeams.id, { onDelete: 'set null' }),
    affectedAssets: jsonb('affected_assets').$type<AlertAssetRef[]>().notNull().default([]),
    events: jsonb('events').$type<AlertEvent[]>().notNull().default([]),
    /** Sort key: High first. */
    severityRank: smallint('severity_rank')
      .notNull()
      .generatedAlwaysAs(sql`CASE severity WHEN 'High' THEN 3 WHEN 'Medium' THEN 2 ELSE 1 END`),
    createdTime: timestamp('created_time', { withTimezone: true }).notNull().defaultNow(),
    updatedTime: timestamp('updated_time', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // an incident's alert table, newest first (the first page of 10,000 alerts reads 50 index entries)
    index('alerts_incident_created_idx').on(t.incidentId, t.createdTime, t.id),
    index('alerts_system_created_idx').on(t.systemId, t.createdTime, t.id),
    index('alerts_created_idx').on(t.createdTime, t.id),
    index('alerts_system_updated_idx').on(t.systemId, t.updatedTime, t.id),
    // the alert pages by severity (the soak's and the analysts' usual sort): without them the first
    // page sorted every alert (2.2 s over 3.2 million), a new instance's slowest answer (issue 31)
    index('alerts_system_severity_idx').on(t.systemId, t.severityRank, t.createdTime, t.id),
    index('alerts_severity_idx').on(t.severityRank, t.createdTime, t.id),
    index('alerts_group_idx')
      .on(t.groupNo, t.createdTime)
      .where(sql`${t.groupNo} IS NOT NULL`),
    index('alerts_response_team_idx').on(t.responseTeamId),
    index('alerts_assignee_idx').on(t.assigneeId),
    index('alerts_title_trgm').using('gin', sql`${t.title} gin_trgm_ops`),
  ],
);

/**
 * Number of alerts per incident, kept by the statement triggers `alerts_count_*`
 * (db/derived/alert-counts.ts) so that the first page of an incident with 10,000 alerts does not
 * count them.
 */
export const incidentAlertCounts = pgTable('incident_alert_counts', {
  incidentId: uuid('incident_id')
    .primaryKey()
    .references(() => incidents.id, { onDelete: 'cascade' }),
  n: bigint('n', { mode: 'number' }).notNull(),
  /** Raised by the same triggers on every change of the incident's alerts. */
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});

/**
 * Number of alerts per system, kept by the statement triggers `alerts_system_count_*`
 * (db/derived/alert-counts.ts) so that the alerts page of a customer does not count millions of
 * alerts for its total.
 */
export const systemAlertCounts = pgTable('system_alert_counts', {
  systemId: integer('system_id')
    .primaryKey()
    .references(() => systems.id, { onDelete: 'cascade' }),
  n: bigint('n', { mode: 'number' }).notNull(),
  /** Raised by the same triggers on every change of the system's alerts. */
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});

/** Tags of a system's alerts (product §A3 Tag): one row per system and name. */
export const alertTagNames = pgTable(
  'tags',
  {
    id: serial('id').primaryKey(),
    systemId: integer('system_id')
      .notNull()
      .references(() => systems.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    color: text('color').notNull().default('default'),
  },
  (t) => [
    uniqueIndex('tags_system_lower_name_uq').on(t.systemId, sql`lower(${t.name})`),
    index('tags_name_trgm').using('gin', sql`${t.name} gin_trgm_ops`),
  ],
);

/** Which tags an alert carries, in the order they were given. */
export const alertTags = pgTable(
  'alert_tags',
  {
    alertId: uuid('alert_id')
      .notNull()
      .references(() => alerts.id, { onDelete: 'cascade' }),
    tagId: integer('tag_id')
      .notNull()
      .references(() => alertTagNames.id, { onDelete: 'cascade' }),
    position: smallint('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.alertId, t.tagId] }), index('alert_tags_tag_idx').on(t.tagId)],
);

/** URL templates for links out of an alert; `system_id` null: offered to every system. */
export const linkTemplates = pgTable(
  'link_templates',
  {
    id: serial('id').primaryKey(),
    systemId: integer('system_id').references(() => systems.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    field: text('field').notNull(),
    urlTemplate: text('url_template').notNull(),
  },
  (t) => [index('link_templates_system_idx').on(t.systemId)],
);
