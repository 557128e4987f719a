import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * Opaque refresh tokens, stored as SHA-256 hashes. Tokens of one sign-in share a family; a
 * reused (already rotated) token revokes the whole family.
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: uuid('family_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash_uq').on(t.tokenHash),
    index('refresh_tokens_family_idx').on(t.familyId),
    // the auth check reads the latest expiry of a session's live tokens: one index probe, however
    // many times the session rotated
    index('refresh_tokens_family_live_idx')
      .on(t.familyId, t.expiresAt)
      .where(sql`${t.revokedAt} IS NULL`),
    index('refresh_tokens_user_idx').on(t.userId),
  ],
);

/** Failed sign-ins in a row, per `u:<username>` and `ip:<address>` (shared by all instances). */
export const loginThrottle = pgTable('login_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Every change: who, when, what, from where (design §5). */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    objectType: text('object_type').notNull(),
    objectId: text('object_id').notNull().default(''),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    /** The id of the request that wrote the entry (its `X-Request-Id` and log lines); null outside requests. */
    requestId: text('request_id'),
    /**
     * Systems the entry concerns (an incident's, a report's, the acting customer's), filled by the
     * trigger `audit_log_scope` where the writer gave none: customers see the entries of their systems.
     */
    systemIds: integer('system_ids')
      .array()
      .notNull()
      .default(sql`'{}'::int[]`),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at.desc()),
    index('audit_log_systems_gin').using('gin', t.systemIds),
    index('audit_log_user_at_idx').on(t.userId, t.at),
    index('audit_log_object_idx').on(t.objectType, t.objectId),
  ],
);

/**
 * A sign-in waiting for its second factor. The client holds the opaque mfa_token; the database
 * keeps its SHA-256 and an HMAC of the current code, never the code itself.
 */
export const mfaChallenges = pgTable(
  'mfa_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    /** `sms` or `totp`. */
    method: text('method', { enum: ['sms', 'totp'] }).notNull(),
    /**
     * `sign_in`: the second step of a sign-in (its token is the client's mfa_token);
     * `mfa_change`: an SMS code proving the phone before a change of second factors (no token
     * is handed out, so it can never complete a sign-in).
     */
    purpose: text('purpose', { enum: ['sign_in', 'mfa_change'] })
      .notNull()
      .default('sign_in'),
    /** HMAC-SHA256 of the code sent last (SMS); null for TOTP. */
    codeHash: text('code_hash'),
    codeExpiresAt: timestamp('code_expires_at', { withTimezone: true }),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true }),
    /** Codes sent for this sign-in (the first one and each resend). */
    sends: integer('sends').notNull().default(0),
    failures: integer('failures').notNull().default(0),
    /** End of the whole pending sign-in. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Set when a code was accepted or the sign-in was invalidated: the token is then dead. */
    closedAt: timestamp('closed_at', { withTimezone: true }),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('mfa_challenges_token_uq').on(t.tokenHash),
    index('mfa_challenges_user_idx').on(t.userId, t.createdAt),
  ],
);

/**
 * Text messages kept by the embedded SMS outbox (no gateway configured), readable on the
 * development-only outbox page. Never filled when a gateway is configured.
 */
export const smsOutbox = pgTable(
  'sms_outbox',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    phone: text('phone').notNull(),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sms_outbox_created_idx').on(t.createdAt.desc())],
);

/** An authorization-code flow in progress: state (hashed), nonce and PKCE verifier. */
export const oidcLoginStates = pgTable(
  'oidc_login_states',
  {
    stateHash: text('state_hash').primaryKey(),
    provider: text('provider').notNull(),
    nonce: text('nonce').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    /** Portal path to open after sign-in. */
    returnTo: text('return_to').notNull().default('/'),
    /** SHA-256 of the nonce in the cookie of the browser that started the flow (login CSRF). */
    browserHash: text('browser_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('oidc_login_states_expires_idx').on(t.expiresAt)],
);

/** A portal user linked to an identity of an external provider (OIDC issuer or SSO proxy). */
export const userIdentities = pgTable(
  'user_identities',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** OIDC issuer URL, or `sso` for the trusted reverse proxy. */
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('user_identities_issuer_subject_uq').on(t.issuer, t.subject),
    index('user_identities_user_idx').on(t.userId),
  ],
);

/**
 * One-time tickets that hand a session from an external sign-in (OIDC callback, SSO) to the
 * web app: the browser is redirected with the ticket, which it exchanges once for tokens.
 */
export const loginTickets = pgTable(
  'login_tickets',
  {
    ticketHash: text('ticket_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** `OIDC` or `SSO`: the token type the web app records. */
    kind: text('kind', { enum: ['OIDC', 'SSO'] }).notNull(),
    /** SHA-256 of the nonce in the cookie of the browser the ticket was issued to (login CSRF). */
    browserHash: text('browser_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('login_tickets_expires_idx').on(t.expiresAt)],
);
