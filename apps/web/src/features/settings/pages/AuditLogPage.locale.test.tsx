import type { AuditEntry } from '@soc/contracts';
import { getDefaultNormalizer, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { authStore } from '@/shared/api/authStore.ts';
import { i18n, loadLanguage } from '@/shared/i18n/i18n.ts';
import { mockFetch } from '../../../test/fetchMock.ts';
import { baseRoutes } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/renderApp.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';

// noon UTC is the same day in every zone the test machine may be in; the zone's name follows it
const NOON_25_NOV = Date.UTC(2026, 10, 25, 12, 0);
const ZONE = String.raw`(UTC|GMT[+-]\d{1,2}(:\d\d)?)`;

const revoke: AuditEntry = {
  id: 1,
  at: NOON_25_NOV,
  user: { id: 7, username: 'ivanov', full_name: 'Olga Petrova', role: 'customer' },
  action: 'token.revoke',
  object_type: 'service_token',
  object_id: '4',
  object_name: 'CI pipeline',
  ip: '',
  user_agent: '',
};

async function openPage(language: 'en' | 'ru') {
  await i18n.changeLanguage(language);
  authStore.setTokens({ access: makeAccessToken(), refresh: 'r1' });
  mockFetch(
    baseRoutes({
      'GET /api/v0/audit/': { body: { total: 7500, next: null, previous: null, results: [revoke] } },
    }),
  );
  renderApp('/profile/audit');
  const table = await screen.findByTestId('audit-table');
  return (await within(table).findByText('Olga Petrova')).closest('tr')!;
}

// the page and the Russian pack are lazy chunks: load them before the tests rather than in their waits
beforeAll(async () => {
  await Promise.all([import('./AuditLogPage.tsx'), loadLanguage('ru')]);
});

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('AuditLogPage numbers and dates', () => {
  it('shows the date with a four-digit year, the time zone and the total grouped, in Russian', async () => {
    const row = await openPage('ru');
    expect(row.querySelector('td')!.textContent).toMatch(
      new RegExp(String.raw`^25\.11\.2026, \d\d:\d\d ${ZONE}$`),
    );
    // a no-break space groups the thousands in Russian (kept: the default normaliser makes it a space)
    const keepSpaces = { normalizer: getDefaultNormalizer({ collapseWhitespace: false }) };
    expect(await screen.findByText(/^1-\d+ из 7\u00a0500$/, keepSpaces)).toBeInTheDocument();
  });

  it('shows the day before the month and the total with a comma, in English', async () => {
    const row = await openPage('en');
    expect(row.querySelector('td')!.textContent).toMatch(
      new RegExp(String.raw`^25 Nov 2026, \d\d:\d\d ${ZONE}$`),
    );
    expect(await screen.findByText(/^1-\d+ of 7,500$/)).toBeInTheDocument();
  });
});
