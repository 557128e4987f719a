import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { normalizeFilterParams, readStoredFilters, writeStoredFilters } from './filters.ts';

export interface PersistedFilters {
  /** The current (normalised) filter parameters. */
  params: URLSearchParams;
  /** Replaces all filters; pushes a history entry so back/forward walk through them. */
  setParams: (next: URLSearchParams) => void;
  /** Removes every filter. */
  reset: () => void;
}

/**
 * The filters of one entity's list, kept in the URL and mirrored to storage. Opening the list
 * without a query string restores the stored one (already on the first render, so no request
 * goes out unfiltered); a query string in the URL wins over storage.
 */
export function usePersistedFilters(entity: string): PersistedFilters {
  const [searchParams, setSearchParams] = useSearchParams();
  const query = searchParams.toString();
  const [pendingRestore, setPendingRestore] = useState(() => (query === '' ? readStoredFilters(entity) : ''));
  const effectiveQuery = pendingRestore !== '' && query === '' ? pendingRestore : query;
  const params = useMemo(() => normalizeFilterParams(new URLSearchParams(effectiveQuery)), [effectiveQuery]);

  useEffect(() => {
    if (pendingRestore !== '') {
      // Keep serving the stored filters until the URL holds them: the navigation lands a render
      // (or a transition) later, and an empty render in between would send an unfiltered
      // request and wipe the stored entry.
      if (query === '') setSearchParams(new URLSearchParams(pendingRestore), { replace: true });
      else setPendingRestore('');
      return;
    }
    writeStoredFilters(entity, params.toString());
  }, [entity, query, params, pendingRestore, setSearchParams]);

  const setParams = useCallback(
    (next: URLSearchParams) => setSearchParams(normalizeFilterParams(next)),
    [setSearchParams],
  );
  const reset = useCallback(() => setSearchParams(new URLSearchParams()), [setSearchParams]);
  return { params, setParams, reset };
}
