import { act, screen, waitFor, within } from '@testing-library/react';
import { i18n } from '@/shared/i18n/i18n.ts';
import { describe, expect, it } from 'vitest';
import { callsTo, settle } from '../../../test/fetchMock.ts';
import { currentUser } from '../../../test/fixtures.ts';
import {
  ACTIONS,
  ALERTS,
  CARD,
  COMMENTS,
  KEY,
  commentsPage,
  makeCard,
  makeComment,
  openIncident,
} from '../test/incidentCardFixtures.ts';
import { makeRule } from '../../rules/test/ruleFixtures.ts';

const RULES = 'GET /api/v0/soc/rules/';

/** The text of the toasts on screen. */
const toastTexts = () =>
  [...document.querySelectorAll('.ant-notification-notice')].map((notice) => notice.textContent ?? '');

/** Opens the incident at `path` and returns the name of its selected tab once all have loaded. */
async function selectedTabAt(path: string): Promise<string | null> {
  const { fetchMock } = openIncident({}, path);
  await screen.findByTestId('incident-main-info');
  await waitFor(() => expect(callsTo(fetchMock, ALERTS)).toHaveLength(1));
  await settle();
  return screen.getByRole('tab', { selected: true }).textContent;
}

describe('incident page: card', () => {
  it('shows breadcrumbs, title, main info, details and the tabs', async () => {
    openIncident();
    const page = await screen.findByTestId('incident-page');
    await within(page).findByTestId('incident-main-info');

    const crumbs = screen.getByTestId('incident-breadcrumbs');
    expect(within(crumbs).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(within(crumbs).getByRole('link', { name: 'Incidents' })).toHaveAttribute('href', '/incidents');
    expect(crumbs).toHaveTextContent(String(KEY));
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(
      `${KEY}: Beaconing to a known C2 server`,
    );
    await waitFor(() => expect(document.title).toBe(`Incident ${KEY} | Acme SOC`));

    const main = screen.getByTestId('incident-main-info');
    expect(within(main).getByTestId('incident-status')).toHaveTextContent('Waiting for customer');
    expect(main).toHaveTextContent('IS-0001 · Main office');
    expect(main).toHaveTextContent('Malware');

    // The description is the server's sanitised HTML, rendered as markup.
    const description = screen.getByTestId('incident-description');
    expect(within(description).getByText('ws-17').tagName).toBe('STRONG');
    expect(screen.getByTestId('incident-recommendations')).toHaveTextContent('Isolate the host.');
    expect(screen.getByTestId('incident-mitre')).toHaveTextContent('T1071.001');

    // The incident has no alerts (an empty first page); IOCs are enabled because it has one.
    const alertsTab = screen.getByTestId('incident-tab-alerts').closest('[role="tab"]');
    expect(alertsTab).toHaveAttribute('aria-disabled', 'true');
    const iocsTab = screen.getByTestId('incident-tab-iocs').closest('[role="tab"]');
    expect(iocsTab).toHaveAttribute('aria-disabled', 'false');
    // Misconfigurations show only for Remediation.
    expect(screen.queryByTestId('incident-tab-misconfigs')).not.toBeInTheDocument();
  });

  it('names the outcome of an incident the SOC completed, which has a date but no resolution kind', async () => {
    const resolved = Date.UTC(2026, 10, 25, 11, 9);
    openIncident({
      [CARD]: { body: makeCard({ status: 'completed', resolution: null, resolutiondate: resolved }) },
    });
    const details = await screen.findByTestId('incident-resolution');
    expect(details).toHaveTextContent('Completed by the SOC, 25 Nov 2026');
    expect(screen.queryByText('Not resolved yet')).not.toBeInTheDocument();
    const more = screen.getByTestId('incident-more-info');
    expect(more).toHaveTextContent('ResolutionCompleted by the SOC, 25 Nov 2026');
  });

  it('names the tactics of the MITRE block in the interface language without loading the matrix', async () => {
    const { fetchMock } = openIncident({
      [CARD]: {
        body: makeCard({ mitre_cov: { 'command-and-control': ['T1071.001'], 'x-custom': ['T9999'] } }),
      },
    });
    const block = await screen.findByTestId('incident-mitre');
    const [known, unknown] = within(block).getAllByTestId('incident-mitre-tactic');
    expect(known).toHaveTextContent('Command and Control');
    expect(known).not.toHaveTextContent('command-and-control');
    expect(known).toHaveTextContent('T1071.001');
    expect(unknown).toHaveTextContent('x-custom');
    await act(() => i18n.changeLanguage('ru'));
    await waitFor(() => expect(known).toHaveTextContent('Управление и контроль'));
    await settle();
    expect(callsTo(fetchMock, 'GET /api/v0/soc/mitre_matrix/')).toHaveLength(0);
  });

  it('disables the IOC tab when the incident has none and offers misconfigurations for Remediation', async () => {
    openIncident({
      [CARD]: {
        body: makeCard({
          observed_iocs: [],
          issuetype_ref: { id: 2, title: 'Remediation', code: 'remediation' },
        }),
      },
    });
    await screen.findByTestId('incident-main-info');
    expect(screen.getByTestId('incident-tab-iocs').closest('[role="tab"]')).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    expect(screen.getByTestId('incident-tab-misconfigs')).toBeInTheDocument();
  });

  it('shows the load-failure toast and returns to the list when the incident cannot be loaded', async () => {
    const { router } = openIncident({ [CARD]: { status: 404, body: { detail: 'Not found.' } } });
    await waitFor(() => expect(router.state.location.pathname).toBe('/incidents'));
    await waitFor(() =>
      expect(toastTexts().some((text) => text.includes('Fetching incident: error'))).toBe(true),
    );
  });

  it('returns to the list for a path that is not an incident number', async () => {
    const { router } = openIncident({}, '/inc/abc');
    await waitFor(() => expect(router.state.location.pathname).toBe('/incidents'));
  });

  it('offers only the available actions', async () => {
    openIncident();
    const actions = await screen.findByTestId('incident-actions');
    expect(within(actions).getByTestId('action-confirm')).toHaveTextContent('Confirm');
    expect(within(actions).getByTestId('action-close')).toHaveTextContent('Close');
    expect(within(actions).queryByTestId('action-reopen')).not.toBeInTheDocument();
  });

  it('shows a dash instead of actions when the server lists none', async () => {
    openIncident({ [ACTIONS]: { body: { results: [] } } });
    expect(await screen.findByTestId('actions-none')).toHaveTextContent('—');
    expect(screen.queryByTestId('incident-actions')).not.toBeInTheDocument();
  });

  it("shows 'No comments' when the chat is empty", async () => {
    openIncident();
    expect(await screen.findByTestId('comments-empty')).toHaveTextContent('No comments');
  });

  it('lists comments with source icons and filters them by the search text', async () => {
    const { user } = openIncident({
      [COMMENTS]: {
        body: commentsPage([
          makeComment(1, { body: '<p>Isolated the <b>host</b></p>', author: 'Ivan Ivanov', source: 'API' }),
          makeComment(2, {
            body: '<p>Reply by mail</p>',
            author: 'Petr Petrov',
            source: 'Email by authorized user',
          }),
          makeComment(3, {
            body: '<p>Who are you?</p>',
            author: 'unknown@example.net',
            source: 'Email by unauthorized user',
          }),
        ]),
      },
    });
    await waitFor(() => expect(screen.getAllByTestId('comment')).toHaveLength(3));
    const sources = screen.getAllByTestId('comment-source').map((icon) => icon.getAttribute('aria-label'));
    expect(sources).toEqual([
      'Web or API',
      'E-mail from an authorised user',
      'E-mail from an unverified sender',
    ]);
    // only the unverified outside mail carries the warning, in words and not just an icon
    const warnings = screen.getAllByTestId('comment-unverified-warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toHaveTextContent('could not be verified and may be forged');
    expect(screen.getAllByTestId('comment')[2]).toContainElement(warnings[0]!);
    await user.type(screen.getByPlaceholderText('Search comments'), '  HOST ');
    await waitFor(() => expect(screen.getAllByTestId('comment')).toHaveLength(1));
    expect(screen.getByTestId('comment')).toHaveTextContent('Isolated the host');
    await user.clear(screen.getByPlaceholderText('Search comments'));
    await user.type(screen.getByPlaceholderText('Search comments'), 'nothing like it');
    expect(await screen.findByTestId('comments-empty')).toHaveTextContent('No comments match the search');
  });

  it('resizes the comments panel between 410 and 750 px, starting at 410', async () => {
    const { user } = openIncident();
    const panel = await screen.findByTestId('comments-panel');
    expect(panel).toHaveAttribute('data-width', '410');
    const resizer = screen.getByRole('separator', { name: 'Resize the comments panel' });
    resizer.focus();
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(panel).toHaveAttribute('data-width', '450');
    await user.keyboard('{End}{ArrowLeft}');
    expect(panel).toHaveAttribute('data-width', '750');
    await user.keyboard('{Home}{ArrowRight}');
    expect(panel).toHaveAttribute('data-width', '410');
  });

  it('keeps the comments panel width across reloads', async () => {
    const first = openIncident();
    const resizer = await screen.findByRole('separator', { name: 'Resize the comments panel' });
    resizer.focus();
    await first.user.keyboard('{ArrowLeft}{ArrowLeft}{ArrowLeft}');
    expect(screen.getByTestId('comments-panel')).toHaveAttribute('data-width', '470');
    first.unmount();

    openIncident();
    expect(await screen.findByTestId('comments-panel')).toHaveAttribute('data-width', '470');
  });

  it('keeps the selected tab in the URL (?tab=) so that a reload shows it again', async () => {
    const first = openIncident();
    await screen.findByTestId('incident-main-info');
    await first.user.click(screen.getByTestId('incident-tab-relations'));
    await waitFor(() => expect(first.router.state.location.search).toBe('?tab=relations'));
    first.unmount();

    expect(await selectedTabAt(`/inc/${KEY}?tab=relations`)).toBe('Relations');
  });

  it.each([
    ['unknown', 'nonsense'],
    ['unavailable (the incident has no alerts)', 'alerts'],
  ])('shows the details for an %s tab in the URL', async (_, tab) => {
    expect(await selectedTabAt(`/inc/${KEY}?tab=${tab}`)).toBe('Details');
  });

  it('lets the comment editor grow from its minimum height of 118 px', async () => {
    const { user } = openIncident();
    const resizer = await screen.findByTestId('composer-resizer');
    const editor = screen.getByTestId('comment-input');
    expect(editor.style.height).toBe('118px');
    resizer.focus();
    await user.keyboard('{ArrowDown}');
    expect(editor.style.height).toBe('118px');
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(editor.style.height).toBe('158px');
    expect(resizer).toHaveAttribute('aria-valuenow', '158');
  });

  it('loads the card only once per visit and asks for the actions', async () => {
    const { fetchMock } = openIncident();
    await screen.findByTestId('incident-actions');
    expect(callsTo(fetchMock, CARD)).toHaveLength(1);
    expect(callsTo(fetchMock, ACTIONS)).toHaveLength(1);
    expect(currentUser.id).toBe(7);
  });

  it('fetches the card again in Russian when the language changes, keeping the page on screen', async () => {
    const { fetchMock } = openIncident();
    await screen.findByTestId('incident-main-info');
    await act(() => i18n.changeLanguage('ru'));
    await waitFor(() =>
      expect(callsTo(fetchMock, CARD).map((request) => request.url.searchParams.get('language'))).toEqual([
        'en',
        'ru',
      ]),
    );
    expect(screen.queryByTestId('incident-loading')).not.toBeInTheDocument();
    expect(screen.getByTestId('incident-tab-details')).toHaveTextContent('Подробности');
    expect(await screen.findByTestId('comments-empty')).toHaveTextContent('Нет комментариев');
  });

  it('opens a rule popup from the detection rules that links to the rule page in a new tab', async () => {
    const found = makeRule(5, {
      rule_id: 'SOC-R-0005',
      name: 'C2 beacon interval',
      rule_caption_rus: 'Периодические обращения к C2',
      rule_caption_eng: 'Periodic C2 beacons',
      description_eng: 'Regular outbound connections to one host.',
      mitre_platform: [],
    });
    const { fetchMock, user } = openIncident({
      [RULES]: { body: { total: 1, next: null, previous: null, results: [found] } },
    });
    const rules = await screen.findByTestId('incident-detection-rules');
    expect(callsTo(fetchMock, RULES)).toHaveLength(0);
    await user.click(within(rules).getByRole('button', { name: 'C2 beacon interval' }));
    const popup = await screen.findByTestId('rule-popup');
    expect(popup).toHaveTextContent('Periodic C2 beacons');
    expect(popup).toHaveTextContent('SOC-R-0005');
    const link = within(popup).getByTestId('rule-popup-open');
    expect(link).toHaveAttribute('href', '/rule/5');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    const [request] = callsTo(fetchMock, RULES);
    expect(request?.url.searchParams.get('name__in')).toBe('C2 beacon interval');
    expect(request?.url.searchParams.get('page_size')).toBe('1');
  });

  it('says so when the rule an incident names is not in the catalogue', async () => {
    const { user } = openIncident({
      [RULES]: { body: { total: 0, next: null, previous: null, results: [] } },
    });
    const rules = await screen.findByTestId('incident-detection-rules');
    await user.click(within(rules).getByRole('button', { name: 'C2 beacon interval' }));
    expect(
      await screen.findByText('This rule is not in the rule catalogue available to you'),
    ).toBeInTheDocument();
    expect(screen.queryByTestId('rule-popup-open')).not.toBeInTheDocument();
  });
});
