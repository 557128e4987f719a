import { CHUNK_TIMEOUT_MS } from '@soc/contracts';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * Why a lazily loaded part of the app could not be loaded:
 * - `missing`: the chunk file is gone (usually a redeploy replaced it) or the fetch failed;
 * - `timeout`: it did not arrive within CHUNK_TIMEOUT_MS;
 * - `other`: it arrived but failed while evaluating.
 */
export type ChunkFailure = 'missing' | 'timeout' | 'other';

/** Rejection of a lazy import, classified for the ChunkLoadError screen. */
export class ChunkLoadError extends Error {
  readonly failure: ChunkFailure;

  constructor(failure: ChunkFailure, chunkName: string, cause?: unknown) {
    super(`Loading chunk "${chunkName}" failed (${failure})`, cause === undefined ? undefined : { cause });
    this.name = 'ChunkLoadError';
    this.failure = failure;
  }
}

// Messages browsers use when a dynamic import cannot be fetched (Chromium, Firefox, Safari).
const MISSING_PATTERNS = [
  /failed to fetch dynamically imported module/i,
  /error loading dynamically imported module/i,
  /importing a module script failed/i,
  /unable to preload css/i,
  /loading (css )?chunk .* failed/i,
];

/** Classifies an import() rejection. */
export function classifyChunkError(error: unknown): Exclude<ChunkFailure, 'timeout'> {
  const message = error instanceof Error ? error.message : String(error);
  return MISSING_PATTERNS.some((pattern) => pattern.test(message)) ? 'missing' : 'other';
}

/**
 * Runs a dynamic import with a time limit (product §A7: 120 s) and turns any failure into a
 * ChunkLoadError.
 */
export function importWithTimeout<T>(
  load: () => Promise<T>,
  chunkName: string,
  timeoutMs: number = CHUNK_TIMEOUT_MS,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError('timeout', chunkName)), timeoutMs);
    load().then(
      (module) => {
        clearTimeout(timer);
        resolve(module);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(
          error instanceof ChunkLoadError
            ? error
            : new ChunkLoadError(classifyChunkError(error), chunkName, error),
        );
      },
    );
  });
}

/**
 * React.lazy for a named export: `lazyPage(() => import('./LoginPage.tsx'), 'LoginPage')`.
 * Failures surface as ChunkLoadError to the nearest error boundary.
 */
export function lazyPage<Props extends object, Name extends string>(
  load: () => Promise<Record<Name, ComponentType<Props>>>,
  exportName: Name,
  timeoutMs?: number,
): LazyExoticComponent<ComponentType<Props>> {
  return lazy(async () => {
    const module = await importWithTimeout(load, exportName, timeoutMs);
    return { default: module[exportName] };
  });
}
