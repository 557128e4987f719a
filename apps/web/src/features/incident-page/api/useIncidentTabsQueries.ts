import { MisconfigPageSchema, SNAPSHOTS_PAGE_SIZE, SnapshotPageSchema } from '@soc/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '@/shared/api/index.ts';
import { incidentPageKeys } from './incidentPageKeys.ts';
import '../../alerts/index.ts';

/** CMDB assets of the incident, paged through `next` (GET {incident}/snapshots/). */
export function useSnapshotsQuery(key: number) {
  const { t } = useTranslation();
  return useInfiniteQuery({
    queryKey: incidentPageKeys.snapshots(key),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      apiRequest(`/soc/incs/${key}/snapshots/`, {
        schema: SnapshotPageSchema,
        query: { page: pageParam, page_size: SNAPSHOTS_PAGE_SIZE },
        signal,
        errorMessage: t('alerts.assets.loadFailed'),
      }),
    getNextPageParam: (last, pages) => (last.next ? pages.length + 1 : undefined),
  });
}

/** Misconfigurations of a Remediation incident (GET /soc/incs/{key}/misconfigs/). */
export function useMisconfigsQuery(key: number) {
  const { t } = useTranslation();
  return useInfiniteQuery({
    queryKey: incidentPageKeys.misconfigs(key),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      apiRequest(`/soc/incs/${key}/misconfigs/`, {
        schema: MisconfigPageSchema,
        query: { page: pageParam, page_size: 20 },
        signal,
        errorMessage: t('alerts.misconfigs.loadFailed'),
      }),
    getNextPageParam: (last, pages) => (last.next ? pages.length + 1 : undefined),
  });
}
