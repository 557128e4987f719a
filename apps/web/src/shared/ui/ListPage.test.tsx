import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/index.ts';
import { stubPhoneViewport } from '@/test/viewport.ts';
import { i18n } from '../i18n/i18n.ts';
import {
  FilterToggle,
  ListPage,
  ResetFiltersButton,
  type ListPageProps,
  type ListPageQuery,
} from './ListPage.tsx';

const loaded: ListPageQuery = {
  isPending: false,
  isError: false,
  error: null,
  data: {},
  refetch: () => undefined,
};

function renderPage(props: Partial<ListPageProps> = {}) {
  return render(
    <ListPage
      testId="things"
      header={<h1>Things</h1>}
      query={loaded}
      isEmpty={false}
      loadFailedText="Could not load things"
      emptyText="No things"
      panel={null}
      panelHint="Select a thing"
      height="30rem"
      {...props}
    >
      <ul data-testid="things-list">
        <li>One thing</li>
      </ul>
    </ListPage>,
  );
}

describe('ListPage: a list emptied by a search or filters', () => {
  it('says what was searched and clears the search and filters, in both languages', async () => {
    const onClear = vi.fn();
    const { rerender } = renderPage({
      isEmpty: true,
      emptyFiltered: { search: 'mimikatz', filters: 2, onClear },
    });
    const empty = screen.getByTestId('things-empty');
    expect(empty).toHaveTextContent('Nothing found for “mimikatz” with the 2 filters in use.');
    await userEvent.click(within(empty).getByRole('button', { name: 'Clear the search and filters' }));
    expect(onClear).toHaveBeenCalledTimes(1);

    await i18n.changeLanguage('ru');
    try {
      rerender(
        <ListPage
          testId="things"
          query={loaded}
          isEmpty
          loadFailedText="x"
          emptyText="Нет данных"
          emptyFiltered={{ search: '', filters: 1, onClear }}
          height="30rem"
        >
          <ul />
        </ListPage>,
      );
      expect(screen.getByTestId('things-empty')).toHaveTextContent('С выбранным фильтром ничего не найдено.');
      expect(screen.getByRole('button', { name: 'Сбросить поиск и фильтры' })).toBeInTheDocument();
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('keeps the plain empty text when neither a search nor a filter is in use', () => {
    renderPage({ isEmpty: true, emptyFiltered: { search: null, filters: 0, onClear: () => undefined } });
    expect(screen.getByTestId('things-empty')).toHaveTextContent('No things');
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });
});

describe('ListPage', () => {
  it('shows placeholders while the first page loads, in the interface language', async () => {
    renderPage({ query: { ...loaded, isPending: true, data: undefined } });
    expect(screen.getByTestId('things-page')).toHaveTextContent('Things');
    expect(screen.getByTestId('things-loading')).toHaveAttribute('role', 'status');
    expect(screen.getByRole('status', { name: 'Loading…' })).toBeInTheDocument();
    expect(screen.queryByTestId('things-list')).not.toBeInTheDocument();
    await i18n.changeLanguage('ru');
    expect(await screen.findByRole('status', { name: 'Загрузка…' })).toBeInTheDocument();
  });

  it('shows the error of a failed first page with the server detail and retries on request', async () => {
    const refetch = vi.fn();
    const error = new ApiError({ kind: 'http', status: 500, data: { detail: 'Database is away' } });
    renderPage({ query: { isPending: false, isError: true, error, data: undefined, refetch } });
    const box = screen.getByTestId('things-error');
    expect(box).toHaveTextContent('Could not load things');
    expect(box).toHaveTextContent('Database is away');
    expect(screen.queryByTestId('things-list')).not.toBeInTheDocument();
    await userEvent.click(within(box).getByTestId('things-retry'));
    expect(refetch).toHaveBeenCalledOnce();
  });

  it('keeps the list when a later page fails (the feed shows that error itself)', () => {
    renderPage({ query: { ...loaded, isError: true, error: new Error('page 2') } });
    expect(screen.getByTestId('things-list')).toBeInTheDocument();
    expect(screen.queryByTestId('things-error')).not.toBeInTheDocument();
  });

  it('says that nothing matched when the list is empty', () => {
    renderPage({ isEmpty: true });
    expect(screen.getByTestId('things-empty')).toHaveTextContent('No things');
    expect(screen.queryByTestId('things-list')).not.toBeInTheDocument();
  });

  it('shows the list beside the side panel: its hint, the selected item, or no panel', () => {
    const { rerender } = renderPage();
    expect(screen.getByTestId('things-list')).toHaveTextContent('One thing');
    expect(screen.getByTestId('things-side')).toHaveTextContent('Select a thing');

    const common = { testId: 'things', query: loaded, isEmpty: false, loadFailedText: '', emptyText: '' };
    rerender(
      <ListPage {...common} height="30rem" panel={<p>Thing one in detail</p>} panelHint="Select a thing">
        <ul data-testid="things-list" />
      </ListPage>,
    );
    expect(screen.getByTestId('things-side')).toHaveTextContent(/^Thing one in detail$/);

    rerender(
      <ListPage {...common} height="30rem">
        <ul data-testid="things-list" />
      </ListPage>,
    );
    expect(screen.queryByTestId('things-side')).not.toBeInTheDocument();
  });

  it('names its root by the page or leaves that to an enclosing page', () => {
    const { rerender } = renderPage({ rootData: { 'data-kind': 'articles' } });
    expect(screen.getByTestId('things-page')).toHaveAttribute('data-kind', 'articles');
    rerender(
      <ListPage
        testId="things"
        rootTestId={null}
        query={loaded}
        isEmpty
        loadFailedText=""
        emptyText="No things"
        height="30rem"
      >
        {null}
      </ListPage>,
    );
    expect(screen.queryByTestId('things-page')).not.toBeInTheDocument();
    expect(screen.getByTestId('things-empty')).toBeInTheDocument();
  });

  it('titles the page and announces what the list holds once it is known', () => {
    const { rerender } = renderPage({ title: 'Things', total: null, header: undefined });
    expect(screen.getByRole('heading', { level: 1, name: 'Things' })).toBeInTheDocument();
    expect(screen.queryByTestId('things-total')).not.toBeInTheDocument();
    const common = { testId: 'things', query: loaded, isEmpty: false, loadFailedText: '', emptyText: '' };
    rerender(
      <ListPage {...common} title="Things" total="1-40 of 100" height="30rem">
        {null}
      </ListPage>,
    );
    expect(screen.getByTestId('things-total')).toHaveTextContent(/^1-40 of 100$/);
    expect(screen.getByTestId('things-total')).toHaveAttribute('aria-live', 'polite');
  });
});

describe('list toolbar buttons', () => {
  it('shows the filters in use on the toggle, capped at 99+, and names the row it opens', async () => {
    const onToggle = vi.fn();
    const props = { onToggle, text: 'Filters', countLabel: 'Filters, 120 applied', testId: 'toggle' };
    const { rerender } = render(<FilterToggle {...props} active={0} open={false} controls="row" />);
    const toggle = screen.getByTestId('toggle');
    expect(toggle).toHaveAccessibleName('Filters');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).not.toHaveAttribute('aria-controls');
    await userEvent.click(toggle);
    expect(onToggle).toHaveBeenCalledOnce();

    rerender(<FilterToggle {...props} active={120} open controls="row" />);
    expect(toggle).toHaveAccessibleName('Filters, 120 applied');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle).toHaveAttribute('aria-controls', 'row');
    expect(toggle.parentElement).toHaveTextContent(/99\+$/);
  });

  it('resets on click and says what it resets', async () => {
    const onReset = vi.fn();
    render(
      <ResetFiltersButton text="Reset" label="Reset filters and sort" onReset={onReset} testId="reset" />,
    );
    expect(screen.getByTestId('reset')).toHaveAttribute('title', 'Reset filters and sort');
    await userEvent.click(screen.getByTestId('reset'));
    expect(onReset).toHaveBeenCalledOnce();
  });
});

describe('ListPage on a phone', () => {
  it('shows no hint beside the list while nothing is selected', () => {
    stubPhoneViewport();
    renderPage();
    expect(screen.queryByText('Select a thing')).toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('opens the selected item in a drawer that its close button closes', async () => {
    stubPhoneViewport();
    const onPanelClose = vi.fn();
    renderPage({ panel: <p>Thing one</p>, onPanelClose });
    expect(await screen.findByRole('dialog', { name: 'Details' })).toHaveTextContent('Thing one');
    await userEvent.click(screen.getByRole('button', { name: 'Close the details' }));
    expect(onPanelClose).toHaveBeenCalled();
  });
});
