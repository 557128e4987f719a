import { z } from 'zod';

/** Every list answers in this envelope (DESIGN §4). */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    /** Number of matching rows across all pages. */
    total: z.number().int().nonnegative(),
    /** URL of the next page (absolute under PUBLIC_URL, else from the root), or null on the last one. */
    next: z.string().nullable(),
    /** URL of the previous page (absolute under PUBLIC_URL, else from the root), or null on the first. */
    previous: z.string().nullable(),
    results: z.array(item),
  });

/** `?results` lists that are not paged (e.g. OIDC providers, available actions). */
export const resultsOf = <T extends z.ZodType>(item: T) => z.object({ results: z.array(item) });
