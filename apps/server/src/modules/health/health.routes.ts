import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HealthSchema } from '@soc/contracts';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import type { Readiness } from './readiness.ts';

/**
 * Liveness (`/healthz`: the process answers) and readiness (`/readyz`: the warm-up has ended and
 * the database answers). They take no parameters and refuse unknown ones with 400, as every route
 * does (issue 29).
 */
const NoQuery = z.strictObject({});

export const healthRoutes: FastifyPluginAsyncZod<{ database: Database; readiness: Readiness }> = async (
  app,
  { database, readiness },
) => {
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
          'Ready once the warm-up of a started instance has ended (its pool open, its reference data read) ' +
          'and while the database answers: the probe of a load balancer or orchestrator.',
        querystring: NoQuery,
        response: { 200: HealthSchema, 503: HealthSchema },
      },
    },
    async (_request, reply) => {
      const databaseState = await database.ping().then(
        () => 'ok' as const,
        () => 'unavailable' as const,
      );
      // before the warm-up was started every step is still waiting
      const { started, pending, failed } = readiness.state();
      if (databaseState === 'ok' && started && pending.length === 0) {
        return { status: 'ok' as const, database: databaseState };
      }
      return reply
        .status(503)
        .send({ status: 'unavailable', database: databaseState, warming_up: pending, failed });
    },
  );
};
