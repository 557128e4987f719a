import type { WebhookDelivery, WebhookEndpoint } from '@soc/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { authStore } from '@/shared/api/authStore.ts';
import { i18n } from '@/shared/i18n/i18n.ts';
import type { MockRoutes } from '../../../test/fetchMock.ts';
import { callsTo, mockFetch } from '../../../test/fetchMock.ts';
import { baseRoutes, currentUser } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/renderApp.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';

const system = { id: 1, is_id: 'IS-0001', full_name: 'Acme' };

const endpoint = (over: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  id: 5,
  system: { id: 1, is_id: 'IS-0001', name: 'Acme' },
  url: 'https://siem.example.com/hook',
  events: ['incident.created'],
  format: 'generic',
  active: true,
  description: 'SIEM',
  language: 'en',
  telegram_chat_id: '',
  previous_secret_expires_at: null,
  failing_since: null,
  disabled_at: null,
  created_at: '2026-11-25T10:00:00Z',
  updated_at: '2026-11-25T10:00:00Z',
  ...over,
});

const delivery: WebhookDelivery = {
  id: 9,
  message_id: 'msg_1',
  event: 'webhook.test',
  status: 'succeeded',
  attempt: 1,
  status_code: 200,
  duration_ms: 42,
  error: null,
  created_at: '2026-11-25T10:00:00Z',
  last_attempt_at: '2026-11-25T10:00:01Z',
  next_attempt_at: null,
};

const page = (results: unknown[]) => ({
  body: { total: results.length, next: null, previous: null, results },
});

async function open(routes: MockRoutes, permissions = ['incidents.view', 'webhooks.manage']) {
  authStore.setTokens({ access: makeAccessToken(), refresh: 'r1' });
  const fetchMock = mockFetch(
    baseRoutes({
      'GET /api/v0/auth/user/': { body: { ...currentUser, permissions } },
      'GET /api/v0/soc/systems/': page([system]),
      ...routes,
    }),
  );
  renderApp('/webhooks');
  // the page is a lazy chunk: its first load in a busy run takes longer than a query's wait
  await screen.findByTestId('webhooks-page', {}, { timeout: 30_000 });
  return fetchMock;
}

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('WebhooksPage', () => {
  it('lists the endpoints with their state, in English and in Russian', async () => {
    await open({ 'GET /api/v0/soc/webhooks/': page([endpoint(), endpoint({ id: 6, active: false })]) });
    const table = await screen.findByTestId('webhooks-table');
    expect(await within(table).findByTestId('webhook-url-5')).toHaveTextContent(
      'https://siem.example.com/hook',
    );
    expect(within(table).getByText('On')).toBeInTheDocument();
    expect(within(table).getByText('Off')).toBeInTheDocument();
    await i18n.changeLanguage('ru');
    expect(await within(table).findByText('Выключен')).toBeInTheDocument();
  });

  it('says when there are no endpoints', async () => {
    await open({ 'GET /api/v0/soc/webhooks/': page([]) });
    const table = await screen.findByTestId('webhooks-table');
    await waitFor(() => expect(table).toHaveTextContent('No endpoints yet'));
  });

  it('shows a load failure with a retry', async () => {
    await open({ 'GET /api/v0/soc/webhooks/': { status: 500, body: { detail: 'boom' } } });
    expect(await screen.findByTestId('webhooks-error')).toHaveTextContent('Could not load the endpoints');
  });

  it('adds an endpoint, shows its secret once, and puts the server’s field errors under the fields', async () => {
    let attempt = 0;
    const fetchMock = await open({
      'GET /api/v0/soc/webhooks/': page([]),
      'POST /api/v0/soc/webhooks/': () =>
        attempt++ === 0
          ? { status: 400, body: { url: ['This address is private'] } }
          : { status: 201, body: { ...endpoint(), secret: 'whsec_c2VjcmV0' } },
    });
    const add = await screen.findByTestId('webhook-add');
    // enabled once the user's systems have loaded
    await waitFor(() => expect(add).toBeEnabled());
    fireEvent.click(add);
    fireEvent.change(await screen.findByTestId('webhook-url'), { target: { value: 'http://10.0.0.1/' } });
    fireEvent.click(screen.getByTestId('webhook-save'));
    expect(await screen.findByText('This address is private')).toBeInTheDocument();

    fireEvent.change(screen.getByTestId('webhook-url'), {
      target: { value: 'https://siem.example.com/hook' },
    });
    fireEvent.click(screen.getByTestId('webhook-save'));
    const secret = await screen.findByTestId('webhook-secret');
    expect(secret).toHaveTextContent('whsec_c2VjcmV0');
    const sent = callsTo(fetchMock, 'POST /api/v0/soc/webhooks/');
    expect(sent[1]!.body).toMatchObject({
      system: 1,
      url: 'https://siem.example.com/hook',
      events: ['incident.created'],
      format: 'generic',
    });
    fireEvent.click(screen.getByTestId('webhook-secret-done'));
    await waitFor(() => expect(screen.queryByTestId('webhook-secret')).not.toBeInTheDocument());
  });

  it('opens the delivery log, sends a test event and sends a delivery again', async () => {
    const fetchMock = await open({
      'GET /api/v0/soc/webhooks/': page([endpoint()]),
      'GET /api/v0/soc/webhooks/5/deliveries/': page([delivery]),
      'POST /api/v0/soc/webhooks/5/test/': { status: 202, body: { ...delivery, id: 10, status: 'pending' } },
      'POST /api/v0/soc/webhooks/5/deliveries/9/resend/': { status: 202, body: { ...delivery, id: 11 } },
    });
    fireEvent.click(await screen.findByTestId('webhook-log-5'));
    const log = await screen.findByTestId('webhook-log');
    expect(await within(log).findByText('Delivered')).toBeInTheDocument();
    expect(within(log).getByText('Test event')).toBeInTheDocument();
    expect(within(log).getByText('42 ms')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('webhook-send-test'));
    await waitFor(() => expect(callsTo(fetchMock, 'POST /api/v0/soc/webhooks/5/test/')).toHaveLength(1));
    fireEvent.click(screen.getByTestId('delivery-resend-9'));
    await waitFor(() =>
      expect(callsTo(fetchMock, 'POST /api/v0/soc/webhooks/5/deliveries/9/resend/')).toHaveLength(1),
    );
  });

  it('is offered in the profile menu only to users who may manage webhooks', async () => {
    await open({ 'GET /api/v0/soc/webhooks/': page([]) }, ['incidents.view']);
    fireEvent.click(await screen.findByTestId('profile-menu'));
    await screen.findByTestId('profile-audit');
    expect(screen.queryByTestId('profile-webhooks')).not.toBeInTheDocument();
  });
});
