import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HealthSchema } from '@soc/contracts';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import type { FileStorage } from '../../integrations/storage/file-storage.ts';
import type { Readiness } from './readiness.ts';

/**
 * Liveness (`/healthz`: the process answers) and readiness (`/readyz`: the database was reached
 * and migrated, the warm-up has ended and the database answers). They take no parameters and
 * refuse unknown ones with 400, as every route does (issue 29).
 *
 * `/readyz` also reports the file storage and Redis, without answering 503 for them: every
 * instance shares the same bucket (or folder) and Redis, so taking an instance out of the load
 * balancer would take them all out, turning an outage of files (uploads and downloads answer 503
 * meanwhile) or of shared rate limits (each instance counts alone meanwhile) into one of the
 * whole portal.
 */
const NoQuery = z.strictObject({});

/** How long `/readyz` waits for the storage's answer (a probe is itself given a few seconds). */
const STORAGE_CHECK_MS = 2_000;

export const healthRoutes: FastifyPluginAsyncZod<{
  database: Database;
  readiness: Readiness;
  storage: FileStorage;
}> = async (app, { database, readiness, storage }) => {
  app.get(
    '/healthz',
    {
      config: { public: true },
      logLevel: 'warn',
      schema: {
        operationId: 'getHealth',
        tags: ['health'],
        summary: 'Liveness: the process answers',
        querystring: NoQuery,
        response: { 200: HealthSchema },
      },
    },
    async () => ({ status: 'ok' as const }),
  );
  app.get(
    '/readyz',
    {
      config: { public: true },
      logLevel: 'warn',
      schema: {
        operationId: 'getReadiness',
        tags: ['health'],
        summary: 'Readiness: warmed up and the database answers (503, naming what is not ready, while not)',
        description:
          'Ready once a started instance has reached and migrated its database and ended its warm-up ' +
          '(its pool open, its reference data read), and while the database answers: the probe of a ' +
          'load balancer or orchestrator. The file storage and Redis (with REDIS_URL) are reported ' +
          'but do not make it 503: every instance shares them.',
        querystring: NoQuery,
        response: { 200: HealthSchema, 503: HealthSchema },
      },
    },
    async (_request, reply) => {
      const state = (check: Promise<unknown>) =>
        check.then(
          () => 'ok' as const,
          () => 'unavailable' as const,
        );
      const [databaseState, storageState] = await Promise.all([
        state(database.ping()),
        state(storage.check(STORAGE_CHECK_MS)),
      ]);
      const redis = app.redisState();
      const components = {
        database: databaseState,
        storage: storageState,
        ...(redis ? { redis } : {}),
      };
      // before the warm-up was started every step is still waiting
      const { started, pending, failed } = readiness.state();
      if (databaseState === 'ok' && started && pending.length === 0) {
        return { status: 'ok' as const, ...components };
      }
      return reply.status(503).send({ status: 'unavailable', ...components, warming_up: pending, failed });
    },
  );
};
