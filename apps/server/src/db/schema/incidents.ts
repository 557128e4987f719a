import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { services, systems } from './systems.ts';
import { users } from './users.ts';

export const INCIDENT_STATUSES = [
  'waiting_for_customer',
  'waiting_for_support',
  'work_in_progress',
  'customer_completed',
  'completed',
  'closed',
  'canceled',
] as const;
export const INCIDENT_PRIORITIES = ['critical', 'high', 'medium', 'low'] as const;

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

/** Categories of an issue type (spec 000 §3, incident creation categories). */
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

/** Security incidents raised by the provider's analysts (spec 000 §3 Incident). */
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
    customerStarRating: smallint('customer_star_rating'),
    customerStarRatingComment: text('customer_star_rating_comment'),
    resolution: text('resolution', { enum: ['TP', 'FP'] }),
    resolutionName: text('resolution_name'),
    resolutionDate: timestamp('resolution_date', { withTimezone: true }),
    gossopkaId: text('gossopka_id'),
    gossopkaSendTime: timestamp('gossopka_send_time', { withTimezone: true }),
    gossopkaPlannedTime: timestamp('gossopka_planned_time', { withTimezone: true }),
    /** Tactic short name → technique ids. */
    mitreCov: jsonb('mitre_cov').$type<Record<string, string[]>>().notNull().default({}),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
    updated: timestamp('updated', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('incidents_key_uq').on(t.key),
    index('incidents_system_created_idx').on(t.systemId, t.created.desc()),
    index('incidents_created_idx').on(t.created.desc()),
  ],
);

/** Comments of an incident's chat (spec 000 §3 Comment). */
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
    /** Sanitised HTML. */
    body: text('body').notNull(),
    source: text('source', { enum: ['API', 'Email by authorized user', 'Email by unauthorized user'] })
      .notNull()
      .default('API'),
    /** Written by the provider's staff. */
    fromSoc: boolean('from_soc').notNull().default(false),
    issueCompleted: boolean('issue_completed').notNull().default(false),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('comments_incident_created_idx').on(t.incidentId, t.created)],
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
  ],
);
