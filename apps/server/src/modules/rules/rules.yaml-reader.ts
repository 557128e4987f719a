import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { WorkerOptions } from 'node:worker_threads';
import { Worker } from 'node:worker_threads';
import type { YamlRead } from './rules.sigma-yaml.ts';

/** Bounds of the YAML step of one import (issue 37 item 2). */
export interface YamlReadLimits {
  /** Time one file may take to parse; the worker is then stopped. */
  fileMs: number;
  /** Time all the files of one import may take together. */
  totalMs: number;
  /** Heap of the worker (V8 old generation); past it the worker is stopped. */
  heapMb: number;
}
export const YAML_READ_LIMITS: YamlReadLimits = { fileMs: 2_000, totalMs: 120_000, heapMb: 256 };

/** Why a file stopped the import: it took too long or too much memory to parse. */
export class YamlReadAborted extends Error {
  constructor(
    readonly file: string,
    readonly reason: 'time' | 'memory',
    /** The limit (of the file or of the import) it ran past, when it ran out of time. */
    readonly ms = 0,
  ) {
    super(`${file}: parsing took too much ${reason}`);
  }
}

/**
 * The worker: the bundle `dist/sigma-yaml-worker.js` beside the built main.js, admin-cli.js and
 * demo-cli.js; from the TypeScript source (vitest, tsx) a small script that loads the source
 * through tsx (Node 20 applies no `--import` hooks of execArgv to a worker).
 */
function startWorker(options: WorkerOptions): Worker {
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./sigma-yaml-worker.js', import.meta.url), options);
  // the ESM build of tsx's API (require.resolve finds its CommonJS twin)
  const tsx = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const entry = new URL('./rules.yaml-worker.ts', import.meta.url).href;
  const script = `import(${JSON.stringify(tsx)}).then((m) => m.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(script, { ...options, eval: true });
}

/**
 * Parses the texts in a worker thread, one after another, so that the event loop keeps answering
 * other requests meanwhile (a hostile file made `/healthz` wait for seconds). A file past its time,
 * the import past its total time, or the worker past its heap stops the worker and rejects with
 * `YamlReadAborted` naming the file.
 */
export async function readYamlOffThread(
  files: readonly { name: string; text: string }[],
  limits: YamlReadLimits = YAML_READ_LIMITS,
): Promise<YamlRead[]> {
  if (!files.length) return [];
  const worker = startWorker({
    resourceLimits: {
      maxOldGenerationSizeMb: limits.heapMb,
      maxYoungGenerationSizeMb: 32,
      stackSizeMb: 4,
    },
  });
  try {
    await new Promise<void>((resolve, reject) => {
      worker.once('online', resolve);
      worker.once('error', reject);
    });
    const deadline = performance.now() + limits.totalMs;
    const out: YamlRead[] = [];
    for (const { name, text } of files) {
      const left = deadline - performance.now();
      // the limit named when the file runs out of time: its own, or what the import had left
      const limit = left < limits.fileMs ? limits.totalMs : limits.fileMs;
      out.push(await readOne(worker, name, text, Math.max(0, Math.min(limits.fileMs, left)), limit));
    }
    return out;
  } finally {
    await worker.terminate();
  }
}

function readOne(worker: Worker, name: string, text: string, ms: number, limit: number): Promise<YamlRead> {
  return new Promise<YamlRead>((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const onMessage = (read: YamlRead) => {
      done();
      resolve(read);
    };
    const onError = (err: Error & { code?: string }) => {
      done();
      reject(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new YamlReadAborted(name, 'memory') : err);
    };
    const onExit = () => {
      done();
      reject(new YamlReadAborted(name, 'memory'));
    };
    const timer = setTimeout(() => {
      done();
      reject(new YamlReadAborted(name, 'time', limit));
    }, ms);
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage(text);
  });
}
