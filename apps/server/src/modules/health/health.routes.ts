import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HealthSchema } from '@soc/contracts';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';

/**
 * Liveness (`/healthz`: the process answers) and readiness (`/readyz`: the database answers). They
 * take no parameters and refuse unknown ones with 400, as every route does (issue 29).
 */
const NoQuery = z.strictObject({});

export const healthRoutes: FastifyPluginAsyncZod<{ database: Database }> = async (app, { database }) => {
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
        summary: 'Readiness: the database answers (503 while it does not)',
        querystring: NoQuery,
        response: { 200: HealthSchema, 503: HealthSchema },
      },
    },
    async (_request, reply) => {
      try {
        await database.ping();
        return { status: 'ok' as const, database: 'ok' as const };
      } catch {
        return reply.status(503).send({ status: 'unavailable', database: 'unavailable' });
      }
    },
  );
};
