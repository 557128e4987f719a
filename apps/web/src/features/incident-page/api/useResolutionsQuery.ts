import { LOOKUP_LIMIT, pageOf, ResolutionOptionSchema } from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { useLanguage } from '@/shared/hooks/useLanguage.ts';
import { incidentPageKeys } from './incidentPageKeys.ts';

const ResolutionsPageSchema = pageOf(ResolutionOptionSchema);

/** Resolutions of an issue type for the close dialog (GET /soc/issues/{type}/resolutions/?limit=30). */
export function useResolutionsQuery(issueTypeId: number, enabled: boolean) {
  const language = useLanguage();
  return useQuery({
    queryKey: incidentPageKeys.resolutions(issueTypeId, language),
    queryFn: ({ signal }) =>
      apiRequest(`/soc/issues/${issueTypeId}/resolutions/`, {
        schema: ResolutionsPageSchema,
        query: { limit: LOOKUP_LIMIT, language },
        signal,
      }),
    select: (page) => page.results,
    enabled,
    staleTime: 5 * 60_000,
  });
}
