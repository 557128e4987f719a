import { IOC_FEED_PATH, IOC_FEED_PREVIEW_SIZE, IocFeedBundleSchema } from '@soc/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { iocFeedKeys } from './iocFeedKeys.ts';

/** The first indicators of the feed for the page's filters, as the STIX format gives them. */
export function useIocFeedPreviewQuery(filters: URLSearchParams) {
  const filtersKey = filters.toString();
  return useQuery({
    queryKey: iocFeedKeys.preview(filtersKey),
    queryFn: ({ signal }) =>
      apiRequest(IOC_FEED_PATH, {
        schema: IocFeedBundleSchema,
        query: {
          ...Object.fromEntries(new URLSearchParams(filtersKey)),
          format: 'stix',
          limit: IOC_FEED_PREVIEW_SIZE,
        },
        signal,
        abortKey: 'ioc-feed-preview',
        notify: false,
      }),
    placeholderData: keepPreviousData,
  });
}
