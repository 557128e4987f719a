import type { Language, SystemChoice } from '@soc/contracts';
import {
  LOOKUP_LIMIT,
  pageOf,
  SYSTEMS_PAGE_SIZE,
  SystemCardSchema,
  SystemListResponseSchema,
  SystemOptionSchema,
  SystemPeopleResponseSchema,
} from '@soc/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useLanguage } from '../hooks/useLanguage.ts';
import { apiRequest } from './client.ts';

const SystemOptionsPageSchema = pageOf(SystemOptionSchema);

/**
 * The one query-key family of the protected systems (GET /soc/systems/…), whichever screen asks:
 * filter choices, pickers, the systems table and cards all live under `systemKeys.all`.
 */
export const systemKeys = {
  all: ['systems'] as const,
  choices: () => [...systemKeys.all, 'choices'] as const,
  lookup: (search: string, language: Language) =>
    [...systemKeys.all, 'lookup', { search, language }] as const,
  list: (filters: string) => [...systemKeys.all, 'list', filters] as const,
  card: (id: number) => [...systemKeys.all, 'card', id] as const,
  byIsId: (isId: string) => [...systemKeys.all, 'by-is-id', isId.toUpperCase()] as const,
  people: (role: 'service_manager' | 'dedicated_analyst') => [...systemKeys.all, 'people', role] as const,
};

/** The caller's systems as choices (GET /soc/systems/?no_page=true&short=true), one request for every form. */
const systemChoicesQuery = {
  queryKey: systemKeys.choices(),
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    apiRequest('/soc/systems/', {
      schema: SystemOptionsPageSchema,
      query: { no_page: true, short: true },
      signal,
      notify: false,
    }),
  staleTime: 5 * 60_000,
};

/** The caller's systems as filter choices. */
export function useSystemChoicesQuery() {
  return useQuery({ ...systemChoicesQuery, select: (page) => page.results });
}

/** System choices of the report forms (product §B3, §B7: GET systems fills them): key = code, text = name. */
export function useSystemCodeChoicesQuery() {
  return useQuery({
    ...systemChoicesQuery,
    select: (page): SystemChoice[] => page.results.map((s) => ({ key: s.is_id, text: s.full_name })),
  });
}

/**
 * The caller's systems (tenants) for a picker
 * (GET /soc/systems/?no_page=true&short=true&page_size=30&search=); `search` is already debounced.
 */
export function useSystemsLookupQuery(search: string, enabled = true) {
  const language = useLanguage();
  const text = search.trim();
  return useQuery({
    queryKey: systemKeys.lookup(text, language),
    queryFn: ({ signal }) =>
      apiRequest('/soc/systems/', {
        schema: SystemOptionsPageSchema,
        query: { no_page: true, short: true, page_size: LOOKUP_LIMIT, search: text, language },
        signal,
      }),
    select: (page) => page.results,
    placeholderData: keepPreviousData,
    enabled,
  });
}

/**
 * One page of the systems table (GET /soc/systems/) for the filters of the URL. A newer
 * request supersedes (aborts) an older one, so a late answer never replaces a newer table.
 */
export function useSystemsQuery(filters: URLSearchParams, page: number) {
  const filtersKey = filters.toString();
  return useQuery({
    queryKey: [...systemKeys.list(filtersKey), page],
    queryFn: ({ signal }) =>
      apiRequest('/soc/systems/', {
        schema: SystemListResponseSchema,
        query: { ...Object.fromEntries(new URLSearchParams(filtersKey)), page, page_size: SYSTEMS_PAGE_SIZE },
        signal,
        abortKey: 'tenants-list',
        notify: false,
      }),
    placeholderData: keepPreviousData,
  });
}

/**
 * The numeric id of the system whose customer-facing id (`is_id`, e.g. IS-0003) is `isId`, or
 * null when none has it. The server has no lookup by is_id; the list's id filter is a substring
 * match, so the exact id is picked from its answer.
 */
export function useSystemIdByIsIdQuery(isId: string) {
  return useQuery({
    queryKey: systemKeys.byIsId(isId),
    queryFn: async ({ signal }) => {
      const page = await apiRequest('/soc/systems/', {
        schema: SystemListResponseSchema,
        query: { is_id__icontains: isId, no_page: true },
        signal,
        notify: false,
      });
      const wanted = isId.toUpperCase();
      return page.results.find((system) => system.is_id.toUpperCase() === wanted)?.id ?? null;
    },
    retry: false,
  });
}

/** The system card (GET /soc/systems/{id}/); the page shows errors itself. */
export function useSystemCardQuery(id: number) {
  return useQuery({
    queryKey: systemKeys.card(id),
    queryFn: ({ signal }) =>
      apiRequest(`/soc/systems/${id}/`, { schema: SystemCardSchema, signal, notify: false }),
    retry: false,
  });
}

/** Choices of a people filter (GET /soc/systems/people/); a failure leaves the list empty (product §B8). */
export function useSystemPeopleQuery(role: 'service_manager' | 'dedicated_analyst') {
  return useQuery({
    queryKey: systemKeys.people(role),
    queryFn: ({ signal }) =>
      apiRequest('/soc/systems/people/', {
        schema: SystemPeopleResponseSchema,
        query: { role },
        signal,
        notify: false,
      }),
    staleTime: 5 * 60_000,
  });
}
