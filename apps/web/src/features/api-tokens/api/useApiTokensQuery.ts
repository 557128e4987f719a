import { API_TOKENS_PAGE_SIZE, ApiTokenPageSchema } from '@soc/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { apiTokenKeys } from './apiTokenKeys.ts';

/** One page of the signed-in user's personal API tokens (GET /auth/tokens/). */
export function useApiTokensQuery(page: number) {
  return useQuery({
    queryKey: apiTokenKeys.list(page),
    queryFn: ({ signal }) =>
      apiRequest('/auth/tokens/', {
        schema: ApiTokenPageSchema,
        query: { page, page_size: API_TOKENS_PAGE_SIZE },
        signal,
        abortKey: 'api-tokens-list',
        notify: false,
      }),
    placeholderData: keepPreviousData,
  });
}
