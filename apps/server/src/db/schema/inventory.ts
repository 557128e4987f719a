import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { incidents } from './incidents.ts';
import { systems } from './systems.ts';

/** Kinds of configuration items in a system's asset inventory. */
export const ASSET_TYPES = ['workstation', 'server', 'network', 'virtual', 'mobile', 'other'] as const;
/** How much the customer's business depends on an asset. */
export const ASSET_CRITICALITIES = ['low', 'medium', 'high', 'critical'] as const;

/**
 * The asset inventory (CMDB) of the protected systems (product §A3 "CMDB asset reference",
 * product §B3 Asset). `cmdb_id` is the identifier the SOC's CMDB gives an asset.
 */
export const cmdbAssets = pgTable(
  'cmdb_assets',
  {
    id: serial('id').primaryKey(),
    cmdbId: text('cmdb_id').notNull(),
    systemId: integer('system_id')
      .notNull()
      .references(() => systems.id, { onDelete: 'cascade' }),
    /** Host name (or device name) of the asset. */
    name: text('name').notNull(),
    assetType: text('asset_type', { enum: ASSET_TYPES }).notNull(),
    os: text('os').notNull().default(''),
    ipAddress: text('ip_address').notNull().default(''),
    fqdn: text('fqdn').notNull().default(''),
    macAddress: text('mac_address').notNull().default(''),
    criticality: text('criticality', { enum: ASSET_CRITICALITIES }).notNull().default('medium'),
    owner: text('owner').notNull().default(''),
    location: text('location').notNull().default(''),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('cmdb_assets_cmdb_id_uq').on(t.cmdbId),
    index('cmdb_assets_system_name_idx').on(t.systemId, t.name, t.id),
    index('cmdb_assets_system_last_seen_idx').on(t.systemId, t.lastSeenAt),
    // the assets list of analysts (every system) and its filters
    index('cmdb_assets_name_idx').on(t.name, t.id),
    index('cmdb_assets_last_seen_idx').on(t.lastSeenAt, t.id),
    index('cmdb_assets_os_idx').on(t.os),
    // search over name, IP address and FQDN (ILIKE '%text%')
    index('cmdb_assets_search_trgm').using(
      'gin',
      sql`(${t.name} || ' ' || ${t.ipAddress} || ' ' || ${t.fqdn}) gin_trgm_ops`,
    ),
  ],
);

/**
 * The state of an asset as it was when it was involved in an incident (product §A7
 * `GET {incident}/snapshots/`). Kept when the asset later changes or leaves the inventory.
 */
export const incidentSnapshots = pgTable(
  'incident_snapshots',
  {
    id: serial('id').primaryKey(),
    incidentId: uuid('incident_id')
      .notNull()
      .references(() => incidents.id, { onDelete: 'cascade' }),
    cmdbId: text('cmdb_id').notNull(),
    systemId: integer('system_id')
      .notNull()
      .references(() => systems.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    assetType: text('asset_type', { enum: ASSET_TYPES }).notNull(),
    os: text('os').notNull().default(''),
    ipAddress: text('ip_address').notNull().default(''),
    fqdn: text('fqdn').notNull().default(''),
    criticality: text('criticality', { enum: ASSET_CRITICALITIES }).notNull().default('medium'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('incident_snapshots_incident_cmdb_uq').on(t.incidentId, t.cmdbId),
    // incidents of an asset (product part B: "query on snapshots.cmdb_id"), newest first
    index('incident_snapshots_cmdb_idx').on(t.cmdbId, t.createdAt, t.incidentId),
  ],
);

/** Where a system's events come from (product §B2 Log sources). */
export const logSources = pgTable(
  'log_sources',
  {
    id: serial('id').primaryKey(),
    systemId: integer('system_id')
      .notNull()
      .references(() => systems.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Kind of source, e.g. `windows`, `linux`, `firewall`, `proxy`, `edr`, `mail`. */
    sourceType: text('source_type').notNull(),
    host: text('host').notNull().default(''),
    /** Disabled sources are not expected to send anything. */
    enabled: boolean('enabled').notNull().default(true),
    /** A source that has sent nothing for longer than this is silent. */
    silenceThresholdMinutes: integer('silence_threshold_minutes').notNull().default(60),
    lastEventAt: timestamp('last_event_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('log_sources_system_name_idx').on(t.systemId, t.name, t.id),
    index('log_sources_last_event_idx').on(t.lastEventAt),
  ],
);

/** Length of one event-count bucket: one hour. */
export const EVENT_BUCKET_SECONDS = 3600;

/**
 * Events received from a log source per hour (EPS of the dashboard and of the log-sources
 * screen: events / EVENT_BUCKET_SECONDS). `system_id` is copied from the source so that a
 * system's EPS timeline is read from one index.
 */
export const logSourceEventBuckets = pgTable(
  'log_source_event_buckets',
  {
    logSourceId: integer('log_source_id')
      .notNull()
      .references(() => logSources.id, { onDelete: 'cascade' }),
    systemId: integer('system_id')
      .notNull()
      .references(() => systems.id, { onDelete: 'cascade' }),
    bucketStart: timestamp('bucket_start', { withTimezone: true }).notNull(),
    events: bigint('events', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.logSourceId, t.bucketStart] }),
    index('log_source_event_buckets_system_idx').on(t.systemId, t.bucketStart, t.events),
  ],
);
