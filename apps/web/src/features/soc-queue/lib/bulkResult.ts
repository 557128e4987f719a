import type { QueueBulkResult } from '@soc/contracts';

/** What a bulk change did: how many changed, and each refused incident with the server's reason. */
export type BulkSummary = {
  total: number;
  changed: number;
  refused: { key: number; reason: string }[];
};

/** The reason the server gave (`{detail}` or field errors), as one text; '' when it gave none. */
export function refusalReason(errors: Record<string, string | string[]> | null): string {
  if (!errors) return '';
  return Object.values(errors)
    .flatMap((value) => (Array.isArray(value) ? value : [value]))
    .filter((text) => text.trim() !== '')
    .join('; ');
}

export function summarizeBulk(result: QueueBulkResult): BulkSummary {
  const refused = result.results
    .filter((item) => item.status !== 200)
    .map((item) => ({ key: item.key, reason: refusalReason(item.errors) }));
  return { total: result.results.length, changed: result.results.length - refused.length, refused };
}
