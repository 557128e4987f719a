import type { FieldErrors } from '@soc/contracts';

/**
 * An error that becomes an HTTP answer as it is: `fields` gives a 400 in the DRF shape,
 * otherwise the body is `{detail}`.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string,
    readonly fields?: FieldErrors,
    readonly headers: Record<string, string> = {},
    /** A body other than `{detail}` or the field errors (e.g. with a machine-readable code). */
    readonly body?: object,
  ) {
    super(detail);
    this.name = 'HttpError';
  }
}

export const badRequest = (fields: FieldErrors) => new HttpError(400, 'Invalid input', fields);

/** A 400 whose field messages follow the caller's language; the error handler picks one. */
export class LocalizedBadRequest extends HttpError {
  constructor(readonly messages: Record<'ru' | 'en', FieldErrors>) {
    super(400, 'Invalid input', messages.en);
  }
}
export const unauthorized = (detail = 'Authentication credentials were not provided.') =>
  new HttpError(401, detail);
export const forbidden = (detail = 'You do not have permission to perform this action.') =>
  new HttpError(403, detail);
export const notFound = (detail = 'Not found.') => new HttpError(404, detail);
export const tooManyRequests = (retryAfterSeconds: number) =>
  new HttpError(
    429,
    `Request was throttled. Expected available in ${retryAfterSeconds} seconds.`,
    undefined,
    {
      'retry-after': String(retryAfterSeconds),
    },
  );
