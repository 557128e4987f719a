import type { IncidentStatus, Language, TaskStatus, WebhookFormat } from '@soc/contracts';
import { INCIDENT_STATUS_TITLES, WEBHOOK_TEST_EVENT } from '@soc/contracts';
import { msg } from '../../lib/messages.ts';

/** The generic message (Standard Webhooks' recommended shape): what every format is made from. */
export interface WebhookMessage {
  type: string;
  /** ISO 8601. */
  timestamp: string;
  data: WebhookData;
}

export interface WebhookData {
  system: { id: number; is_id: string; name: string };
  incident?: {
    key: number;
    summary?: string;
    status?: IncidentStatus;
    priority?: string;
    url: string;
    [field: string]: unknown;
  };
  comment?: { id: number; author: string; text: string; from_soc: boolean; created: string };
  report?: { id: number; name: string; url: string };
  task?: { id: number; subject: string; status: TaskStatus; url: string; [field: string]: unknown };
  changed_fields?: string[];
  previous_status?: string | null;
  message?: string;
}

/** A short text of the message for chat formats, in `lang`, with the portal link if any. */
export function summaryOf(
  m: WebhookMessage,
  lang: Language,
): { title: string; body: string; url: string | null } {
  const d = m.data;
  const system = `${d.system.is_id} ${d.system.name}`;
  const inc = d.incident;
  switch (m.type) {
    case 'incident.created':
      return {
        title: msg('webhookIncidentCreated', inc!.key, inc!.summary ?? '').in(lang),
        body: `${system} · ${inc!.priority ?? ''} · ${inc!.status ? INCIDENT_STATUS_TITLES[lang][inc!.status] : ''}`,
        url: inc!.url,
      };
    case 'incident.updated':
      return {
        title: msg('webhookIncidentUpdated', inc!.key, (d.changed_fields ?? []).join(', ')).in(lang),
        body: `${system} · ${inc!.summary ?? ''}`,
        url: inc!.url,
      };
    case 'incident.status_changed':
      return {
        title: msg(
          'webhookIncidentStatus',
          inc!.key,
          (d.previous_status as IncidentStatus | null) ?? null,
          inc!.status!,
        ).in(lang),
        body: `${system} · ${inc!.summary ?? ''}`,
        url: inc!.url,
      };
    case 'comment.created':
      return {
        title: msg('webhookCommentCreated', inc!.key, d.comment!.author).in(lang),
        body: d.comment!.text.slice(0, 1000),
        url: inc!.url,
      };
    case 'report.ready':
      return { title: msg('webhookReportReady', d.report!.name).in(lang), body: system, url: d.report!.url };
    case 'task.updated':
      return {
        title: msg('webhookTaskUpdated', d.task!.id, d.task!.subject, d.task!.status).in(lang),
        body: system,
        url: d.task!.url,
      };
    case WEBHOOK_TEST_EVENT:
    default:
      return { title: msg('webhookTestText').in(lang), body: system, url: null };
  }
}

/**
 * JSON with every object's keys in order: the body of a message is the same at every attempt and
 * "send again", whatever order the stored copy (jsonb) keeps them in.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** Telegram's and Slack's markup would read these as formatting. */
const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeSlack = escapeHtml;

/**
 * The body of a delivery in the endpoint's format: the generic message as it is, a Slack
 * incoming-webhook message with blocks, a Teams Adaptive Card, or a Telegram `sendMessage` call.
 */
export function renderBody(
  m: WebhookMessage,
  endpoint: { format: WebhookFormat; language: Language; telegramChatId: string },
): string {
  if (endpoint.format === 'generic') return canonicalJson(m);
  const lang = endpoint.language;
  const s = summaryOf(m, lang);
  const open = msg('webhookOpen').in(lang);
  switch (endpoint.format) {
    case 'slack':
      return JSON.stringify({
        text: s.title,
        blocks: [
          { type: 'header', text: { type: 'plain_text', text: s.title.slice(0, 150) } },
          { type: 'section', text: { type: 'mrkdwn', text: escapeSlack(s.body) || ' ' } },
          ...(s.url
            ? [
                {
                  type: 'actions',
                  elements: [{ type: 'button', text: { type: 'plain_text', text: open }, url: s.url }],
                },
              ]
            : []),
        ],
      });
    case 'teams':
      return JSON.stringify({
        type: 'message',
        attachments: [
          {
            contentType: 'application/vnd.microsoft.card.adaptive',
            contentUrl: null,
            content: {
              $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
              type: 'AdaptiveCard',
              version: '1.4',
              body: [
                { type: 'TextBlock', text: s.title, weight: 'Bolder', size: 'Medium', wrap: true },
                { type: 'TextBlock', text: s.body, wrap: true },
              ],
              actions: s.url ? [{ type: 'Action.OpenUrl', title: open, url: s.url }] : [],
            },
          },
        ],
      });
    case 'telegram':
      return JSON.stringify({
        chat_id: endpoint.telegramChatId,
        text: `<b>${escapeHtml(s.title)}</b>\n${escapeHtml(s.body)}${s.url ? `\n${escapeHtml(s.url)}` : ''}`,
        parse_mode: 'HTML',
        disable_web_page_preview: true,
      });
  }
}
