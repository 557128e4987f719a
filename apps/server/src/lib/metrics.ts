import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The portal's Prometheus metrics (docs/operations.md lists each one and the alerts on them). One
 * registry per process: an instance is one process, so counters written anywhere in the server
 * (a line where the event happens) need no handle passed around. Gauges of things that several
 * apps of one process could own (tests build many) are read at scrape time from the sources the
 * apps register (`plugins/metrics.ts`).
 */
export const metricsRegistry = new Registry();

const PREFIX = 'soc_portal_';

let processMetrics = false;
/** Node's and the process's own metrics (CPU, memory, event loop lag, GC), once per process. */
export function collectProcessMetrics(): void {
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: metricsRegistry });
}

/** A counter of the portal's registry, named with its prefix. */
const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
  new Counter<L>({ name: `${PREFIX}${name}`, help, labelNames, registers: [metricsRegistry] });

/** Every answer by route template (never the raw URL), method and status; `_count` is the request count. */
export const httpRequestDuration = new Histogram({
  name: `${PREFIX}http_request_duration_seconds`,
  help: 'Time to answer a request, by route template, method and status',
  labelNames: ['route', 'method', 'status_code'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [metricsRegistry],
});

/** Live-event streams (server-sent events) open on this instance. */
export const eventStreamsOpen = new Gauge({
  name: `${PREFIX}event_streams_open`,
  help: 'Server-sent event streams open on this instance',
  registers: [metricsRegistry],
});

/** Answers of the in-memory caches, by cache and whether a kept answer served (`hit`). */
export const cacheRequests = counter(
  'cache_requests_total',
  'Requests to the in-memory answer caches, by cache and result (hit, miss)',
  ['cache', 'result'],
);

/** Webhook delivery attempts: `delivered` (2xx), `rejected` (another answer), `unreachable` (none). */
export const webhookDeliveries = counter(
  'webhook_deliveries_total',
  'Webhook delivery attempts, by result (delivered, rejected, unreachable)',
  ['result'],
);

/** Mail handed to the mail server (`sent`) or refused by it (`failed`; the job retries). */
export const mails = counter('mails_total', 'Mail sending attempts, by result (sent, failed)', ['result']);

/** File storage that failed the server (`unavailable`: S3 unreachable; `disk_full`: no space). */
export const storageErrors = counter(
  'storage_errors_total',
  'File storage failures, by reason (unavailable, disk_full)',
  ['reason'],
);

/** Job runs of this instance by type and outcome: `done`, `retry` (failed, queued again), `failed` (for good). */
export const jobRuns = counter(
  'job_runs_total',
  'Background job runs, by type and result (done, retry, failed)',
  ['type', 'result'],
);

/**
 * Counts `promise`'s outcome on `counter` (label `result`: `ok` or `failed`) and passes it on;
 * one line where an outbound call is made.
 */
export function countOutcome<T>(
  promise: Promise<T>,
  counter: Counter<'result'>,
  ok = 'sent',
  failed = 'failed',
): Promise<T> {
  return promise.then(
    (value) => {
      counter.inc({ result: ok });
      return value;
    },
    (err: unknown) => {
      counter.inc({ result: failed });
      throw err;
    },
  );
}

/** The result label of a webhook attempt's outcome. */
export const deliveryResult = (outcome: { statusCode: number | null; error: string | null }) =>
  outcome.error === null ? 'delivered' : outcome.statusCode === null ? 'unreachable' : 'rejected';
