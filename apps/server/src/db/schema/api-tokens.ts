import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * Long-lived API tokens (issue 13): service tokens that administrators issue to the provider's
 * integrations (SIEM, SOAR) and read-only personal tokens that users create for their own
 * automation. Only the SHA-256 of the secret is kept; the secret is shown once. A token acts as
 * its user, narrowed to its role, systems and read-only flag, and stops working when the user is
 * deactivated, the token revoked or expired.
 */
export const serviceTokens = pgTable(
  'service_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The account the token acts as (comments and audit entries name it). */
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Who issued it: an administrator for service tokens, the user for personal ones. */
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    kind: text('kind', { enum: ['service', 'personal'] }).notNull(),
    name: text('name').notNull(),
    /** The first characters of the secret, shown in lists so that a token can be recognised. */
    prefix: text('prefix').notNull(),
    tokenHash: text('token_hash').notNull(),
    /** The role the token acts with: at most the user's own (the lower of the two applies). */
    role: text('role', { enum: ['customer', 'analyst', 'admin'] }).notNull(),
    /** Systems the token is limited to; empty: every system its role and user allow. */
    systemIds: integer('system_ids')
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    /** Only GET, HEAD and OPTIONS requests. */
    readOnly: boolean('read_only').notNull().default(true),
    /** Null only for service tokens (personal ones: at most a year after creation). */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** Written at most once a minute per token (tokens.service.ts), not on every request. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    lastUsedIp: text('last_used_ip'),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('service_tokens_hash_uq').on(t.tokenHash),
    // a user's personal tokens, newest first
    index('service_tokens_user_created_idx').on(t.userId, t.createdAt, t.id),
    // the administrators' list of every token
    index('service_tokens_created_idx').on(t.createdAt, t.id),
    // a personal token always expires (issue 25); service tokens may not
    check('service_tokens_personal_expires_ck', sql`${t.kind} <> 'personal' OR ${t.expiresAt} IS NOT NULL`),
  ],
);

/**
 * Answers of create calls made with an `Idempotency-Key` header (analyst API): a retry with the
 * same key gets the stored answer instead of creating the object again. A row without a status
 * is a call still in progress. Rows older than a day are removed.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /**
     * The credential the key belongs to (`token:<id>`, `session:<id>` or `user`) and its system
     * scope: the same key sent with another token of the same user is another key (issue 25).
     */
    scope: text('scope').notNull().default(''),
    key: text('key').notNull(),
    /** Method and route pattern the key was first used with. */
    route: text('route').notNull(),
    /** SHA-256 of the route parameters and body: the same key with another request is refused. */
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code'),
    response: jsonb('response'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.scope, t.key] }),
    index('idempotency_keys_created_idx').on(t.createdAt),
  ],
);

/** Settings that administrators change at run time (`branding`); each overrides its environment default. */
export const portalSettings = pgTable('portal_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').$type<Record<string, unknown>>().notNull(),
  updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
