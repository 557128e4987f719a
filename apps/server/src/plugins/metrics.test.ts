import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createTestContext } from '../test/harness.ts';
import type { TestContext } from '../test/harness.ts';

const TOKEN = 'metrics-token-metrics-token-metrics-token';
const ROOT = path.resolve(import.meta.dirname, '../../../..');

/** A port nothing listens on now (the metrics listener takes it when the app listens). */
const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/** The metric families of an exposition text (from its `# TYPE` lines), with their types. */
const families = (text: string) =>
  new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1]!, m[2]!] as const));

/** Every metric name a PromQL expression names (label names, functions and keywords are not). */
function metricNames(expr: string): string[] {
  const withoutLabels = expr
    .replace(/\{[^}]*\}/g, '')
    .replace(/"[^"]*"/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b\d+(\.\d+)?(e[-+]?\d+)?\b/gi, '');
  const words =
    withoutLabels.match(/[a-zA-Z_:][a-zA-Z0-9_:]*(?=\s*(?:\{|\[|\)|$|\s|[<>=!]|\/|\*|\+|-))/g) ?? [];
  const notMetrics = new Set([
    'sum',
    'max',
    'min',
    'avg',
    'rate',
    'increase',
    'by',
    'on',
    'and',
    'or',
    'unless',
    'le',
    'histogram_quantile',
    'clamp_min',
    'route',
    'instance',
    'state',
    'type',
    'result',
    'cache',
    'reason',
    'job',
    'label_values',
  ]);
  return [...new Set(words.filter((w) => !notMetrics.has(w) && !/^\d/.test(w)))];
}

describe('GET /metrics on the main port', () => {
  let off: TestContext;
  let ctx: TestContext;
  beforeAll(async () => {
    [off, ctx] = await Promise.all([
      createTestContext({ incidents: 0 }),
      createTestContext({
        incidents: 0,
        config: { metrics: { port: undefined, host: '127.0.0.1', token: TOKEN } },
      }),
    ]);
  });
  afterAll(() => Promise.all([off.close(), ctx.close()]));

  it('is not served without METRICS_TOKEN or METRICS_PORT', async () => {
    const res = await off.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(404);
  });

  it('answers 401 without the token or with another one', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${TOKEN}x`, TOKEN]) {
      const res = await ctx.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode).toBe(401);
      expect(res.body).not.toContain('soc_portal_');
    }
  });

  it('counts answers by route template, method and status, never by the raw URL', async () => {
    await ctx.app.inject({ method: 'GET', url: '/api/v0/soc/incs/987654/' });
    await ctx.app.inject({ method: 'GET', url: '/api/v0/nowhere/987655/' });
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toMatch(
      /^soc_portal_http_request_duration_seconds_count\{route="\/api\/v0\/soc\/incs\/:key\/",method="GET",status_code="401"\} 1$/m,
    );
    expect(res.body).toMatch(
      /^soc_portal_http_request_duration_seconds_count\{route="unmatched",method="GET",status_code="404"\} \d+$/m,
    );
    expect(res.body).not.toContain('98765');
    // the job queue is read at scrape time, also on the embedded database
    expect(res.body).toMatch(/^soc_portal_jobs_oldest_queued_age_seconds \d/m);
    expect(res.body).toMatch(/^process_cpu_seconds_total /m);
    // the pool's gauges on PostgreSQL (the embedded database has no pool)
    if (process.env.TEST_DB_DRIVER === 'pg')
      expect(res.body).toMatch(/^soc_portal_db_pool_connections\{state="max"\} 4$/m);
  });

  it('names in the Grafana dashboard and the alert rules only metrics that exist', async () => {
    const dashboard = JSON.parse(readFileSync(path.join(ROOT, 'deploy/grafana-dashboard.json'), 'utf8')) as {
      panels: { title: string; targets: { expr: string }[] }[];
      templating: { list: { query?: unknown }[] };
    };
    const rules = parse(readFileSync(path.join(ROOT, 'deploy/prometheus-alerts.yaml'), 'utf8')) as {
      groups: { rules: { alert: string; expr: string }[] }[];
    };
    const expressions = [
      ...dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr)),
      ...rules.groups.flatMap((g) => g.rules.map((r) => r.expr)),
    ];
    expect(rules.groups.flatMap((g) => g.rules.map((r) => r.alert))).toEqual(
      expect.arrayContaining([
        'SocPortalInstanceDown',
        'SocPortalHigh5xxRatio',
        'SocPortalSlowAnswers',
        'SocPortalJobQueueStalled',
        'SocPortalPoolSaturated',
        'SocPortalStorageErrors',
      ]),
    );
    await ctx.app.inject({ method: 'GET', url: '/healthz' });
    const text = (
      await ctx.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })
    ).body;
    const known = families(text);
    const named = [...new Set(expressions.flatMap(metricNames))];
    expect(named.length).toBeGreaterThan(10);
    const missing = named.filter((name) => {
      // Prometheus's own series of every scrape target
      if (name === 'up') return false;
      const base = name.replace(/_(bucket|sum|count)$/, '');
      return !(known.has(name) || (known.get(base) === 'histogram' && base !== name));
    });
    expect(missing).toEqual([]);
  });
});

describe('the metrics listener (METRICS_PORT)', () => {
  let ctx: TestContext;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    ctx = await createTestContext({
      incidents: 0,
      config: { metrics: { port, host: '127.0.0.1', token: undefined } },
    });
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => ctx.close());

  it('serves /metrics on its own port once the app listens, and nothing else', async () => {
    const main = `http://127.0.0.1:${(ctx.app.server.address() as { port: number }).port}`;
    await fetch(`${main}/healthz`);
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(
      /^soc_portal_http_request_duration_seconds_count\{route="\/healthz",method="GET",status_code="200"\} \d+$/m,
    );
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(404);
    // not on the public port without a token
    expect((await fetch(`${main}/metrics`)).status).toBe(404);
  });
});
