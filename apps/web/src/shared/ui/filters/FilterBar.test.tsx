import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubPhoneViewport } from '@/test/viewport.ts';
import { FilterBar } from './FilterBar.tsx';

const bar = (active = 0) => (
  <FilterBar testId="things" active={active} search={<input aria-label="Search things" />}>
    <select aria-label="Status" />
    <button type="button">Reset</button>
  </FilterBar>
);

describe('FilterBar', () => {
  it('lays the search and the filters on one line on the desktop, without a Filters button', () => {
    render(bar(2));
    const line = screen.getByTestId('things-filter-bar');
    expect(within(line).getByRole('textbox', { name: 'Search things' })).toBeInTheDocument();
    expect(within(line).getByRole('combobox', { name: 'Status' })).toBeInTheDocument();
    expect(screen.queryByTestId('things-filter-toggle')).not.toBeInTheDocument();
  });

  it('keeps only the search and a Filters button with the count on a phone; the filters open in a drawer', async () => {
    stubPhoneViewport();
    const user = userEvent.setup();
    render(bar(2));
    const line = screen.getByTestId('things-filter-bar');
    expect(within(line).getByRole('textbox', { name: 'Search things' })).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Status' })).not.toBeInTheDocument();
    const toggle = within(line).getByRole('button', { name: 'Filters, 2 active' });
    expect(toggle).toHaveTextContent('Filters');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');

    await user.click(toggle);
    const drawer = await screen.findByRole('dialog', { name: 'Filters' });
    expect(within(drawer).getByRole('combobox', { name: 'Status' })).toBeInTheDocument();
    expect(within(drawer).getByRole('button', { name: 'Reset' })).toBeInTheDocument();
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle).toHaveAttribute('aria-controls', 'things-filters');

    await user.click(within(drawer).getByRole('button', { name: 'Close the filters' }));
    await waitFor(() => expect(toggle).toHaveAttribute('aria-expanded', 'false'));
  });

  it('names the Filters button by its text while no filter is in use', () => {
    stubPhoneViewport();
    render(bar(0));
    expect(screen.getByTestId('things-filter-toggle')).toHaveAccessibleName('Filters');
  });
});
