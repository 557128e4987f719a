import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import type { Config } from '../config.ts';

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

/** Fastify's logger options: the configured level, secrets redacted, to `stream` when given. */
export function loggerOptions(
  config: Config,
  stream?: { write(line: string): void },
): FastifyServerOptions['logger'] {
  if (config.logLevel === 'silent') return false;
  return {
    level: config.logLevel,
    redact: REDACT,
    serializers: { req: serializeRequest },
    ...(stream ? { stream } : {}),
  };
}
