import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { authStore } from '@/shared/api/authStore.ts';
import { setLocale } from '@/shared/i18n/i18n.ts';
import { callsTo, mockFetch } from '../../../test/fetchMock.ts';
import { baseRoutes } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/renderApp.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';

const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const API = `/api/v0/soc/files/incidents/10042/${ID}`;

const signedIn = () => authStore.setTokens({ access: makeAccessToken(), refresh: 'r1' });

describe('file viewer', () => {
  afterEach(() => setLocale('en'));

  it('shows the name, a full progress bar and the JSON pretty-printed', async () => {
    signedIn();
    const calls = mockFetch(
      baseRoutes({
        [`GET ${API}/`]: { body: { filename: 'events.json', content_type: 'application/json', size: 17 } },
        [`GET ${API}/download/`]: { body: { host: 'dc01', n: 3 } },
      }),
    );
    renderApp(`/files/download/incidents/10042/${ID}`);
    expect(await screen.findByTestId('file-preview-json', {}, { timeout: 15_000 })).toHaveTextContent(
      '"host": "dc01"',
    );
    expect(screen.getByTestId('file-title')).toHaveTextContent('events.json');
    expect(screen.getByTestId('file-download')).toBeEnabled();
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    expect(callsTo(calls, `GET ${API}/download/`)).toHaveLength(1);
  });

  it('shows not found for an answer below 500 and for a path with download left after mapping', async () => {
    signedIn();
    mockFetch(baseRoutes({ [`GET ${API}/`]: { status: 404, body: { detail: 'Not found.' } } }));
    const { unmount } = renderApp(`/files/download/incidents/10042/${ID}`);
    expect(await screen.findByTestId('file-not-found', {}, { timeout: 15_000 })).toHaveTextContent(
      'File not found',
    );
    unmount();
    renderApp('/files/download/incidents/10042/download');
    expect(await screen.findByTestId('file-not-found', {}, { timeout: 15_000 })).toHaveTextContent(
      'File not found',
    );
  });

  it('shows the server error text in Russian for a 5xx answer, with back and go-to-main buttons', async () => {
    await setLocale('ru');
    signedIn();
    mockFetch(baseRoutes({ [`GET ${API}/`]: { status: 502, body: { detail: 'Bad gateway' } } }));
    renderApp(`/files/download/incidents/10042/${ID}`);
    const screenError = await screen.findByTestId('file-error', {}, { timeout: 15_000 });
    expect(screenError).toHaveTextContent('При обращении к серверу произошла ошибка');
    expect(screen.getByTestId('file-back')).toHaveTextContent('Назад');
    expect(screen.getByTestId('file-to-main')).toHaveTextContent('На главную');
  });
});
