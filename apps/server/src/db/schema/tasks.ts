import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { COMMENT_SOURCES, TASK_PRIORITIES, TASK_STATUSES, TASK_TYPES } from '@soc/contracts';
import { systems } from './systems.ts';
import { users } from './users.ts';

/** Service requests of customers to the SOC (tasks with a chat, product §A2 and §A9). */
export const tasks = pgTable(
  'tasks',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    systemId: integer('system_id')
      .notNull()
      .references(() => systems.id, { onDelete: 'cascade' }),
    type: text('type', { enum: TASK_TYPES }).notNull(),
    subject: text('subject').notNull(),
    /** Markdown as written; shown as sanitised HTML. */
    description: text('description').notNull(),
    priority: text('priority', { enum: TASK_PRIORITIES }).notNull().default('medium'),
    /** Sort key: high first. */
    priorityRank: integer('priority_rank')
      .notNull()
      .generatedAlwaysAs(sql`CASE priority WHEN 'high' THEN 3 WHEN 'medium' THEN 2 ELSE 1 END`),
    status: text('status', { enum: TASK_STATUSES }).notNull().default('open'),
    /** Sort key: workflow order. */
    statusRank: integer('status_rank')
      .notNull()
      .generatedAlwaysAs(
        sql`CASE status WHEN 'open' THEN 1 WHEN 'in_progress' THEN 2 WHEN 'waiting_for_customer' THEN 3 WHEN 'resolved' THEN 4 ELSE 5 END`,
      ),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    /** Display name at the time of writing. */
    authorName: text('author_name').notNull(),
    messagesCount: integer('messages_count').notNull().default(0),
    lastFromSoc: boolean('last_from_soc').notNull().default(false),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
    updated: timestamp('updated', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('tasks_system_updated_idx').on(t.systemId, t.updated, t.id),
    index('tasks_system_created_idx').on(t.systemId, t.created, t.id),
    index('tasks_system_status_idx').on(t.systemId, t.statusRank, t.updated, t.id),
    index('tasks_system_priority_idx').on(t.systemId, t.priorityRank, t.updated, t.id),
    // analysts see every system
    index('tasks_updated_idx').on(t.updated, t.id),
    index('tasks_created_idx').on(t.created, t.id),
    index('tasks_subject_trgm').using('gin', sql`${t.subject} gin_trgm_ops`),
  ],
);

/** The chat of a task (the comment rules of incidents). */
export const taskMessages = pgTable(
  'task_messages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    taskId: bigint('task_id', { mode: 'number' })
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    authorName: text('author_name').notNull(),
    /** Sanitised HTML. */
    body: text('body').notNull(),
    source: text('source', { enum: COMMENT_SOURCES }).notNull().default('API'),
    /** Written by the provider's staff. */
    fromSoc: boolean('from_soc').notNull().default(false),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('task_messages_task_created_idx').on(t.taskId, t.created, t.id)],
);

/** Files of a task (`message_id` null) or of one of its messages; bytes live in file storage. */
export const taskAttachments = pgTable(
  'task_attachments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    taskId: bigint('task_id', { mode: 'number' })
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    messageId: bigint('message_id', { mode: 'number' }).references(() => taskMessages.id, {
      onDelete: 'cascade',
    }),
    /** The task's system, set by the trigger `task_attachments_system` (see attachments.systemId). */
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
    index('task_attachments_task_idx').on(t.taskId, t.created),
    index('task_attachments_message_idx').on(t.messageId),
    index('task_attachments_system_size_idx').on(t.systemId, t.size),
  ],
);
