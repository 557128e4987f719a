import { requestContext } from '@fastify/request-context';
import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import type { Config } from '../core/config.ts';

/** Paths whose values must never reach the logs. */
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.old_password',
  '*.refresh',
  '*.access',
  '*.otp',
  '*.mfa_token',
  // the S3 settings (config.storage.s3), should a line ever carry them
  '*.secretAccessKey',
  '*.s3.secretAccessKey',
];

/**
 * The request as logged: the URL without secrets carried in the query (the events stream's
 * ticket), otherwise what Fastify logs by default.
 */
function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: request.url.replace(/([?&]ticket=)[^&]*/g, '$1[redacted]'),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * The request id on a line written while a request runs through a logger that does not carry it
 * already (the app's logger, used by services and integrations; the request's own has `reqId`).
 */
function requestIdMixin(_merge: object, _level: number, logger: { bindings(): Record<string, unknown> }) {
  const reqId = requestContext.get('requestId');
  return reqId === undefined || 'reqId' in logger.bindings() ? {} : { reqId };
}

/**
 * Fastify's logger options: the configured level, secrets redacted, every line of a request
 * with its id, to `stream` when given.
 */
export function loggerOptions(
  config: Config,
  stream?: { write(line: string): void },
): FastifyServerOptions['logger'] {
  if (config.logLevel === 'silent') return false;
  return {
    level: config.logLevel,
    redact: REDACT,
    serializers: { req: serializeRequest },
    mixin: requestIdMixin,
    ...(stream ? { stream } : {}),
  };
}
