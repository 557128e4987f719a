import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_FORMATS } from '@soc/contracts';
import { systems } from './systems.ts';
import { users } from './users.ts';

/**
 * Outbound webhook endpoints of a system (issue 29 part 2). The signing secrets are sealed with
 * the server key (they must be read to sign) and never selected for output.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: serial('id').primaryKey(),
    systemId: integer('system_id')
      .notNull()
      .references(() => systems.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    events: text('events')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    format: text('format', { enum: WEBHOOK_FORMATS }).notNull().default('generic'),
    active: boolean('active').notNull().default(true),
    description: text('description').notNull().default(''),
    language: text('language', { enum: ['ru', 'en'] })
      .notNull()
      .default('ru'),
    telegramChatId: text('telegram_chat_id').notNull().default(''),
    /** The current `whsec_…` secret, AES-GCM sealed. */
    secretSealed: text('secret_sealed').notNull(),
    /** The secret before the last rotation: it still signs until `previousSecretExpiresAt`. */
    previousSecretSealed: text('previous_secret_sealed'),
    previousSecretExpiresAt: timestamp('previous_secret_expires_at', { withTimezone: true }),
    /** The first failed attempt since the last success; null while healthy. */
    failingSince: timestamp('failing_since', { withTimezone: true }),
    /** When the portal turned the endpoint off after days of failures. */
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhook_endpoints_system_idx').on(t.systemId, t.id)],
);

/**
 * One message to one endpoint, with the outcome of its latest attempt (the delivery log). The
 * body is fixed at the first attempt, so retries and "send again" repeat the same message.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    endpointId: integer('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    /** The `webhook-id` header (`msg_…`). */
    messageId: text('message_id').notNull(),
    event: text('event').notNull(),
    /** The events row it came from; null for test events. */
    eventId: bigint('event_id', { mode: 'number' }),
    /** The generic payload, fixed at the first attempt. */
    payload: jsonb('payload').$type<Record<string, unknown>>(),
    status: text('status', { enum: WEBHOOK_DELIVERY_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
  },
  (t) => [
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id.desc()),
    // the deliveries not yet done, counted against the queue caps whenever deliveries are queued
    index('webhook_deliveries_queued_idx')
      .on(t.endpointId)
      .where(sql`${t.status} IN ('pending', 'retrying')`),
  ],
);
