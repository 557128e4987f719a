import { act, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { readStoredFilters, writeStoredFilters } from './filters.ts';
import { usePersistedFilters, type PersistedFilters } from './usePersistedFilters.ts';

function renderList(initialPath: string) {
  const seen: string[] = [];
  let api: PersistedFilters | null = null;
  function List() {
    api = usePersistedFilters('incidents');
    seen.push(api.params.toString());
    return <div data-testid="params">{api.params.toString()}</div>;
  }
  const router = createMemoryRouter([{ path: '/incidents', element: <List /> }], {
    initialEntries: [initialPath],
  });
  render(<RouterProvider router={router} />);
  return { router, seen, getApi: () => api as unknown as PersistedFilters };
}

describe('usePersistedFilters', () => {
  it('restores stored filters when the URL has none, from the first render on', () => {
    writeStoredFilters('incidents', 'status__in=1&ordering=-created');
    const { router, seen } = renderList('/incidents');
    expect(seen[0]).toBe('ordering=-created&status__in=1');
    expect(router.state.location.search).toBe('?status__in=1&ordering=-created');
    expect(screen.getByTestId('params')).toHaveTextContent('ordering=-created&status__in=1');
  });

  it('never renders without the restored filters while the URL catches up', async () => {
    writeStoredFilters('incidents', 'status__in=1');
    const { router, seen } = renderList('/incidents');
    await waitFor(() => expect(router.state.location.search).toBe('?status__in=1'));
    expect(seen).not.toContain('');
    expect(readStoredFilters('incidents')).toBe('status__in=1');
  });

  it('prefers the URL and stores what it holds', () => {
    writeStoredFilters('incidents', 'status__in=1');
    renderList('/incidents?priority__in=high');
    expect(screen.getByTestId('params')).toHaveTextContent('priority__in=high');
    expect(JSON.parse(window.localStorage.getItem('filters') ?? '{}')).toEqual({
      incidents: 'priority__in=high',
    });
  });

  it('writes changes to the URL and storage, and back/forward restore them', async () => {
    const { router, getApi } = renderList('/incidents');
    act(() => getApi().setParams(new URLSearchParams('search= vpn &status__in=')));
    expect(router.state.location.search).toBe('?search=vpn');
    expect(JSON.parse(window.localStorage.getItem('filters') ?? '{}')).toEqual({ incidents: 'search=vpn' });

    act(() => getApi().reset());
    expect(window.localStorage.getItem('filters')).toBeNull();
    await act(() => router.navigate(-1));
    expect(screen.getByTestId('params')).toHaveTextContent('search=vpn');
  });
});
