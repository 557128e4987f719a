/** Why a call failed: the server answered with an error, or no usable answer came back. */
export type ApiErrorKind =
  /** The server answered 4xx/5xx; `status` and `data` hold the answer. */
  | 'http'
  /** The request never got an answer (offline, DNS, CORS, server down). */
  | 'network'
  /** The request was cancelled (a newer request of the same kind, or unmount). Never shown. */
  | 'aborted'
  /** The answer did not match the contract schema. */
  | 'invalid-response'
  /** There is no session, or it just ended (refresh refused): the login screen takes over. */
  | 'unauthenticated';

/** Field messages of a DRF-style 400 answer (`{field: [messages], non_field_errors: [...]}`). */
export type FieldMessages = Record<string, string[]>;

export interface ApiErrorInit {
  kind: ApiErrorKind;
  status?: number | null;
  data?: unknown;
  retryAfterSeconds?: number | null;
  cause?: unknown;
}

/** The one error type every API call rejects with. */
export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  /** HTTP status when the server answered, else null. */
  readonly status: number | null;
  /** Parsed JSON body of an error answer (or null). */
  readonly data: unknown;
  /** Seconds from a 429's Retry-After header. */
  readonly retryAfterSeconds: number | null;

  constructor(init: ApiErrorInit) {
    super(describeKind(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiError';
    this.kind = init.kind;
    this.status = init.status ?? null;
    this.data = init.data ?? null;
    this.retryAfterSeconds = init.retryAfterSeconds ?? null;
  }

  /** The `detail` text of a 401/403/404/413/429/5xx answer. */
  get detail(): string | null {
    const data = this.data;
    if (data !== null && typeof data === 'object' && 'detail' in data && typeof data.detail === 'string') {
      return data.detail;
    }
    return null;
  }

  /** Field messages of a validation answer, or null when the answer has none. */
  get fieldErrors(): FieldMessages | null {
    if (this.kind !== 'http' || this.detail !== null) return null;
    const data = this.data;
    if (data === null || typeof data !== 'object' || Array.isArray(data)) return null;
    const result: FieldMessages = {};
    for (const [field, value] of Object.entries(data)) {
      const messages = collectMessages(value);
      if (messages.length > 0) result[field] = messages;
    }
    return Object.keys(result).length > 0 ? result : null;
  }
}

function describeKind(init: ApiErrorInit): string {
  switch (init.kind) {
    case 'http':
      return `HTTP ${init.status ?? '?'}`;
    case 'network':
      return 'Network error';
    case 'aborted':
      return 'Request aborted';
    case 'invalid-response':
      return 'Response does not match the contract';
    case 'unauthenticated':
      return 'Not authenticated';
  }
}

/** Flattens a DRF message value (a string, a list, nested lists/objects) to plain strings. */
function collectMessages(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(collectMessages);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(collectMessages);
  return [];
}

/** True for cancelled requests, which are never shown to the user (design §7). */
export function isAbortedError(error: unknown): boolean {
  if (error instanceof ApiError) return error.kind === 'aborted';
  return error instanceof DOMException && error.name === 'AbortError';
}

/** The key under which DRF puts messages that belong to no single field. */
export const NON_FIELD_ERRORS = 'non_field_errors';

/**
 * Lines describing an error answer for a notification: its `detail`, else one
 * `field: messages` line per field (non-field messages without a prefix).
 */
export function describeErrorLines(error: ApiError): string[] {
  if (error.detail) return [error.detail];
  const fields = error.fieldErrors;
  if (!fields) return [];
  return Object.entries(fields).map(([field, messages]) =>
    field === NON_FIELD_ERRORS ? messages.join(' ') : `${field}: ${messages.join(' ')}`,
  );
}
