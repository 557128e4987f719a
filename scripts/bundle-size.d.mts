// Types of scripts/bundle-size.mjs for the TypeScript tests that import it.

/** One built file: raw and gzip -9 sizes in bytes. */
export interface MeasuredFile {
  file: string;
  raw: number;
  gzip: number;
}

export interface BundleMeasurement {
  /** index.html's script, its preloads and their static imports. */
  initial: MeasuredFile[];
  /** Per language: what its pack adds beyond the initial chunks. */
  languages: Record<string, MeasuredFile[]>;
  /** The language whose pack is counted (the heaviest). */
  heaviestLanguage: string | null;
  /** Bytes of gzip: initial + the heaviest language. */
  totalGzip: number;
  totalRaw: number;
  lazy: { count: number; gzip: number };
}

export const BUDGET_KB: number;
export function staticImports(code: string): string[];
export function measureBundle(dist: string): BundleMeasurement;
export function formatReport(result: BundleMeasurement, budgetKb?: number): string;
