import type { Message } from './messages.ts';
import { msg } from './messages.ts';

/** Field errors as thrown: the DRF shape, each message localised or fixed (see messages.ts). */
export type ErrorFields = Record<string, Message[]>;

/**
 * An error that becomes an HTTP answer as it is: `fields` gives a 400 in the DRF shape,
 * otherwise the body is `{detail}`. Localised texts are put in the caller's language by the
 * error handler.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: Message,
    readonly fields?: ErrorFields,
    readonly headers: Record<string, string> = {},
    /** A body other than `{detail}` or the field errors (e.g. with a machine-readable code). */
    readonly body?: object,
  ) {
    super(String(detail));
    this.name = 'HttpError';
  }
}

export const badRequest = (fields: ErrorFields) => new HttpError(400, 'Invalid input', fields);

export const unauthorized = (detail: Message = msg('notAuthenticated')) => new HttpError(401, detail);
export const forbidden = (detail: Message = msg('permissionDenied')) => new HttpError(403, detail);
export const notFound = (detail: Message = msg('notFound')) => new HttpError(404, detail);
export const tooManyRequests = (retryAfterSeconds: number) =>
  new HttpError(429, msg('throttled', retryAfterSeconds), undefined, {
    'retry-after': String(retryAfterSeconds),
  });
