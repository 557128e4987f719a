import type { IocFeedBundle } from '@soc/contracts';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { authStore } from '@/shared/api/authStore.ts';
import { i18n } from '@/shared/i18n/i18n.ts';
import type { MockRequest, MockResponse } from '../../../test/fetchMock.ts';
import { mockFetch } from '../../../test/fetchMock.ts';
import { baseRoutes } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/renderApp.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';

const bundle = (n: number): IocFeedBundle => ({
  type: 'bundle',
  id: 'bundle--8b0f6e0a-3f3c-5a55-9c3e-0d7e7a3a1b11',
  objects: Array.from({ length: n }, (_, i) => ({
    id: `indicator--0b7f6e0a-3f3c-5a55-9c3e-0d7e7a3a1b${String(10 + i)}`,
    name: `ipv4: 203.0.113.${i}`,
    pattern: `[ipv4-addr:value = '203.0.113.${i}']`,
    labels: ['ipv4'],
    valid_from: '2026-11-01T00:00:00.000Z',
    x_soc_system_id: 1,
    x_soc_incident_count: 2,
  })),
});

function openWith(answer: MockResponse, path = '/profile/ioc-feed') {
  const requests: MockRequest[] = [];
  authStore.setTokens({ access: makeAccessToken(), refresh: 'r1' });
  mockFetch(
    baseRoutes({
      'GET /api/v0/soc/iocs/feed/': (request) => {
        requests.push(request);
        return answer;
      },
    }),
  );
  renderApp(path);
  return requests;
}

afterEach(async () => {
  localStorage.clear();
  await i18n.changeLanguage('en');
});

describe('IocFeedPage', () => {
  it('shows the URL of each format with the filters of the page, and a preview', async () => {
    openWith({ body: bundle(2) }, '/profile/ioc-feed?ioc_type__in=ipv4&status__in=closed');
    const preview = await screen.findByTestId('ioc-feed-preview', {}, { timeout: 15_000 });
    expect(within(preview).getByText("[ipv4-addr:value = '203.0.113.1']")).toBeInTheDocument();
    const origin = window.location.origin;
    expect(screen.getByTestId('ioc-feed-url-txt')).toHaveTextContent(
      `${origin}/api/v0/soc/iocs/feed/?format=txt&ioc_type__in=ipv4&status__in=closed`,
    );
    expect(screen.getByTestId('ioc-feed-url-stix')).toHaveTextContent('format=stix&ioc_type__in=ipv4');
    expect(screen.getByTestId('ioc-feed-curl')).toHaveTextContent(
      `curl -sf -H "Authorization: Bearer <your token>" "${origin}/api/v0/soc/iocs/feed/?format=txt&ioc_type__in=ipv4&status__in=closed"`,
    );
  });

  it('asks the preview with the filters, the STIX format and a small page', async () => {
    const requests = openWith({ body: bundle(1) }, '/profile/ioc-feed?ioc_type__in=fqdn');
    await screen.findByTestId('ioc-feed-preview');
    const url = requests[0]!.url;
    expect(Object.fromEntries(url.searchParams)).toEqual({
      ioc_type__in: 'fqdn',
      format: 'stix',
      limit: '20',
    });
  });

  it('says when no IOC matches', async () => {
    openWith({ body: bundle(0) });
    expect(await screen.findByTestId('ioc-feed-preview-empty')).toHaveTextContent(
      'No IOCs match these filters yet',
    );
  });

  it('shows an error with a retry when the preview fails, in Russian too', async () => {
    await i18n.changeLanguage('ru');
    openWith({ status: 500, body: { detail: 'boom' } });
    expect(await screen.findByTestId('ioc-feed-preview-error')).toHaveTextContent('Не удалось загрузить фид');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Фид IOC');
  });
});
