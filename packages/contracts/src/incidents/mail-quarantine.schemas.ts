import { z } from 'zod';
import { pageOf } from '../common/lists.schemas.ts';
import { searchText } from '../common/query.ts';

/**
 * Why a reply to incident mail was quarantined instead of posted (issue 25 item 4):
 * the gateway did not authenticate the sender's domain; the sender is authenticated but is not a
 * user of the incident's system; the sender claims the national centre's domain unauthenticated.
 */
export const MAIL_QUARANTINE_REASONS = [
  'unverified_sender',
  'not_a_user',
  'unverified_national_centre',
] as const;
export const MailQuarantineReasonSchema = z.enum(MAIL_QUARANTINE_REASONS);
export type MailQuarantineReason = z.infer<typeof MailQuarantineReasonSchema>;

/** A quarantined mail in the analysts' list. */
export const MailQuarantineItemSchema = z.object({
  id: z.number().int(),
  /** Key of the incident the mail answers. */
  incident: z.number().int(),
  /** Code of the incident's system, e.g. `IS-0001`. */
  system: z.string(),
  /** The From address as the message states it (not authenticated unless `sender_verified`). */
  sender: z.string(),
  sender_name: z.string(),
  subject: z.string(),
  reason: MailQuarantineReasonSchema,
  /** The gateway authenticated the sender's domain (DMARC or DKIM pass). */
  sender_verified: z.boolean(),
  /** Millisecond timestamp. */
  received: z.number().int(),
  attachments: z.array(z.string()),
});
export type MailQuarantineItem = z.infer<typeof MailQuarantineItemSchema>;

/** One quarantined mail with its text. */
export const MailQuarantineDetailSchema = MailQuarantineItemSchema.extend({
  /** Sanitised HTML of the reply's new text. */
  body: z.string(),
});
export type MailQuarantineDetail = z.infer<typeof MailQuarantineDetailSchema>;

export const MailQuarantineQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(50),
  /** Only mails about this incident (its key). */
  incident: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  /** Part of the sender's address or name, trimmed. */
  sender: searchText.optional(),
});
export type MailQuarantineQuery = z.infer<typeof MailQuarantineQuerySchema>;
export const MailQuarantinePageSchema = pageOf(MailQuarantineItemSchema);

/** POST …/release/: the comment the mail became (an outside, unverified comment). */
export const MailQuarantineReleasedSchema = z.object({
  comment_id: z.number().int(),
  incident: z.number().int(),
});
export type MailQuarantineReleased = z.infer<typeof MailQuarantineReleasedSchema>;
