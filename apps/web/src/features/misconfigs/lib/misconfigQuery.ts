import {
  DEFAULT_MISCONFIG_ORDERING,
  MisconfigFiltersShape,
  MisconfigOrderingSchema,
  type MisconfigOrdering,
} from '@soc/contracts';
import { listQueryParams } from '@/shared/lib/filters.ts';

/** The entity under which the list's filters are stored (design §7). */
export const MISCONFIGS_FILTER_ENTITY = 'misconfigs';

export type MisconfigParam = keyof typeof MisconfigFiltersShape | 'ordering';

const query = listQueryParams<MisconfigParam, MisconfigOrdering>(
  MisconfigFiltersShape,
  MisconfigOrderingSchema,
  DEFAULT_MISCONFIG_ORDERING,
);

export const sanitizeMisconfigParams = query.sanitize;
export const readMisconfigList = query.readList;
export const readMisconfigOrdering = query.readOrdering;
export const withMisconfigParams = query.withParams;
/** GET /soc/misconfigs/ query: the filters with the ordering in effect. */
export const misconfigApiQuery = query.apiQuery;
