import { z } from 'zod';

/** `a,b,c` in a query string → a list of 1–200 non-empty items, each checked by `item`. */
export const csvList = <T extends z.ZodType>(item: T) =>
  z.preprocess(
    (value) =>
      typeof value === 'string'
        ? value
            .split(',')
            .map((v) => v.trim())
            .filter(Boolean)
        : value,
    z.array(item).min(1, { error: 'Give at least one value.' }).max(200),
  );

/** A positive integer id in a query string. */
export const queryId = z.coerce.number().int().positive();

/** A millisecond timestamp in a query string. */
export const queryMillis = z.coerce.number().int().min(0).max(8_640_000_000_000_000);

/** `true`/`false` (also `1`/`0`, `True`/`False`) in a query string. */
export const queryBool = z
  .enum(['true', 'false', 'True', 'False', '1', '0'])
  .transform((v) => v === 'true' || v === 'True' || v === '1');

/** The language of localised titles (spec 000 §7). */
export const LanguageSchema = z.enum(['ru', 'en']);
export type Language = z.infer<typeof LanguageSchema>;

/** Free-text search, trimmed; empty means no search. */
export const searchText = z
  .string()
  .max(200)
  .transform((v) => v.trim());
