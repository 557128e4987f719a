import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * Documentation hub (product §B3): instructions, response instructions and articles. One row is one
 * language variant; variants of the same document share `document`. Provider-wide: not tenant-scoped.
 */
export const documents = pgTable(
  'documents',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    kind: text('kind', { enum: ['instruction', 'response_instruction', 'article'] }).notNull(),
    /** Shared id of the language variants. */
    document: uuid('document').notNull(),
    language: text('language', { enum: ['ru', 'en'] }).notNull(),
    title: text('title').notNull(),
    /** Markdown source; rendered through the sanitiser on output. */
    description: text('description').notNull().default(''),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Instructions only. */
    sensors: text('sensors')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    authorName: text('author_name').notNull().default(''),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
    updated: timestamp('updated', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('documents_document_language_uq').on(t.document, t.language),
    // list orderings within a kind and language (keyset-friendly with id as tie-breaker)
    index('documents_kind_lang_updated_idx').on(t.kind, t.language, t.updated, t.id),
    index('documents_kind_lang_created_idx').on(t.kind, t.language, t.created, t.id),
    index('documents_kind_lang_title_idx').on(t.kind, t.language, t.title, t.id),
    index('documents_kind_updated_idx').on(t.kind, t.updated, t.id),
    index('documents_kind_created_idx').on(t.kind, t.created, t.id),
    index('documents_kind_title_idx').on(t.kind, t.title, t.id),
    index('documents_tags_gin').using('gin', t.tags),
    index('documents_sensors_gin').using('gin', t.sensors),
    index('documents_search_trgm').using('gin', sql`(${t.title} || ' ' || ${t.description}) gin_trgm_ops`),
  ],
);

/** Each create and edit of a document variant stores its state (product §B3 Version). */
export const documentVersions = pgTable(
  'document_versions',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    documentId: integer('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    comment: text('comment').notNull().default(''),
    title: text('title').notNull(),
    description: text('description').notNull(),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    authorName: text('author_name').notNull().default(''),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('document_versions_document_idx').on(t.documentId, t.created, t.id)],
);

/** Comments of a document variant (product §B3 Comment). */
export const documentComments = pgTable(
  'document_comments',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    documentId: integer('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    authorName: text('author_name').notNull(),
    /** Sanitised HTML of the Markdown text. */
    body: text('body').notNull(),
    fromSoc: boolean('from_soc').notNull().default(false),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('document_comments_document_idx').on(t.documentId, t.created, t.id)],
);

/** Images and files of a document variant; bytes live in file storage. */
export const documentAttachments = pgTable(
  'document_attachments',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    documentId: integer('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    /** Key of the object in file storage (never a client-supplied path). */
    storageKey: text('storage_key').notNull(),
    sha256: text('sha256').notNull(),
    uploadedBy: integer('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('document_attachments_document_idx').on(t.documentId, t.id)],
);
