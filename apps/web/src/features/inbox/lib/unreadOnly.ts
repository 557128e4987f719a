import { readStoredFilters, writeStoredFilters } from '@/shared/lib/filters.ts';

/** The storage entity of the panel's "Unread only" choice, kept with the lists' filters (design §7). */
const INBOX_FILTER_ENTITY = 'inbox';

/** Whether the panel shows the unread notifications only, as the user last chose. */
export const readUnreadOnly = (): boolean =>
  new URLSearchParams(readStoredFilters(INBOX_FILTER_ENTITY)).get('unread') === 'true';

/** Remembers the choice; "all" is the default and is not stored. */
export const writeUnreadOnly = (unreadOnly: boolean): void =>
  writeStoredFilters(INBOX_FILTER_ENTITY, unreadOnly ? 'unread=true' : '');
