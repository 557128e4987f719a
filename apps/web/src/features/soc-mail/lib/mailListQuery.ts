import { MailQuarantineQuerySchema } from '@soc/contracts';
import { sanitizeFilterParams, withFilterParams, type FilterParamValue } from '@/shared/lib/filters.ts';

/** The entity under which the quarantine keeps its filters in storage (design §7). */
export const SOC_MAIL_FILTER_ENTITY = 'soc-mail';

/** Mails per page of GET /analyst/mail_quarantine/. */
export const MAIL_PAGE_SIZE = 50;

/** The filters of GET /analyst/mail_quarantine/ (kept in the URL); the page is the table's own. */
const { incident, sender } = MailQuarantineQuerySchema.shape;
const FILTERS: Record<string, { safeParse(value: unknown): { success: boolean } }> = { incident, sender };
export type MailListParam = 'incident' | 'sender';

/** Keeps the filters the contract accepts: a stale URL must not give a 400 on every visit. */
export const sanitizeMailParams = (params: URLSearchParams): URLSearchParams =>
  sanitizeFilterParams(params, (key) => FILTERS[key]);

export const withMailParams = (
  params: URLSearchParams,
  changes: Partial<Record<MailListParam, FilterParamValue>>,
): URLSearchParams => withFilterParams(params, changes, '');
