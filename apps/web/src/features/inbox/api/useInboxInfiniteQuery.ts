import { INBOX_PAGE_SIZE, InboxListResponseSchema } from '@soc/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { inboxKeys } from './inboxKeys.ts';

/** GET /notifications/inbox/: the caller's notifications (or the unread only), newest first, a page at a time. */
export function useInboxInfiniteQuery(unreadOnly: boolean) {
  return useInfiniteQuery({
    queryKey: inboxKeys.list(unreadOnly),
    queryFn: ({ pageParam, signal }) =>
      apiRequest('/notifications/inbox/', {
        schema: InboxListResponseSchema,
        query: { page: pageParam, page_size: INBOX_PAGE_SIZE, unread: unreadOnly || undefined },
        signal,
        notify: false,
      }),
    initialPageParam: 1,
    getNextPageParam: (lastPage, _all, lastPageParam) =>
      lastPage.next === null ? undefined : lastPageParam + 1,
  });
}
