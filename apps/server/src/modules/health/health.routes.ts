import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HealthSchema } from '@soc/contracts';
import type { Database } from '../../db/client.ts';

/** Liveness (`/healthz`: the process answers) and readiness (`/readyz`: the database answers). */
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
