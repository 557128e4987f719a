import { timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Gauge } from 'prom-client';
import type { Histogram } from 'prom-client';
import type { MetricsConfig } from '../core/config.ts';
import type { Database } from '../db/client.ts';
import { unauthorized } from '../lib/http-errors.ts';
import { collectProcessMetrics, httpRequestDuration, metricsRegistry } from '../lib/metrics.ts';
import { createMetricsRepository } from './metrics.repository.ts';

/** The databases of the apps of this process whose pool and job queue the gauges read at scrape time. */
const sources = new Set<Database>();

const PREFIX = 'soc_portal_';

new Gauge({
  name: `${PREFIX}db_pool_connections`,
  help: 'Connections of the PostgreSQL pool, by state (in_use, idle) and the pool size (max)',
  labelNames: ['state'] as const,
  registers: [metricsRegistry],
  collect() {
    this.reset();
    for (const database of sources) {
      const stats = database.poolStats?.();
      if (!stats) continue;
      this.inc({ state: 'in_use' }, stats.total - stats.idle);
      this.inc({ state: 'idle' }, stats.idle);
      this.inc({ state: 'max' }, stats.max);
    }
  },
});

new Gauge({
  name: `${PREFIX}db_pool_waiting`,
  help: 'Queries waiting for a connection of the PostgreSQL pool',
  registers: [metricsRegistry],
  collect() {
    this.reset();
    for (const database of sources) {
      const stats = database.poolStats?.();
      if (stats) this.inc(stats.waiting);
    }
  },
});

const jobsQueued = new Gauge({
  name: `${PREFIX}jobs_queued`,
  help: 'Background jobs due and waiting for a runner, by type',
  labelNames: ['type'] as const,
  registers: [metricsRegistry],
});
new Gauge({
  name: `${PREFIX}jobs_oldest_queued_age_seconds`,
  help: 'How long the oldest due job has waited for a runner (0: none waits)',
  registers: [metricsRegistry],
  // one statement for both gauges, read when this one is collected (the registry collects in order)
  async collect() {
    jobsQueued.reset();
    let oldest = 0;
    for (const database of sources) {
      const rows = await createMetricsRepository(database.db)
        .readJobQueue()
        .catch(() => []);
      for (const row of rows) {
        jobsQueued.inc({ type: row.type }, row.queued);
        oldest = Math.max(oldest, row.oldestSeconds);
      }
    }
    this.set(oldest);
  },
});

type Timer = Histogram.Internal<'route' | 'method' | 'status_code'>;
/** Children of the request histogram by route, method and status: no label object per request. */
const timers = new Map<string, Map<string, Map<number, Timer>>>();
function timerFor(route: string, method: string, status: number): Timer {
  let byMethod = timers.get(route);
  if (!byMethod) timers.set(route, (byMethod = new Map<string, Map<number, Timer>>()));
  let byStatus = byMethod.get(method);
  if (!byStatus) byMethod.set(method, (byStatus = new Map<number, Timer>()));
  let timer = byStatus.get(status);
  if (!timer) byStatus.set(status, (timer = httpRequestDuration.labels(route, method, String(status))));
  return timer;
}

/** A request that matched no route is counted under one name, never its URL. */
const UNMATCHED = 'unmatched';

function observeRequest(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  // a live-event stream lasts as long as the client stays: not an answer time
  if (reply.raw.getHeader('content-type') !== 'text/event-stream') {
    timerFor(request.routeOptions.url ?? UNMATCHED, request.method, reply.statusCode).observe(
      reply.elapsedTime / 1000,
    );
  }
  done();
}

const sameToken = (given: string | undefined, token: string): boolean => {
  const a = Buffer.from(given ?? '');
  const b = Buffer.from(`Bearer ${token}`);
  return a.length === b.length && timingSafeEqual(a, b);
};

const EXPOSITION = metricsRegistry.contentType;

/**
 * Prometheus metrics: the time of every answer by route template, method and status (an
 * `onResponse` hook), the pool and job-queue gauges of `database`, and the process metrics; served
 * only where configured (README.md, "Metrics"): on a listener of their own (`METRICS_PORT`,
 * loopback unless `METRICS_HOST` says otherwise, started when the app listens) and/or as GET
 * /metrics on the main port for the holder of `METRICS_TOKEN`. Neither set: nothing is measured
 * per request and nothing served.
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance, opts: { config: MetricsConfig; database: Database }) => {
    const { config, database } = opts;
    if (config.port === undefined && config.token === undefined) return;
    collectProcessMetrics();
    sources.add(database);
    app.addHook('onResponse', observeRequest);

    const { token } = config;
    if (token !== undefined) {
      app.get('/metrics', { schema: { hide: true }, config: { public: true } }, async (request, reply) => {
        if (!sameToken(request.headers.authorization, token)) throw unauthorized();
        const text = await metricsRegistry.metrics();
        return reply.header('cache-control', 'no-store').type(EXPOSITION).send(text);
      });
    }

    let server: Server | undefined;
    if (config.port !== undefined) {
      const { port, host } = config;
      app.addHook('onListen', async () => {
        server = createServer((request, response) => {
          if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
            response.writeHead(404).end();
            return;
          }
          metricsRegistry.metrics().then(
            (text) => response.writeHead(200, { 'content-type': EXPOSITION }).end(text),
            () => response.writeHead(500).end(),
          );
        });
        await new Promise<void>((resolve, reject) => {
          server!.once('error', reject);
          server!.listen(port, host, () => resolve());
        });
        app.log.info({ address: `http://${host}:${port}/metrics` }, 'metrics listening');
      });
    }
    app.addHook('onClose', async () => {
      sources.delete(database);
      if (server) await new Promise((resolve) => server!.close(resolve));
    });
  },
  { name: 'metrics' },
);
