import { isMap, parseAllDocuments } from 'yaml';

/**
 * The YAML step of the Sigma import: text → the first document as plain data. Kept apart from the
 * mapping (rules.sigma.ts) because it runs in a worker thread (rules.yaml-reader.ts): a hostile
 * file can make the YAML parser work for seconds or minutes, which must not stop the event loop.
 * Imports nothing but `yaml`, and answers only data a worker can post (no messages, no classes).
 */
export type YamlRead =
  /** `documents` in the file; the first one's data */
  | { ok: true; documents: number; doc: Record<string, unknown> }
  /** `invalid` is the parser's reason; null when the first document is not a mapping */
  | { ok: false; invalid: string | null };

const reason = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function readSigmaYaml(text: string): YamlRead {
  let docs;
  try {
    docs = parseAllDocuments(text, { uniqueKeys: true });
  } catch (err) {
    return { ok: false, invalid: reason(err) };
  }
  if (!Array.isArray(docs)) return { ok: false, invalid: null };
  const problem = docs.flatMap((d) => d.errors)[0];
  if (problem) return { ok: false, invalid: problem.message.split('\n')[0]! };
  if (docs.length === 0 || !isMap(docs[0]!.contents)) return { ok: false, invalid: null };
  try {
    // aliases are expanded at most 50 times: a "billion laughs" document stays small
    const doc = docs[0]!.toJS({ maxAliasCount: 50 }) as Record<string, unknown>;
    return { ok: true, documents: docs.length, doc };
  } catch (err) {
    return { ok: false, invalid: reason(err) };
  }
}

/** Nesting a Sigma rule never needs: real rules stay under 10 levels. */
export const SIGMA_MAX_NESTING = 64;

/**
 * The cheap check before parsing, one pass over the text: the deepest nesting of flow collections
 * (`[`, `{`, outside quoted scalars and comments) and of block sequences written on one line
 * (`- - - x`). Deep nesting is what makes the parser slow (400 KB of `[` took 3.6 s), so a file
 * over `max` is refused without being parsed. A conservative count: brackets inside plain scalars
 * count too, which real rules do not reach `max` with.
 */
export function nestingDepth(text: string): number {
  let deepest = 0;
  let flow = 0;
  let quote: '"' | "'" | null = null;
  let lineStart = true;
  let dashes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '\n') {
      lineStart = true;
      dashes = 0;
      continue;
    }
    if (lineStart) {
      if (c === ' ' || c === '\t') continue;
      if ((c === '-' || c === '?') && (text[i + 1] === ' ' || text[i + 1] === '\t')) {
        dashes++;
        deepest = Math.max(deepest, dashes);
        i++;
        continue;
      }
      lineStart = false;
    }
    if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) {
      const end = text.indexOf('\n', i);
      if (end < 0) break;
      i = end - 1;
    } else if ((c === '"' || c === "'") && (i === 0 || /[\s[{,:]/.test(text[i - 1]!))) quote = c;
    else if (c === '[' || c === '{') deepest = Math.max(deepest, ++flow + dashes);
    else if ((c === ']' || c === '}') && flow > 0) flow--;
  }
  return deepest;
}
