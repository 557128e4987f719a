import type { WebhookDelivery, WebhookEndpoint, WebhookEvent } from '@soc/contracts';
import { WebhookEventSchema } from '@soc/contracts';
import type { DeliveryRow } from './webhook-deliveries.repository.ts';
import type { EndpointWithSystem } from './webhook-endpoints.repository.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * A webhook URL as every answer, audit entry, mail and log line shows it: its scheme, host and
 * port, and `…` for whatever follows (credentials, path, query, fragment). The path and query of a
 * webhook URL are often its secret: the bot token of a Telegram URL, the keys of Slack and Teams
 * webhook paths, `?token=` of others. Only the receiver's requests carry the URL whole.
 */
export function maskWebhookUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '…';
  }
  const origin = `${parsed.protocol}//${parsed.host}/`;
  const rest = parsed.username || parsed.password || parsed.pathname !== '/' || parsed.search || parsed.hash;
  return rest ? `${origin}…` : origin;
}

/** An endpoint as lists show it: never its secrets, its URL masked. */
export function presentEndpoint({ endpoint: e, system }: EndpointWithSystem): WebhookEndpoint {
  return {
    id: e.id,
    system: { id: system.id, is_id: system.isId, name: system.fullName },
    url: maskWebhookUrl(e.url),
    events: e.events.filter((v): v is WebhookEvent => WebhookEventSchema.safeParse(v).success),
    format: e.format,
    active: e.active,
    description: e.description,
    language: e.language,
    telegram_chat_id: e.telegramChatId,
    previous_secret_expires_at:
      e.previousSecretExpiresAt && e.previousSecretExpiresAt > new Date()
        ? iso(e.previousSecretExpiresAt)
        : null,
    failing_since: iso(e.failingSince),
    disabled_at: iso(e.disabledAt),
    created_at: e.createdAt.toISOString(),
    updated_at: e.updatedAt.toISOString(),
  };
}

export function presentDelivery(d: DeliveryRow): WebhookDelivery {
  return {
    id: d.id,
    message_id: d.messageId,
    event: d.event,
    status: d.status,
    attempt: d.attempts,
    status_code: d.statusCode,
    duration_ms: d.durationMs,
    error: d.error,
    created_at: d.createdAt.toISOString(),
    last_attempt_at: iso(d.lastAttemptAt),
    next_attempt_at: d.status === 'pending' || d.status === 'retrying' ? iso(d.nextAttemptAt) : null,
  };
}
