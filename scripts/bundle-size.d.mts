// Types of scripts/bundle-size.mjs for the TypeScript tests that import it.

/** One built file: raw, gzip -9 and Brotli (the build's `.br` copy) sizes in bytes. */
export interface MeasuredFile {
  file: string;
  raw: number;
  gzip: number;
  brotli: number;
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
  /** Bytes of Brotli: initial + the heaviest language. */
  totalBrotli: number;
  totalRaw: number;
  lazy: { count: number; gzip: number; brotli: number };
}

export const BUDGET_KB: number;
export const BROTLI_BUDGET_KB: number;
export function withinBudgets(result: BundleMeasurement, budgetKb?: number, brotliBudgetKb?: number): boolean;
export function staticImports(code: string): string[];
export function measureBundle(dist: string): BundleMeasurement;
export function formatReport(result: BundleMeasurement, budgetKb?: number, brotliBudgetKb?: number): string;
