// Traces (OpenTelemetry), off unless OTEL_EXPORTER_OTLP_ENDPOINT is set. Loaded before the
// server with `node --import ./apps/server/dist/telemetry.js apps/server/dist/main.js`: the
// instrumentations must be in place before `pg` and `http` are first loaded, which a module of
// the server's own import graph cannot be (README.md, "Traces"). Without the endpoint this
// module loads nothing of OpenTelemetry.
import { channel } from 'node:diagnostics_channel';
import type { Span, Tracer } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';

/** Where a started telemetry leaves its tracer for `traced` (lib code must not import the SDK). */
export const TRACER_KEY = Symbol.for('soc-portal.tracer');

export interface Telemetry {
  /** Exports every span ended so far. */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

type TelemetryGlobal = typeof globalThis & { [TRACER_KEY]?: Tracer };

/**
 * Starts tracing when `env.OTEL_EXPORTER_OTLP_ENDPOINT` is set: incoming HTTP (named by the
 * route template), PostgreSQL (`pg`), outbound HTTP (`http`, `fetch`/undici) and the spans of
 * `traced` (one per job run), exported by OTLP/HTTP. The SDK reads the other standard settings
 * itself (`OTEL_SERVICE_NAME`, `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_TRACES_SAMPLER`, …).
 */
export async function startTelemetry(env: NodeJS.ProcessEnv = process.env): Promise<Telemetry | undefined> {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT) return undefined;
  // ES modules are instrumented through a loader hook, registered before anything loads them
  const { register } = await import('node:module');
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  const [sdkNode, exporter, httpInst, pgInst, undiciInst, core, api] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-pg'),
    import('@opentelemetry/instrumentation-undici'),
    import('@opentelemetry/core'),
    import('@opentelemetry/api'),
  ]);
  const spanProcessor = new sdkNode.tracing.BatchSpanProcessor(new exporter.OTLPTraceExporter());
  const sdk = new sdkNode.NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME || 'soc-portal',
    spanProcessors: [spanProcessor],
    instrumentations: [
      new httpInst.HttpInstrumentation({
        // the health probes would be most of the spans
        ignoreIncomingRequestHook: (request) => request.url === '/healthz' || request.url === '/readyz',
      }),
      // statement text without parameter values (they may be personal data)
      new pgInst.PgInstrumentation({ enhancedDatabaseReporting: false }),
      new undiciInst.UndiciInstrumentation(),
    ],
  });
  sdk.start();
  // the incoming request's span takes the route template (never the raw URL) as its name
  channel('fastify.initialization').subscribe((message) => {
    const { fastify } = message as { fastify: FastifyInstance };
    fastify.addHook('onRequest', (request, _reply, done) => {
      const metadata = core.getRPCMetadata(api.context.active());
      const route = request.routeOptions.url;
      if (metadata?.type === core.RPCType.HTTP && route) metadata.route = route;
      done();
    });
  });
  (globalThis as TelemetryGlobal)[TRACER_KEY] = api.trace.getTracer('soc-portal');
  return {
    flush: () => spanProcessor.forceFlush(),
    shutdown: () => sdk.shutdown(),
  };
}

/** The tracer of a started telemetry, or undefined (traces off). */
export const activeTracer = (): Tracer | undefined => (globalThis as TelemetryGlobal)[TRACER_KEY];

/** Runs `fn` in a span named `name` when traces are on; otherwise just runs it. */
export function traced<T>(
  name: string,
  attributes: Record<string, string | number>,
  fn: () => Promise<T>,
): Promise<T> {
  const tracer = activeTracer();
  if (!tracer) return fn();
  return tracer.startActiveSpan(name, { attributes }, async (span: Span) => {
    try {
      return await fn();
    } catch (err) {
      span.recordException(err instanceof Error ? err : String(err));
      span.setStatus({ code: 2 /* SpanStatusCode.ERROR */ });
      throw err;
    } finally {
      span.end();
    }
  });
}
