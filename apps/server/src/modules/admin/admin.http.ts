import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { DetailErrorSchema, FieldErrorsSchema } from '@soc/contracts';
import { requireRole } from '../../lib/request-auth.ts';
import type { AdminCaller } from './admin-caller.ts';

/** What the admin API's route files share: parameters, error answers and the caller. */
export const IdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
export const UuidParams = z.object({ id: z.guid() });
export const errors = {
  400: FieldErrorsSchema,
  401: DetailErrorSchema,
  403: DetailErrorSchema,
  404: DetailErrorSchema,
};
export const noContent = { 204: z.null(), ...errors };

export const caller = (request: FastifyRequest): AdminCaller => {
  const auth = requireRole(request, 'admin');
  return { userId: auth.userId, tokenId: auth.tokenId ?? null, ip: request.ip };
};
