import { sql } from 'drizzle-orm';
import { bigint, boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { MAIL_QUARANTINE_REASONS } from '@soc/contracts';
import { incidents } from './incidents.ts';

/**
 * Replies to incident mail from senders the portal cannot vouch for (issue 25 item 4): kept here
 * for analysts to release or delete instead of being posted on the customer's incident.
 */
export const mailQuarantine = pgTable(
  'mail_quarantine',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    incidentId: uuid('incident_id')
      .notNull()
      .references(() => incidents.id, { onDelete: 'cascade' }),
    /** The From address, lower case. */
    senderEmail: text('sender_email').notNull(),
    senderName: text('sender_name').notNull().default(''),
    subject: text('subject').notNull().default(''),
    /** Sanitised HTML of the new text of the reply. */
    body: text('body').notNull(),
    /** Whether our gateway authenticated the sender's domain (DMARC or DKIM pass). */
    senderVerified: boolean('sender_verified').notNull(),
    reason: text('reason', { enum: MAIL_QUARANTINE_REASONS }).notNull(),
    /** Names of the message's attachments (the files stay inside the stored message). */
    attachmentNames: text('attachment_names')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Storage key of the raw message, re-read when an analyst releases it. */
    rawKey: text('raw_key').notNull(),
    mailMessageId: text('mail_message_id'),
    received: timestamp('received', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('mail_quarantine_received_idx').on(t.received),
    index('mail_quarantine_incident_idx').on(t.incidentId),
    uniqueIndex('mail_quarantine_message_uq')
      .on(t.incidentId, t.mailMessageId)
      .where(sql`${t.mailMessageId} IS NOT NULL`),
  ],
);
