import type { FastifyBaseLogger } from 'fastify';

/**
 * What a new instance does before it takes its share of the load (issue 31): open its pool,
 * read its reference data, fill what every first request would otherwise wait for. Each step
 * runs once, all at the same time, after the server listens; `/readyz` answers 503 naming the
 * steps still running or failed, and 200 once every step has ended well. A failed step is logged
 * with its reason and tried again after `retryMs` (doubling up to `maxRetryMs`), so an instance
 * started while its database was down becomes ready once it is back, without a restart.
 */
export interface Readiness {
  /** Adds a step; steps added after `start()` run at once (once the prerequisites have ended well). */
  add(name: string, run: () => Promise<void>): void;
  /**
   * Adds a step that the others wait for (main.ts: `database`, reached and migrated): the
   * prerequisites run one after another, each tried again as a step is, before any other step.
   */
  addPrerequisite(name: string, run: () => Promise<void>): void;
  /** Runs the steps (the first call only); resolves once each has ended well. */
  start(): Promise<void>;
  /** The steps not ended well yet (and whether `start()` was called). */
  state(): ReadinessState;
  /** Stops retrying failed steps (the app closes). */
  stop(): void;
}

export interface ReadinessState {
  started: boolean;
  /** Steps running or waiting to run (a failed one too, between its tries). */
  pending: string[];
  /** Steps whose last try failed. */
  failed: string[];
}

export interface ReadinessOptions {
  log: FastifyBaseLogger;
  retryMs?: number;
  maxRetryMs?: number;
}

interface Step {
  name: string;
  run: () => Promise<void>;
  status: 'waiting' | 'running' | 'failed' | 'done';
  done: Promise<void>;
  resolve: () => void;
}

export function createReadiness({ log, retryMs = 2_000, maxRetryMs = 30_000 }: ReadinessOptions): Readiness {
  const steps: Step[] = [];
  const prerequisites: Step[] = [];
  let started = false;
  let stopped = false;
  let prepared = false;
  const timers = new Set<NodeJS.Timeout>();
  const all = () => [...prerequisites, ...steps];

  const attempt = (step: Step, delayMs: number): void => {
    if (stopped) return;
    step.status = 'running';
    const startedAt = performance.now();
    // a step runs after the current tick, so that a caller of start() is never held by one
    void Promise.resolve()
      .then(() => step.run())
      .then(
        () => {
          step.status = 'done';
          log.info({ step: step.name, ms: Math.round(performance.now() - startedAt) }, 'warm-up step done');
          step.resolve();
        },
        (err: unknown) => {
          step.status = 'failed';
          log.warn(
            { step: step.name, err, retryInMs: delayMs },
            `warm-up step "${step.name}" failed; not ready, trying again`,
          );
          if (stopped) return;
          const timer = setTimeout(() => {
            timers.delete(timer);
            attempt(step, Math.min(delayMs * 2, maxRetryMs));
          }, delayMs);
          timer.unref();
          timers.add(timer);
        },
      );
  };

  const newStep = (name: string, run: () => Promise<void>): Step => {
    let resolve!: () => void;
    const done = new Promise<void>((r) => (resolve = r));
    return { name, run, status: 'waiting', done, resolve };
  };
  /** The prerequisites in turn (those added meanwhile too), then every other step at once. */
  const prepare = async () => {
    for (let i = 0; i < prerequisites.length; i++) {
      const step = prerequisites[i]!;
      attempt(step, retryMs);
      await step.done;
    }
    prepared = true;
    for (const step of steps) attempt(step, retryMs);
  };

  return {
    add(name, run) {
      const step = newStep(name, run);
      steps.push(step);
      if (prepared) attempt(step, retryMs);
    },
    addPrerequisite(name, run) {
      if (prepared) throw new Error(`Prerequisite "${name}" added after the others started`);
      prerequisites.push(newStep(name, run));
    },
    async start() {
      if (!started) {
        started = true;
        void prepare();
      }
      // steps added meanwhile are awaited too
      for (let count = 0; count !== all().length;) {
        count = all().length;
        await Promise.all(all().map((s) => s.done));
      }
    },
    state() {
      return {
        started,
        pending: all()
          .filter((s) => s.status !== 'done')
          .map((s) => s.name),
        failed: all()
          .filter((s) => s.status === 'failed')
          .map((s) => s.name),
      };
    },
    stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
