import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
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
import { INCIDENT_PRIORITIES, INCIDENT_STATUSES } from '@soc/contracts';
import { services, systems } from './systems.ts';
import { users } from './users.ts';

/** Incident types (issue types), e.g. Incident, Remediation. Titles in both languages. */
export const issueTypes = pgTable(
  'issue_types',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    titleEn: text('title_en').notNull(),
    titleRu: text('title_ru').notNull(),
  },
  (t) => [uniqueIndex('issue_types_code_uq').on(t.code)],
);

/** Categories of an issue type (product §A3, incident creation categories). */
export const categories = pgTable(
  'categories',
  {
    id: serial('id').primaryKey(),
    issueTypeId: integer('issue_type_id')
      .notNull()
      .references(() => issueTypes.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    titleEn: text('title_en').notNull(),
    titleRu: text('title_ru').notNull(),
  },
  (t) => [uniqueIndex('categories_type_code_uq').on(t.issueTypeId, t.code)],
);

/** Resolutions offered when closing an incident of a type; each is a true or a false positive. */
export const resolutions = pgTable(
  'resolutions',
  {
    id: serial('id').primaryKey(),
    issueTypeId: integer('issue_type_id')
      .notNull()
      .references(() => issueTypes.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    kind: text('kind', { enum: ['TP', 'FP'] }).notNull(),
    titleEn: text('title_en').notNull(),
    titleRu: text('title_ru').notNull(),
  },
  (t) => [uniqueIndex('resolutions_type_code_uq').on(t.issueTypeId, t.code)],
);

/** Security incidents raised by the provider's analysts (product §A3 Incident). */
export const incidents = pgTable(
  'incidents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The incident number customers see (`/inc/{key}`). */
    key: bigint('key', { mode: 'number' }).notNull().generatedByDefaultAsIdentity({ startWith: 10000 }),
    systemId: integer('system_id')
      .notNull()
      .references(() => systems.id),
    serviceId: integer('service_id').references(() => services.id, { onDelete: 'set null' }),
    issueTypeId: integer('issue_type_id')
      .notNull()
      .references(() => issueTypes.id),
    categoryId: integer('category_id').references(() => categories.id),
    secondaryCategoryIds: integer('secondary_category_ids')
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    summary: text('summary').notNull(),
    description: text('description').notNull().default(''),
    /**
     * The text a search matches, lower-cased once on write: a search compares it with LIKE, which
     * is what ILIKE does after lower-casing both sides, so that checking a candidate of the
     * trigram index costs a byte comparison instead of lower-casing its text again.
     */
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(sql`lower(summary || ' ' || description)`),
    status: text('status', { enum: INCIDENT_STATUSES }).notNull().default('waiting_for_customer'),
    priority: text('priority', { enum: INCIDENT_PRIORITIES }).notNull(),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    reporterName: text('reporter_name').notNull().default(''),
    reporterId: integer('reporter_id').references(() => users.id, { onDelete: 'set null' }),
    recommendations: text('recommendations').notNull().default(''),
    statusDescription: text('status_description').notNull().default(''),
    affectedSystems: text('affected_systems')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** When the customer was notified (registered); null while not yet notified. */
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
    /** Notification deadline computed from the service's SLA row. */
    sla: timestamp('sla', { withTimezone: true }),
    slaBreached: boolean('sla_breached').notNull().default(false),
    customerAssigneeId: integer('customer_assignee_id').references(() => users.id, { onDelete: 'set null' }),
    customerAssigneeLastTime: timestamp('customer_assignee_last_time', { withTimezone: true }),
    /** The provider's analyst who works the incident (staff only; customers never see it). */
    socAssigneeId: integer('soc_assignee_id').references(() => users.id, { onDelete: 'set null' }),
    /**
     * Since when a customer's comment waits for the SOC's answer: set by the first customer
     * comment after the SOC's last one, cleared by the SOC's next comment (trigger
     * `comments_soc_waiting`, db/derived/soc-queue.ts).
     */
    customerCommentAt: timestamp('customer_comment_at', { withTimezone: true }),
    /**
     * Reopened and not yet answered: set when a finished incident goes back to Waiting for
     * support, kept while it stays there (trigger `incidents_reopened`, db/derived/soc-queue.ts).
     */
    reopened: boolean('reopened').notNull().default(false),
    customerStarRating: smallint('customer_star_rating'),
    customerStarRatingComment: text('customer_star_rating_comment'),
    resolution: text('resolution', { enum: ['TP', 'FP'] }),
    resolutionId: integer('resolution_id').references(() => resolutions.id),
    resolutionDate: timestamp('resolution_date', { withTimezone: true }),
    gossopkaId: text('gossopka_id'),
    gossopkaSendTime: timestamp('gossopka_send_time', { withTimezone: true }),
    gossopkaPlannedTime: timestamp('gossopka_planned_time', { withTimezone: true }),
    /** A send to the national centre in progress since then (null: none). */
    gossopkaProcessingSince: timestamp('gossopka_processing_since', { withTimezone: true }),
    /** Why the last send failed (cleared by a new send). */
    gossopkaError: text('gossopka_error'),
    /** When the malicious activity was first detected. */
    activityDetectedAt: timestamp('activity_detected_at', { withTimezone: true }),
    /** Indicators of compromise the analysts observed (product §A3 IOC). */
    observedIocs: jsonb('observed_iocs')
      .$type<{ ioc: string; ioc_type: string; category: string[] }[]>()
      .notNull()
      .default([]),
    /** Tactic short name → technique ids. */
    mitreCov: jsonb('mitre_cov').$type<Record<string, string[]>>().notNull().default({}),
    /** The keys of mitre_cov and the ids in it, flattened so that filters can use GIN indexes. */
    tactics: text('tactics')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    techniques: text('techniques')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Names of the detection rules that fired. */
    detectionRules: text('detection_rules')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Sort keys: critical first; statuses in workflow order. */
    priorityRank: smallint('priority_rank')
      .notNull()
      .generatedAlwaysAs(
        sql`CASE priority WHEN 'critical' THEN 4 WHEN 'high' THEN 3 WHEN 'medium' THEN 2 ELSE 1 END`,
      ),
    statusRank: smallint('status_rank')
      .notNull()
      .generatedAlwaysAs(
        sql`CASE status WHEN 'waiting_for_customer' THEN 1 WHEN 'waiting_for_support' THEN 2 WHEN 'work_in_progress' THEN 3 WHEN 'customer_completed' THEN 4 WHEN 'completed' THEN 5 WHEN 'closed' THEN 6 ELSE 7 END`,
      ),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
    updated: timestamp('updated', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('incidents_key_uq').on(t.key),
    // Customers always filter by their systems; analysts see all. Each ordering of the list
    // (ties broken by `created`, then `key`, in the same direction) has a per-system and a
    // global index, scanned forwards or backwards.
    index('incidents_system_created_idx').on(t.systemId, t.created, t.key),
    index('incidents_created_idx').on(t.created, t.key),
    index('incidents_system_updated_idx').on(t.systemId, t.updated, t.key),
    index('incidents_updated_idx').on(t.updated, t.key),
    index('incidents_system_priority_idx').on(t.systemId, t.priorityRank, t.created, t.key),
    index('incidents_priority_idx').on(t.priorityRank, t.created, t.key),
    index('incidents_system_status_idx').on(t.systemId, t.statusRank, t.created, t.key),
    index('incidents_status_idx').on(t.statusRank, t.created, t.key),
    index('incidents_system_resolution_date_idx').on(t.systemId, t.resolutionDate),
    index('incidents_system_sla_idx').on(t.systemId, t.sla),
    index('incidents_assignee_idx').on(t.customerAssigneeId),
    // incidents still to be registered, by deadline: the 'SLA at risk' notifications
    index('incidents_unregistered_sla_idx')
      .on(t.sla)
      .where(sql`${t.notifiedAt} IS NULL`),
    // boolean and assignee filters of customers: counted from the index alone
    index('incidents_system_breached_idx').on(t.systemId, t.slaBreached, t.created, t.key),
    index('incidents_system_assignee_idx').on(t.systemId, t.customerAssigneeId, t.created, t.key),
    index('incidents_category_idx').on(t.categoryId),
    // the SOC's triage queue (modules/soc-api/soc-queue.*): the open incidents, by SLA deadline
    // over every system or per system, and by SOC assignee. The per-system one also holds every
    // column of the reasons, so that the queue's totals and counts per tenant are index-only
    // scans instead of a heap visit per waiting incident
    index('incidents_queue_sla_idx')
      .on(t.sla.asc().nullsLast(), t.key)
      .where(sql`${t.status} IN ('waiting_for_customer', 'waiting_for_support', 'work_in_progress')`),
    index('incidents_queue_system_sla_idx')
      .on(
        t.systemId,
        t.sla.asc().nullsLast(),
        t.key,
        t.status,
        t.notifiedAt,
        t.socAssigneeId,
        t.reopened,
        t.customerCommentAt,
      )
      .where(sql`${t.status} IN ('waiting_for_customer', 'waiting_for_support', 'work_in_progress')`),
    index('incidents_soc_assignee_idx')
      .on(t.socAssigneeId, t.sla.asc().nullsLast(), t.key)
      .where(sql`${t.status} IN ('waiting_for_customer', 'waiting_for_support', 'work_in_progress')`),
    index('incidents_gossopka_idx')
      .on(t.systemId, t.created)
      .where(sql`${t.gossopkaId} IS NOT NULL`),
    index('incidents_secondary_categories_gin').using('gin', t.secondaryCategoryIds),
    index('incidents_tactics_gin').using('gin', t.tactics),
    index('incidents_techniques_gin').using('gin', t.techniques),
    index('incidents_rules_gin').using('gin', t.detectionRules),
    index('incidents_affected_gin').using('gin', t.affectedSystems),
    index('incidents_tags_gin').using('gin', t.tags),
    // incident_ioc_values (db/derived/incident-iocs.ts): the lower-cased values, as the dashboard's
    // top lists show them
    index('incidents_iocs_gin').using('gin', sql`incident_ioc_values(${t.observedIocs})`),
    // the incidents the IOC feed reads (modules/ioc-feed): the few that list IOCs, per system by creation
    index('incidents_ioc_feed_idx')
      .on(t.systemId, t.created)
      .where(sql`${t.observedIocs} <> '[]'::jsonb`),
    index('incidents_search_text_trgm').using('gin', sql`${t.searchText} gin_trgm_ops`),
    // the rare summaries and host lists too long for the count table's key, which the totals of
    // summary__icontains and host__icontains check row by row
    index('incidents_long_summary_idx')
      .on(t.systemId)
      .where(sql`octet_length(${t.summary}) > 1000`),
    index('incidents_long_hosts_idx')
      .on(t.systemId)
      .where(sql`octet_length(incident_hosts_text(${t.affectedSystems})) > 1000`),
  ],
);

/** Comments of an incident's chat (product §A3 Comment). */
export const comments = pgTable(
  'comments',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    incidentId: uuid('incident_id')
      .notNull()
      .references(() => incidents.id, { onDelete: 'cascade' }),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    /** Display name or mail address at the time of writing. */
    authorName: text('author_name').notNull(),
    /** The sender's address of a comment that came by mail (also tells the national centre's domain). */
    authorEmail: text('author_email').notNull().default(''),
    /** Message-ID of the mail a comment came from: the same mail delivered twice is stored once. */
    mailMessageId: text('mail_message_id'),
    /** Sanitised HTML. */
    body: text('body').notNull(),
    source: text('source', { enum: ['API', 'Email by authorized user', 'Email by unauthorized user'] })
      .notNull()
      .default('API'),
    /** Written by the provider's staff. */
    fromSoc: boolean('from_soc').notNull().default(false),
    /**
     * A reply of the SOC shown under the system's `soc_reply_name` (stored in `author_name` when it
     * was written): customers are not told which analyst wrote it (`author_id` is theirs to hide).
     */
    asTeam: boolean('as_team').notNull().default(false),
    /**
     * Mail from the national centre's domain that our gateway authenticated (DMARC or DKIM pass);
     * decided when the mail arrives, never from the address alone.
     */
    fromNationalCentre: boolean('from_national_centre').notNull().default(false),
    issueCompleted: boolean('issue_completed').notNull().default(false),
    /**
     * An internal note of the SOC: written and read only through the analyst API; no customer path
     * (answers, lists, search, counts, PDF, CSV, mail, webhooks, events) ever returns it (docs/design.md §9).
     */
    internal: boolean('internal').notNull().default(false),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('comments_incident_created_idx').on(t.incidentId, t.created),
    uniqueIndex('comments_mail_message_uq')
      .on(t.incidentId, t.mailMessageId)
      .where(sql`${t.mailMessageId} IS NOT NULL`),
  ],
);

/** Incidents linked to each other (related incidents of the card); stored once per direction. */
export const incidentLinks = pgTable(
  'incident_links',
  {
    incidentId: uuid('incident_id')
      .notNull()
      .references(() => incidents.id, { onDelete: 'cascade' }),
    relatedId: uuid('related_id')
      .notNull()
      .references(() => incidents.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.incidentId, t.relatedId] }),
    index('incident_links_related_idx').on(t.relatedId),
  ],
);

/** Files attached to an incident or one of its comments; bytes live in file storage. */
export const attachments = pgTable(
  'attachments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    incidentId: uuid('incident_id')
      .notNull()
      .references(() => incidents.id, { onDelete: 'cascade' }),
    commentId: bigint('comment_id', { mode: 'number' }).references(() => comments.id, {
      onDelete: 'cascade',
    }),
    /**
     * The incident's system, set by the trigger `attachments_system` (db/derived/file-system-id.ts) whatever
     * the writer gives: the storage quota sums the sizes per system (storage-quota.ts).
     */
    systemId: integer('system_id'),
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    /** Key of the object in file storage (never a client-supplied path). */
    storageKey: text('storage_key').notNull(),
    sha256: text('sha256').notNull(),
    uploadedBy: integer('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('attachments_incident_idx').on(t.incidentId),
    index('attachments_comment_idx').on(t.commentId),
    // the quota's sum of a system's sizes reads the index alone
    index('attachments_system_size_idx').on(t.systemId, t.size),
  ],
);

/**
 * Exact incident counts per system and filter value, kept by the trigger `incidents_counts`
 * (db/derived/incident-counts.ts) so that list totals of the common filters never count a million
 * rows. `dim` is a filter (all, status, priority, issuetype, category, service, tactic, technique,
 * rule, tag, sla_breached, gossopka, assignee, resolution, resolution_name; summary and hosts, the
 * affected hosts as array text, which make the totals of summary__icontains and host__icontains
 * exact without reading an incident; summary_long and hosts_long, value '', for the incidents
 * whose summary or hosts take more than 1,000 bytes); `value` its value as text ('' for none).
 * Rows whose count fell to zero stay; sums ignore them.
 */
export const incidentCounts = pgTable(
  'incident_counts',
  {
    systemId: integer('system_id').notNull(),
    dim: text('dim').notNull(),
    value: text('value').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.systemId, t.dim, t.value] }),
    // totals over every system (staff): one range of the index instead of reading the table
    index('incident_counts_dim_value_idx').on(t.dim, t.value, t.systemId),
    // the summaries and host lists that contain a term (summary__icontains, host__icontains)
    index('incident_counts_text_trgm')
      .using('gin', sql`${t.value} gin_trgm_ops`)
      .where(sql`${t.dim} IN ('summary', 'hosts')`),
  ],
);

/**
 * A single row whose counter triggers raise, in the writer's transaction, whenever something
 * that cached incident responses show changes without writing an `events` row: files, links,
 * and the names of systems, services, issue types, categories, resolutions and users. With the
 * newest events id it makes the version of a cached card or list page (incidents.service.ts).
 */
export const cacheEpoch = pgTable('cache_epoch', {
  id: boolean('id').primaryKey().default(true),
  n: bigint('n', { mode: 'number' }).notNull().default(0),
});
