import type { SigmaImportResult } from '@soc/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { PointerEventsCheckLevel } from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { authStore } from '@/shared/api/authStore.ts';
import { callsTo, mockFetch, type MockRoutes } from '../../../test/fetchMock.ts';
import { installFetchBackedXhr } from '../../../test/fakeXhr.ts';
import type { CurrentUser } from '@soc/contracts';
import { baseRoutes, staffUser } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/renderApp.tsx';
import { makeAccessToken } from '../../../test/tokens.ts';
import { makeRule } from '../test/ruleFixtures.ts';
import { importProblem } from './SigmaImportDialog.tsx';

const IMPORT = 'POST /api/v0/admin/rules/import/';
const FIRST_PAINT = { timeout: 15_000 };
const admin = { ...staffUser, permissions: [...staffUser.permissions, 'rules.import'] };

const result = (overrides: Partial<SigmaImportResult> = {}): SigmaImportResult => ({
  dry_run: true,
  files: 3,
  created: 1,
  updated: 0,
  unchanged: 0,
  skipped: [{ file: 'rules/old.yml', rule_id: '9b1c', reason: 'deprecated', message: 'status: deprecated' }],
  errors: [{ file: 'rules/broken.yml', message: 'Not YAML: bad indentation at line 3.' }],
  by_level: { high: 1 },
  by_tactic: {},
  seconds: 0.42,
  ...overrides,
});

function open(user: CurrentUser, routes: MockRoutes = {}) {
  authStore.setTokens({ access: makeAccessToken(), refresh: 'refresh-1' });
  const fetchMock = mockFetch(
    baseRoutes({
      'GET /api/v0/auth/user/': { body: user },
      'GET /api/v0/soc/rules/': { body: { total: 1, next: null, previous: null, results: [makeRule(1)] } },
      'GET /api/v0/soc/rules/analytics_counters/': {
        body: {
          count: 1,
          count_last_month: 0,
          count_is_requested: 0,
          mitre_coverage_percent: 0,
          mitre_coverage_by_platform: {},
          mitre_total_techniques_by_platforms: {},
        },
      },
      'GET /api/v0/soc/rules/coverage/': {
        body: { attack_loaded: true, attack_version: '18.1', tactics: [], techniques: [] },
      },
      ...routes,
    }),
  );
  renderApp('/docs/rules');
  return { fetchMock, user: userEvent.setup({ pointerEventsCheck: PointerEventsCheckLevel.Never }) };
}

const yaml = (name: string, size = 10) => new File(['x'.repeat(size)], name, { type: 'application/yaml' });
const fileInput = (dialog: HTMLElement) =>
  within(dialog)
    .getByTestId('sigma-import-files')
    .closest('.ant-upload')!
    .querySelector<HTMLInputElement>('input[type=file]')!;

beforeEach(() => installFetchBackedXhr());

describe('Sigma import', () => {
  it('checks the chosen files without changing anything, then shows what was refused and skipped', async () => {
    const { user, fetchMock } = open(admin, { [IMPORT]: { body: result() } });
    await user.click(await screen.findByTestId('sigma-import-open', {}, FIRST_PAINT));
    const dialog = await screen.findByTestId('sigma-import');
    // nothing chosen: said, nothing sent
    await user.click(within(dialog).getByTestId('sigma-import-send'));
    expect(await within(dialog).findByTestId('sigma-import-problem')).toHaveTextContent(
      'Choose the rule files or a folder of them.',
    );
    await user.upload(fileInput(dialog), [yaml('a.yml'), yaml('b.yaml'), yaml('notes.txt')]);
    expect(within(dialog).getByTestId('sigma-import-chosen')).toHaveTextContent('2 files');
    await user.click(within(dialog).getByLabelText('Horizon'));
    await user.click(within(dialog).getByTestId('sigma-import-send'));
    const shown = await within(dialog).findByTestId('sigma-import-result');
    expect(shown).toHaveTextContent('Checked 3 files: nothing was changed.');
    expect(within(dialog).getByTestId('sigma-import-refused')).toHaveTextContent('1');
    expect(within(dialog).getByTestId('sigma-import-errors')).toHaveTextContent(
      'Not YAML: bad indentation at line 3.',
    );
    const form = fetchMock.mock.calls.find(([input]) =>
      (input instanceof Request ? input.url : input.toString()).includes('/admin/rules/import/'),
    )![1]!.body as FormData;
    expect(form.get('dry_run')).toBe('true');
    expect(form.get('services')).toBe('Horizon');
    expect(form.get('activation')).toBe('manual');
    expect((form.getAll('files') as File[]).map((file) => file.name)).toEqual(['a.yml', 'b.yaml']);
    // the skipped tab names the reason
    await user.click(within(dialog).getByRole('tab', { name: /Skipped/ }));
    expect(await within(dialog).findByTestId('sigma-import-skipped')).toHaveTextContent('Deprecated');
  });

  it('imports for real when the check is switched off', async () => {
    const { user, fetchMock } = open(admin, {
      [IMPORT]: { body: result({ dry_run: false, errors: [], skipped: [], created: 2 }) },
    });
    await user.click(await screen.findByTestId('sigma-import-open', {}, FIRST_PAINT));
    const dialog = await screen.findByTestId('sigma-import');
    await user.upload(fileInput(dialog), [yaml('a.yml')]);
    await user.click(within(dialog).getByTestId('sigma-import-dry-run'));
    expect(within(dialog).getByTestId('sigma-import-send')).toHaveTextContent('Import');
    await user.click(within(dialog).getByTestId('sigma-import-send'));
    expect(await within(dialog).findByTestId('sigma-import-result')).toHaveTextContent(
      'Read 3 files in 0.4 s.',
    );
    expect(within(dialog).getByTestId('sigma-import-created')).toHaveTextContent('2');
    await waitFor(() => expect(callsTo(fetchMock, IMPORT)).toHaveLength(1));
  });

  it('is offered to administrators only', async () => {
    open(staffUser);
    await screen.findByTestId('rule-side-panel', {}, FIRST_PAINT);
    expect(screen.queryByTestId('sigma-import-open')).not.toBeInTheDocument();
  });

  it('refuses too many or too big a choice before sending', () => {
    expect(importProblem([])).toBe('noFiles');
    expect(importProblem([yaml('a.yml', 21_000_000)])).toBe('tooBig');
    expect(importProblem(Array.from({ length: 5001 }, (_, n) => yaml(`${n}.yml`, 1)))).toBe('tooMany');
    expect(importProblem([yaml('a.yml')])).toBeNull();
  });
});
