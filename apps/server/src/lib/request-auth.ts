import type { FastifyRequest } from 'fastify';
import type { Role } from '@soc/contracts';
import type { AuthContext } from '../core/auth.ts';
import { forbidden, unauthorized } from './http-errors.ts';

/** The caller of a route that requires sign-in (the hook has already refused anonymous calls). */
export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized();
  return request.auth;
}

export function requireRole(request: FastifyRequest, ...roles: Role[]): AuthContext {
  const auth = requireAuth(request);
  if (!roles.includes(auth.role)) throw forbidden();
  return auth;
}
