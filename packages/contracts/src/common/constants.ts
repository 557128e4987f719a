/** Product version shown in the shell (product §A1). */
export const PRODUCT_VERSION = '2.10.24';
/** Base path of every API call (product §A7). */
export const API_BASE = '/api/v0';
/** Notifications stay on screen this long (product §A9). */
export const NOTIFICATION_DURATION_MS = 5000;
/** Default page size of lists paged by `page`/`page_size`. */
export const DEFAULT_PAGE_SIZE = 20;
/** The largest page any list serves. */
export const MAX_PAGE_SIZE = 200;
/** Lookups (issue types, categories, systems) fetch this many options (product §A9). */
export const LOOKUP_LIMIT = 30;
/** Polling and dashboard refresh period (product §A9). */
export const POLL_INTERVAL_MS = 30_000;
/** Search suggestion debounce (product §A9). */
export const SEARCH_DEBOUNCE_MS = 300;
/** Count badges cap at this value and show `99+` (design §7). */
export const BADGE_CAP = 99;
/** Largest JSON request body (issue 2, "Bad input"). */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;
/** Minimum shell width in pixels (product §A2). */
export const SHELL_MIN_WIDTH = 1440;
/** Lazy route chunks time out after this (product §A7). */
export const CHUNK_TIMEOUT_MS = 120_000;
