import { describe, expect, it } from 'vitest';
import { WEBHOOK_MESSAGES, WebhookEndpointCreateSchema } from './webhooks.schemas.ts';

const base = { system: 1, url: 'https://siem.example.com/hook', events: ['incident.created'] };
const errorsOf = (input: unknown) =>
  WebhookEndpointCreateSchema.safeParse(input).error?.issues.map((i) => [i.path.join('.'), i.message]) ?? [];

describe('WebhookEndpointCreateSchema', () => {
  it('takes an http(s) URL and fills the defaults', () => {
    expect(WebhookEndpointCreateSchema.parse(base)).toMatchObject({
      format: 'generic',
      active: true,
      language: 'ru',
      telegram_chat_id: '',
    });
  });

  it('refuses other schemes, credentials, no events and unknown events', () => {
    expect(errorsOf({ ...base, url: 'file:///etc/passwd' })).toContainEqual([
      'url',
      WEBHOOK_MESSAGES.urlInvalid,
    ]);
    expect(errorsOf({ ...base, url: 'https://u:p@example.com/' })).toContainEqual([
      'url',
      WEBHOOK_MESSAGES.urlCredentials,
    ]);
    expect(errorsOf({ ...base, events: [] })).toContainEqual(['events', WEBHOOK_MESSAGES.eventsRequired]);
    expect(errorsOf({ ...base, events: ['incident.deleted'] }).length).toBeGreaterThan(0);
    expect(errorsOf({ ...base, secret: 'mine' }).length).toBeGreaterThan(0);
  });

  it('needs a chat id for Telegram and drops repeated events', () => {
    expect(errorsOf({ ...base, format: 'telegram' })).toContainEqual([
      'telegram_chat_id',
      WEBHOOK_MESSAGES.chatIdRequired,
    ]);
    expect(
      WebhookEndpointCreateSchema.parse({
        ...base,
        format: 'telegram',
        telegram_chat_id: '-100123',
        events: ['report.ready', 'report.ready'],
      }).events,
    ).toEqual(['report.ready']);
  });
});
