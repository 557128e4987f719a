import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubPhoneViewport } from '../../../test/viewport.ts';
import { openIncidents, renderedKeys, stubListLayout } from '../test/pageHarness.ts';

/** A state on a busy 2-core machine (the whole suite beside the server's) can take seconds. */
const BUSY = { timeout: 15_000 };

beforeEach(() => {
  stubListLayout();
  stubPhoneViewport();
});
afterEach(() => vi.restoreAllMocks());

describe('IncidentsPage on a phone', () => {
  it('shows the cards without a side panel; a tap on a card opens the incident', async () => {
    const { user, router } = openIncidents();
    await waitFor(() => expect(renderedKeys()).toContain(1), BUSY);
    expect(screen.queryByTestId('incidents-side')).not.toBeInTheDocument();
    // every address the router goes to: the incident page, whose card this test does not serve,
    // returns to the list at once, so its address is only seen in passing
    const visited: string[] = [];
    const unsubscribe = router.subscribe((state) => visited.push(state.location.pathname));
    const card = screen.getAllByTestId('incident-card')[0]!;
    await user.click(within(card).getByTestId('incident-card-summary'));
    await waitFor(() => expect(visited).toContain('/inc/1'), BUSY);
    unsubscribe();
  });

  it('opens the filters in a drawer from the Filters button', async () => {
    const { user } = openIncidents();
    await waitFor(() => expect(renderedKeys()).toContain(1), BUSY);
    const toggle = screen.getByTestId('incidents-filter-toggle');
    await user.click(toggle);
    const filters = await screen.findByTestId('incidents-filter-row', {}, BUSY);
    const drawer = filters.closest<HTMLElement>('[role="dialog"]');
    expect(drawer).not.toBeNull();
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await user.click(within(drawer!).getByRole('button', { name: 'Close the filters' }));
    await waitFor(() => expect(toggle).toHaveAttribute('aria-expanded', 'false'), BUSY);
  });
});
