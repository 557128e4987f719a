import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { API_BASE } from '@soc/contracts';

/**
 * Gives every API route handler the name of its operation (the OpenAPI `operationId`), so that a
 * stack trace, a CPU profile and the error log name `listTasks` rather than an anonymous arrow
 * inside a routes file. An API route without an operationId is refused when it is added: every
 * operation has a name in the API reference, and the name is what a reader searches for.
 */
export function nameRouteHandler(route: Pick<RouteOptions, 'url' | 'method' | 'schema' | 'handler'>): void {
  const operationId = route.schema?.operationId;
  if (!operationId) {
    if (route.url.startsWith(`${API_BASE}/`))
      throw new Error(`${String(route.method)} ${route.url}: an API route needs schema.operationId`);
    return;
  }
  // Fastify adds the HEAD route of a GET with the same handler: renaming again is harmless
  Object.defineProperty(route.handler, 'name', { value: operationId, configurable: true });
}

/** Registered before the modules, so that its hook sees each of their routes as it is added. */
export const operationNamesPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onRoute', nameRouteHandler);
});
