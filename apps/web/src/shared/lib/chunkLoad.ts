import { CHUNK_TIMEOUT_MS } from '@soc/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { createElement, lazy, useState, type ComponentType } from 'react';

/**
 * What a page module may export as `prefetchPage`: sends the requests of the page's first screen
 * for the address `url`, into `client`'s cache, as soon as the module arrives on a full load of
 * that address (app/router/routes.tsx), so that they no longer wait for the shell and the page
 * to render. Only called for a restored session; a key that differs from the page's is a request
 * for nothing, never a wrong screen.
 */
export type PagePrefetch = (client: QueryClient, url: URL) => void;

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
 * Modules of lazily loaded parts that have arrived, by their loader. A page whose module is here
 * renders at once instead of suspending: a suspended page shows its fallback, and React reveals
 * what replaces a fallback at the earliest 300 ms after it (its throttle of Suspense retries),
 * which a page preloaded while the session was restored would wait for for nothing.
 */
const arrived = new WeakMap<() => Promise<unknown>, unknown>();

/** Starts (or joins: a dynamic import is loaded once) the import of `load`, and keeps its module. */
export function preloadModule<T>(load: () => Promise<T>): Promise<T> {
  return load().then((module) => {
    arrived.set(load, module);
    return module;
  });
}

/** The props of a component type. */
type PropsOf<C> = C extends ComponentType<infer P extends object> ? P : never;

/**
 * React.lazy for a named export: `lazyPage(() => import('./LoginPage.tsx'), 'LoginPage')`.
 * Failures surface as ChunkLoadError to the nearest error boundary. Once the module has arrived
 * (through `preloadModule` or an earlier render), the page renders without suspending.
 */
export function lazyPage<Module extends Record<Name, ComponentType<never>>, Name extends string>(
  load: () => Promise<Module>,
  exportName: Name,
  timeoutMs?: number,
): ComponentType<PropsOf<Module[Name]>> {
  type Props = PropsOf<Module[Name]>;
  const Lazy = lazy<ComponentType<Props>>(async () => {
    const module = await importWithTimeout(() => preloadModule(load), exportName, timeoutMs);
    return { default: module[exportName] as ComponentType<Props> };
  });
  function LazyPage(props: Props) {
    // decided once per mount: changing from the lazy wrapper to the component would remount it
    const [loaded] = useState(() => arrived.get(load) as Module | undefined);
    return createElement<Props>(loaded ? (loaded[exportName] as ComponentType<Props>) : Lazy, props);
  }
  LazyPage.displayName = `LazyPage(${exportName})`;
  return LazyPage;
}
