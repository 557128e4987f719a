import { InboxCountSchema } from '@soc/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/index.ts';
import { inboxKeys } from './inboxKeys.ts';

/** The live signal refreshes the bell; this poll is the fallback without a stream. */
const COUNT_POLL_MS = 60_000;

/** GET /notifications/inbox/count/: the bell's number of unread notifications. */
export function useInboxCountQuery() {
  return useQuery({
    queryKey: inboxKeys.count(),
    queryFn: ({ signal }) =>
      apiRequest('/notifications/inbox/count/', { schema: InboxCountSchema, signal, notify: false }),
    refetchInterval: COUNT_POLL_MS,
  });
}
