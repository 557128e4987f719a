import type { IocFeedFormat } from '@soc/contracts';
import { IOC_FEED_PATH } from '@soc/contracts';
import { apiUrl } from '@/shared/api/index.ts';

/** The absolute URL of the feed in `format` with the page's filters, for a tool to poll. */
export function feedUrl(origin: string, format: IocFeedFormat, filters: URLSearchParams): string {
  return `${origin}${apiUrl(IOC_FEED_PATH, { format, ...Object.fromEntries(filters) })}`;
}

/** The curl command that fetches `url` with a personal API token. */
export const curlCommand = (url: string, tokenPlaceholder: string): string =>
  `curl -sf -H "Authorization: Bearer ${tokenPlaceholder}" "${url}"`;
