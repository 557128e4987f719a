import type { FastifyError, FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DetailErrorSchema, FieldErrorsSchema } from '@soc/contracts';
import type { ErrorFields } from '../lib/http-errors.ts';
import { HttpError } from '../lib/http-errors.ts';
import { StorageUnavailableError } from '../integrations/storage/file-storage.ts';
import { storageErrors } from '../lib/metrics.ts';
import type { Message } from '../lib/messages.ts';
import { Localized, inLanguage, msg, schemaMessage } from '../lib/messages.ts';
import { requestLanguage } from './auth.ts';

interface ValidationItem {
  /** The zod issue code (fastify-type-provider-zod), or the ajv keyword. */
  keyword?: string;
  instancePath: string;
  message?: string;
  params?: Record<string, unknown>;
}

const ZOD_EN = z.locales.en();
const ZOD_RU = z.locales.ru();
/** The issue loses its input on the way, so zod's "received …" cannot be told again. */
const RECEIVED = { en: /, received \S+$/, ru: /, получено \S+$/ };

/**
 * A schema's message in both languages where it is zod's own (zod's en and ru locales); a message
 * the schema gave itself stays as written.
 */
function validationMessage(item: ValidationItem): Message {
  if (!item.message) return msg('invalidValue');
  if (!item.keyword || !item.params) return schemaMessage(item.message);
  const issue = {
    ...item.params,
    code: item.keyword,
    path: [],
    message: item.message,
  } as unknown as Parameters<typeof ZOD_EN.localeError>[0];
  const en = ZOD_EN.localeError(issue);
  const ru = ZOD_RU.localeError(issue);
  if (typeof en !== 'string' || typeof ru !== 'string') return item.message;
  if (en === item.message) return new Localized(en, ru);
  if (
    item.keyword === 'invalid_type' &&
    en.replace(RECEIVED.en, '') === item.message.replace(RECEIVED.en, '')
  )
    return new Localized(item.message, ru.replace(RECEIVED.ru, ''));
  return schemaMessage(item.message);
}

/** Turns schema validation issues into the DRF error shape: the top-level field names its messages. */
export function toFieldErrors(items: readonly ValidationItem[]): ErrorFields {
  const out: ErrorFields = {};
  for (const item of items) {
    const unknownKeys = item.params?.keys;
    if (Array.isArray(unknownKeys) && unknownKeys.length) {
      for (const key of unknownKeys) (out[String(key)] ??= []).push(msg('unknownParameter'));
      continue;
    }
    // forms map errors by their top-level field, as DRF reports list items under the list
    const field = item.instancePath.split('/').filter(Boolean)[0] ?? 'non_field_errors';
    (out[field] ??= []).push(validationMessage(item));
  }
  return out;
}

const CLIENT_ERRORS: Record<string, { status: number; body: () => object }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, body: () => ({ non_field_errors: [msg('malformedJson')] }) },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, body: () => ({ non_field_errors: [msg('emptyJson')] }) },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, body: () => ({ detail: msg('bodyTooLarge') }) },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, body: () => ({ detail: msg('unsupportedMediaType') }) },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, body: () => ({ detail: msg('invalidContentLength') }) },
};

/**
 * Errors of the multipart parser (busboy) carry no code or status: a truncated or malformed
 * upload is the client's fault, not a 500.
 */
const MULTIPART_PARSE_ERROR =
  /^(Unexpected end of multipart data|Multipart: Boundary not found|Malformed part header|Part terminated early)/;

/** Seconds a client is asked to wait when the database (or another backend) is unreachable. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** 503 "temporarily unavailable" with `Retry-After`: the database cannot be reached (or is not migrated yet). */
export const databaseUnavailable = () =>
  new HttpError(503, msg('unavailable'), undefined, {
    'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS),
  });

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/**
 * Messages of node-postgres when a connection is lost or cannot be had (they carry no code):
 * the server closed it, the pool's connect timed out, or a client broke earlier.
 */
const CONNECTION_MESSAGE =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|Cannot use a pool after calling end)/;

/**
 * Whether an error (or one it wraps: drizzle's query error keeps the driver's as `cause`; a
 * failed connect to several addresses is an AggregateError) says that the database could not be
 * reached, rather than that a query was wrong: network errors, PostgreSQL shutting down or
 * starting (57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now) and the
 * connection exception class 08.
 */
export function isConnectionError(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  const e = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string') {
    if (CONNECTION_CODES.has(e.code)) return true;
    if (/^(57P0[123]|08[0-9A-Z]{3})$/.test(e.code)) return true;
  }
  if (typeof e.message === 'string' && CONNECTION_MESSAGE.test(e.message)) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isConnectionError(inner, depth + 1))) return true;
  return isConnectionError(e.cause, depth + 1);
}

const SAMPLE_DETAIL = { detail: 'x' };
const SAMPLE_FIELD_ERRORS = { non_field_errors: ['x'] };

/**
 * A route's response schemas with the answers of the error handler added where a declared error
 * status would refuse them: a 503 declared for the route's own field errors (sign-in's
 * `{mfa_token: […]}` when no SMS could be sent) is also `{detail}` when the database cannot be
 * reached, and a 400 may be field errors or `{detail}` (a body that cannot be read). Otherwise the
 * route's serializer would write the handler's body as `{}`. Statuses a route does not declare are
 * serialised as they are (and are the document's `default` answer); the document shows the
 * union, so it describes every error body.
 */
export function withErrorAnswers(response: unknown): unknown {
  if (!response || typeof response !== 'object') return response;
  const out: Record<string, unknown> = {};
  for (const [status, schema] of Object.entries(response as Record<string, unknown>)) {
    out[status] = schema;
    if (!(Number(status) >= 400) || !(schema instanceof z.ZodType)) continue;
    const alternatives: z.ZodType[] = [];
    if (!schema.safeParse(SAMPLE_DETAIL).success) alternatives.push(DetailErrorSchema);
    if (status === '400' && !schema.safeParse(SAMPLE_FIELD_ERRORS).success)
      alternatives.push(FieldErrorsSchema);
    if (alternatives.length) out[status] = z.union([schema, ...alternatives]);
  }
  return out;
}

/**
 * One error handler for the whole API: field errors in DRF shape, `{detail}` for the rest, and
 * no stack trace or SQL in any 5xx. Every route's declared error answers admit its bodies
 * (`withErrorAnswers`, applied to each route as it is added).
 */
export const errorHandlerPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onRoute', (route: RouteOptions) => {
    if (route.schema?.response)
      route.schema = { ...route.schema, response: withErrorAnswers(route.schema.response) };
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // every text for a person to read leaves in the caller's language (issue 28)
    const send = (status: number, payload: object) =>
      reply.status(status).send(inLanguage(payload, requestLanguage(request)));
    if (error instanceof HttpError) {
      // the S3 service is down or refusing: the operator must see it, the client retries
      if (error instanceof StorageUnavailableError)
        request.log.warn({ err: error.cause }, 'file storage unavailable');
      void reply.headers(error.headers);
      return send(error.statusCode, error.body ?? error.fields ?? { detail: error.detail });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return send(400, toFieldErrors(error.validation));
    }
    if (error.validation) {
      return send(400, toFieldErrors(error.validation));
    }
    const known = error.code ? CLIENT_ERRORS[error.code] : undefined;
    if (known) return send(known.status, known.body());
    if (!error.statusCode && MULTIPART_PARSE_ERROR.test(error.message)) {
      return send(400, { non_field_errors: [msg('malformedMultipart')] });
    }
    if (error instanceof SyntaxError) {
      return send(400, { non_field_errors: [msg('malformedJson')] });
    }
    const status = error.statusCode ?? 500;
    if (status === 429) {
      return reply.status(429).send({ detail: error.message });
    }
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ detail: error.message });
    }
    if (error.code === 'ENOSPC' || error.code === 'EDQUOT') {
      // the file storage is full: the upload was removed (FileStorage.put), nothing recorded
      request.log.error({ err: error }, 'storage full');
      storageErrors.inc({ reason: 'disk_full' });
      return send(507, { detail: msg('storageFull') });
    }
    if (isConnectionError(error)) {
      // the database is restarting or unreachable: the pool reconnects by itself, the client retries
      request.log.warn({ err: error }, 'database unavailable');
      void reply.header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      return send(503, { detail: msg('unavailable') });
    }
    request.log.error({ err: error, operation: request.routeOptions.schema?.operationId }, 'request failed');
    return send(status >= 500 && status < 600 ? status : 500, { detail: msg('internalError') });
  });
});
