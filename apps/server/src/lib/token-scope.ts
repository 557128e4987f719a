import type { FastifyRequest } from 'fastify';
import type { AuthContext } from '../core/auth.ts';
import { requireAuth } from './request-auth.ts';
import { forbidden } from './http-errors.ts';
import { localized } from './messages.ts';

/** The answer to a system-limited token that tries to change an object every system shares. */
export const SCOPED_TOKEN_GLOBAL_WRITE = {
  en: 'An API token limited to some systems cannot create, change or delete objects that every system shares.',
  ru: 'API-токен, ограниченный частью систем, не может создавать, изменять и удалять объекты, общие для всех систем.',
} as const;

/**
 * The caller of a route that creates, changes or deletes an object every tenant sees (link
 * templates for all systems, rules, documents, administration): refused with 403 when the
 * credential is an API token limited to some systems, since the change would reach the others.
 */
export function requireUnscoped(request: FastifyRequest): AuthContext {
  const auth = requireAuth(request);
  if (auth.tokenSystemIds?.length) throw forbidden(localized(SCOPED_TOKEN_GLOBAL_WRITE));
  return auth;
}
