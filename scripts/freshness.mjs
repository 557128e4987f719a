// Decides whether a build output is older than the sources it was made from.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const SKIP = new Set(['node_modules', 'dist', '.git', 'coverage']);

/** Newest modification time (ms) among the files under the given paths. */
export function newestMtime(paths) {
  let newest = 0;
  const walk = (p) => {
    if (!existsSync(p)) return;
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const entry of readdirSync(p)) if (!SKIP.has(entry)) walk(path.join(p, entry));
    } else if (st.mtimeMs > newest) newest = st.mtimeMs;
  };
  paths.forEach(walk);
  return newest;
}

/** True when `output` is missing or older than any file under `sources`. */
export function isStale(output, sources) {
  return !existsSync(output) || statSync(output).mtimeMs < newestMtime(sources);
}

export const WEB_OUTPUT = 'apps/web/dist/version.json';
export const WEB_SOURCES = [
  'apps/web/src',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/public',
  'packages/contracts/src',
  'CHANGELOG.md',
  'package-lock.json',
];
export const SERVER_OUTPUT = 'apps/server/dist/main.js';
export const SERVER_SOURCES = [
  'apps/server/src',
  'apps/server/build.mjs',
  'packages/contracts/src',
  'package-lock.json',
];
