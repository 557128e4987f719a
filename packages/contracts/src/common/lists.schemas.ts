import { z } from 'zod';

/**
 * Counting stops past this many rows where no count table answers a total (a text search): the
 * answer then says `total: TOTAL_COUNT_CAP, total_exact: false` (product decision, issue 26).
 */
export const TOTAL_COUNT_CAP = 10_000;

/** Every list answers in this envelope (design §4). */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    /** Number of matching rows across all pages. */
    total: z.number().int().nonnegative(),
    /**
     * Whether `total` is the exact number. False only where counting stopped at the cap (a text
     * search matching more than 10,000 rows): `total` is then 10,000 and there are more. The
     * server always sends it; a reader takes its absence (servers before it) as exact.
     */
    total_exact: z.boolean().default(true),
    /** URL of the next page (absolute under PUBLIC_URL, else from the root), or null on the last one. */
    next: z.string().nullable(),
    /** URL of the previous page (absolute under PUBLIC_URL, else from the root), or null on the first. */
    previous: z.string().nullable(),
    results: z.array(item),
  });

/** `?results` lists that are not paged (e.g. OIDC providers, available actions). */
export const resultsOf = <T extends z.ZodType>(item: T) => z.object({ results: z.array(item) });
