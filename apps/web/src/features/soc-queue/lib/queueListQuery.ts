import { QueueFiltersShape, QueueOrderingSchema, type QueueOrdering } from '@soc/contracts';
import { listQueryParams } from '@/shared/lib/filters.ts';

/** The entity under which the queue keeps its filters in storage (design §7). */
export const SOC_QUEUE_FILTER_ENTITY = 'soc-queue';

/** The filters of GET /analyst/queue/ (kept in the URL), as the contract declares them; paging is the feed's own. */
const FILTERS = QueueFiltersShape;

export type QueueListParam = keyof typeof FILTERS | 'ordering';
export const DEFAULT_QUEUE_ORDERING: QueueOrdering = 'sla';

const query = listQueryParams<QueueListParam, QueueOrdering>(
  FILTERS,
  QueueOrderingSchema,
  DEFAULT_QUEUE_ORDERING,
);

export const sanitizeQueueParams = query.sanitize;
export const readQueueList = query.readList;
export const readQueueOrdering = query.readOrdering;
export const withQueueParams = query.withParams;
/** GET /analyst/queue/ query: the filters with the ordering in effect. */
export const queueApiQuery = query.apiQuery;

/**
 * GET /analyst/queue/counts/ query: the queue's filters but the tenant one, so that every tenant
 * keeps its chip (and its count) while one of them is picked, as a facet does.
 */
export function queueCountsQuery(params: URLSearchParams): Record<string, string> {
  const counts = Object.fromEntries(params);
  delete counts.ordering;
  delete counts.system__in;
  return counts;
}
