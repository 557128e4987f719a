import { AlertListQuerySchema, AlertOrderingSchema, type AlertOrdering } from '@soc/contracts';
import { listQueryParams } from '@/shared/lib/filters.ts';

/** The entity under which the alerts list keeps its filters (design §7). */
export const ALERTS_FILTER_ENTITY = 'alerts';

/** The filters the alerts screen offers, a subset of GET /soc/alerts/'s (kept in the URL). */
const { search, severity__in, status__in, priority__in, system__in, grouped } = AlertListQuerySchema.shape;
const FILTERS = { search, severity__in, status__in, priority__in, system__in, grouped };

export type AlertListParam = keyof typeof FILTERS | 'ordering';
export const DEFAULT_ALERT_ORDERING: AlertOrdering = '-created_time';

const query = listQueryParams<AlertListParam, AlertOrdering>(
  FILTERS,
  AlertOrderingSchema,
  DEFAULT_ALERT_ORDERING,
);

export const sanitizeAlertParams = query.sanitize;
export const readAlertList = query.readList;
export const readAlertOrdering = query.readOrdering;
export const withAlertParams = query.withParams;
/** GET /soc/alerts/ query: the filters with the ordering in effect. */
export const alertApiQuery = query.apiQuery;
