import {
  AnalyticsSchema,
  DASHBOARD_REFRESH_MS,
  EpsSchema,
  IncidentListResponseSchema,
  MitreMatrixSchema,
} from '@soc/contracts';
import type { Language } from '@soc/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '@/shared/api/index.ts';
import { useLanguage } from '@/shared/hooks/useLanguage.ts';
import type { DateRange } from '../lib/range.ts';

/** Query keys of the dashboard. */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  analytics: (filters: string, language: string) =>
    [...dashboardKeys.all, 'analytics', { filters, language }] as const,
  eps: (filters: string) => [...dashboardKeys.all, 'eps', filters] as const,
  mitre: () => [...dashboardKeys.all, 'mitre', 'names'] as const,
  newest: (filters: string) => [...dashboardKeys.all, 'newest', filters] as const,
};

/** The dashboard's filter parameters with its period, as the API takes them. */
export function dashboardQuery(filters: URLSearchParams, range: DateRange): Record<string, string> {
  return {
    ...Object.fromEntries(filters),
    created__gte: String(range.from),
    created__lte: String(range.to),
  };
}

/**
 * GET /soc/incs/analytics/ with the previous period; refreshed every 30 s (product §A4). Without
 * an error message a failure is not announced (a request sent before the page renders).
 */
export function analyticsQuery(
  filters: URLSearchParams,
  range: DateRange,
  language: Language,
  errorMessage?: string,
) {
  const query = dashboardQuery(filters, range);
  const key = new URLSearchParams(query).toString();
  return queryOptions({
    queryKey: dashboardKeys.analytics(key, language),
    queryFn: ({ signal }) =>
      apiRequest('/soc/incs/analytics/', {
        schema: AnalyticsSchema,
        query: { ...query, get_prev: 'True', language },
        signal,
        ...(errorMessage === undefined ? { notify: false } : { errorMessage }),
      }),
    refetchInterval: DASHBOARD_REFRESH_MS,
  });
}

export function useAnalyticsQuery(filters: URLSearchParams, range: DateRange) {
  const { t } = useTranslation();
  return useQuery({
    ...analyticsQuery(filters, range, useLanguage(), t('dashboard.loadFailed')),
    placeholderData: (previous) => previous,
  });
}

/** GET /soc/dashboards/eps/ for the period and tenants. */
export function useEpsQuery(filters: URLSearchParams, range: DateRange, enabled: boolean) {
  const systems = filters.get('system__in');
  const query = {
    created__gte: String(range.from),
    created__lte: String(range.to),
    ...(systems ? { system__in: systems } : {}),
  };
  return useQuery({
    queryKey: dashboardKeys.eps(new URLSearchParams(query).toString()),
    queryFn: ({ signal }) =>
      apiRequest('/soc/dashboards/eps/', { schema: EpsSchema, query, signal, notify: false }),
    refetchInterval: DASHBOARD_REFRESH_MS,
    placeholderData: (previous) => previous,
    enabled,
  });
}

/**
 * GET /soc/mitre_matrix/?description=false, once (product §A7): the widget shows names only, and
 * the descriptions are most of the answer's bytes (the Rules → MITRE panel reads its own).
 */
export function useMitreMatrixQuery() {
  const query = { description: 'false' };
  return useQuery({
    queryKey: dashboardKeys.mitre(),
    queryFn: ({ signal }) =>
      apiRequest('/soc/mitre_matrix/', { schema: MitreMatrixSchema, query, signal, notify: false }),
    staleTime: Infinity,
    gcTime: Infinity,
  });
}

/** The newest incident of the caller's tenants, polled every 30 s (product §A4). */
export function useNewestIncidentQuery(systems: string | null) {
  const query = { limit: '1', ordering: '-created', ...(systems ? { system__in: systems } : {}) };
  return useQuery({
    queryKey: dashboardKeys.newest(new URLSearchParams(query).toString()),
    queryFn: ({ signal }) =>
      apiRequest('/soc/incs/', { schema: IncidentListResponseSchema, query, signal, notify: false }),
    refetchInterval: DASHBOARD_REFRESH_MS,
    select: (page) => page.results[0] ?? null,
  });
}
