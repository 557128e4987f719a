import { z } from 'zod';
import { pageOf } from '../common/lists.schemas.ts';

/** Events an endpoint may subscribe to (issue 29 part 2). */
export const WEBHOOK_EVENTS = [
  'incident.created',
  'incident.updated',
  'incident.status_changed',
  'comment.created',
  'report.ready',
  'task.updated',
] as const;
export const WebhookEventSchema = z.enum(WEBHOOK_EVENTS);
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;

/** The event a "send test event" delivery carries (never subscribed to). */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/**
 * How a delivery's body is shaped: `generic` JSON signed by the Standard Webhooks
 * specification, a Slack incoming webhook (blocks), a Microsoft Teams Adaptive Card, or a
 * Telegram bot `sendMessage` call.
 */
export const WEBHOOK_FORMATS = ['generic', 'slack', 'teams', 'telegram'] as const;
export const WebhookFormatSchema = z.enum(WEBHOOK_FORMATS);
export type WebhookFormat = z.infer<typeof WebhookFormatSchema>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'retrying', 'succeeded', 'failed'] as const;
export const WebhookDeliveryStatusSchema = z.enum(WEBHOOK_DELIVERY_STATUSES);
export type WebhookDeliveryStatus = z.infer<typeof WebhookDeliveryStatusSchema>;

/** Endpoints one system may have. */
export const WEBHOOK_ENDPOINTS_MAX_PER_SYSTEM = 20;
export const WEBHOOK_URL_MAX = 2000;
export const WEBHOOK_DESCRIPTION_MAX = 200;
export const WEBHOOK_DELIVERIES_PAGE_SIZE = 20;
export const WEBHOOK_ENDPOINTS_PAGE_SIZE = 50;
/** Every Standard Webhooks secret starts with this. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** How long the previous secret still signs after a rotation. */
export const WEBHOOK_ROTATION_OVERLAP_HOURS = 24;
/** Failed deliveries are retried this long. */
export const WEBHOOK_RETRY_HOURS = 24;
/** An endpoint that has failed without a success for this long is turned off. */
export const WEBHOOK_DISABLE_AFTER_DAYS = 3;

/** Client-side texts of the validation rules (the server answers them in ru or en). */
export const WEBHOOK_MESSAGES = {
  urlInvalid: 'Enter an http(s) URL.',
  urlCredentials: 'A URL may not carry a user name or password.',
  eventsRequired: 'Choose at least one event.',
  chatIdRequired: 'Telegram needs a chat id.',
} as const;

const url = z
  .string()
  .trim()
  .min(1, { error: WEBHOOK_MESSAGES.urlInvalid })
  .max(WEBHOOK_URL_MAX)
  .refine(
    (v) => {
      try {
        const u = new URL(v);
        return u.protocol === 'http:' || u.protocol === 'https:';
      } catch {
        return false;
      }
    },
    { error: WEBHOOK_MESSAGES.urlInvalid },
  )
  .refine(
    (v) => {
      try {
        const u = new URL(v);
        return !u.username && !u.password;
      } catch {
        return true;
      }
    },
    { error: WEBHOOK_MESSAGES.urlCredentials },
  );

const events = z
  .array(WebhookEventSchema)
  .min(1, { error: WEBHOOK_MESSAGES.eventsRequired })
  .max(WEBHOOK_EVENTS.length)
  .transform((list) => [...new Set(list)]);

const telegramChatId = z
  .string()
  .trim()
  .max(64)
  .regex(/^(-?\d{1,20}|@[A-Za-z0-9_]{5,32})?$/);

/** POST /soc/webhooks/: a new endpoint of `system`. */
export const WebhookEndpointCreateSchema = z
  .strictObject({
    system: z.number().int().positive(),
    url,
    events,
    format: WebhookFormatSchema.default('generic'),
    active: z.boolean().default(true),
    description: z.string().trim().max(WEBHOOK_DESCRIPTION_MAX).default(''),
    /** Language of the Slack, Teams and Telegram texts. */
    language: z.enum(['ru', 'en']).default('ru'),
    /** The chat a Telegram bot writes to (numeric id or @channel). */
    telegram_chat_id: telegramChatId.default(''),
  })
  .refine((v) => v.format !== 'telegram' || v.telegram_chat_id, {
    error: WEBHOOK_MESSAGES.chatIdRequired,
    path: ['telegram_chat_id'],
  });
export type WebhookEndpointCreate = z.input<typeof WebhookEndpointCreateSchema>;

/** PATCH /soc/webhooks/{id}/: any of the fields; the system never changes. */
export const WebhookEndpointUpdateSchema = z.strictObject({
  /** A new URL; the masked one the answers show (or none) keeps the URL as it is. */
  url: url.optional(),
  events: events.optional(),
  format: WebhookFormatSchema.optional(),
  active: z.boolean().optional(),
  description: z.string().trim().max(WEBHOOK_DESCRIPTION_MAX).optional(),
  language: z.enum(['ru', 'en']).optional(),
  telegram_chat_id: telegramChatId.optional(),
});
export type WebhookEndpointUpdate = z.input<typeof WebhookEndpointUpdateSchema>;

/** An endpoint as lists show it: never its secret. */
export const WebhookEndpointSchema = z.object({
  id: z.number().int(),
  system: z.object({ id: z.number().int(), is_id: z.string(), name: z.string() }),
  /**
   * The URL masked, in every answer (the create's too): scheme, host and port, then `…` for the
   * path, query and credentials, which often are the secret (`https://api.telegram.org/…`).
   */
  url: z.string(),
  events: z.array(WebhookEventSchema),
  format: WebhookFormatSchema,
  active: z.boolean(),
  description: z.string(),
  language: z.enum(['ru', 'en']),
  telegram_chat_id: z.string(),
  /** Until when the previous secret still signs (after a rotation); ISO 8601 or null. */
  previous_secret_expires_at: z.string().nullable(),
  /** Since when deliveries fail without a success; null while healthy. */
  failing_since: z.string().nullable(),
  /** Set when the portal turned the endpoint off after days of failures. */
  disabled_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;

/** The answer of a create or a rotation: the only time the secret is shown. */
export const WebhookEndpointWithSecretSchema = WebhookEndpointSchema.extend({
  /** `whsec_…`: the key of the `webhook-signature` HMAC-SHA256; it cannot be shown again. */
  secret: z.string(),
});
export type WebhookEndpointWithSecret = z.infer<typeof WebhookEndpointWithSecretSchema>;

export const WebhookEndpointPageSchema = pageOf(WebhookEndpointSchema);
export type WebhookEndpointPage = z.infer<typeof WebhookEndpointPageSchema>;

export const WebhookEndpointListQuerySchema = z.strictObject({
  system: z.coerce.number().int().positive().optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(WEBHOOK_ENDPOINTS_PAGE_SIZE),
});
export type WebhookEndpointListQuery = z.input<typeof WebhookEndpointListQuerySchema>;

/** One line of an endpoint's delivery log: the latest attempt of a delivery. */
export const WebhookDeliverySchema = z.object({
  id: z.number().int(),
  /** The `webhook-id`: the same for every attempt, so receivers can drop duplicates. */
  message_id: z.string(),
  event: z.string(),
  status: WebhookDeliveryStatusSchema,
  /** Attempts made so far. */
  attempt: z.number().int(),
  status_code: z.number().int().nullable(),
  duration_ms: z.number().int().nullable(),
  /** Why the last attempt failed (network error, refused address…); null on success. */
  error: z.string().nullable(),
  created_at: z.string(),
  last_attempt_at: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

export const WebhookDeliveryPageSchema = pageOf(WebhookDeliverySchema);
export type WebhookDeliveryPage = z.infer<typeof WebhookDeliveryPageSchema>;

export const WebhookDeliveryListQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(WEBHOOK_DELIVERIES_PAGE_SIZE),
});
export type WebhookDeliveryListQuery = z.input<typeof WebhookDeliveryListQuerySchema>;
