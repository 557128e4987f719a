import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubPhoneViewport } from '../../../test/viewport.ts';
import { openDocs, stubListLayout } from '../test/docsHarness.ts';

/** A state on a busy 2-core machine (the whole suite beside the server's) can take seconds. */
const BUSY = { timeout: 15_000 };

beforeEach(() => {
  stubListLayout();
  stubPhoneViewport();
});
afterEach(() => vi.restoreAllMocks());

describe('documentation on a phone', () => {
  it("opens a document's summary in a drawer with one close button, which closes it", async () => {
    const { user } = openDocs();
    const cards = await screen.findAllByTestId('document-card', {}, BUSY);
    await user.click(cards[0]!);
    const panel = await screen.findByTestId('document-side-panel', {}, BUSY);
    const drawer = panel.closest<HTMLElement>('[role="dialog"]');
    expect(drawer).not.toBeNull();
    const closers = within(drawer!)
      .getAllByRole('button')
      .filter((button) => /close/i.test(button.getAttribute('aria-label') ?? ''));
    expect(closers).toHaveLength(1);
    expect(within(panel).queryByTestId('document-side-panel-close')).not.toBeInTheDocument();
    await user.click(closers[0]!);
    await waitFor(() => expect(screen.queryByTestId('document-side-panel')).not.toBeInTheDocument(), BUSY);
  });
});
