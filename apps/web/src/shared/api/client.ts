import { API_BASE } from '@soc/contracts';
import type { z } from 'zod';
import { currentLocale } from '../i18n/i18n.ts';
import { authorizationHeader, authStore, type StoredAuth } from './authStore.ts';
import { ApiError } from './errors.ts';
import { notifyApiError } from './notifyApiError.ts';
import { ensureFreshSession, forceLogout, refreshSession } from './tokenRefresh.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Query-string values; null, undefined and '' are left out. */
export type QueryParams = Record<string, string | number | boolean | null | undefined>;

/**
 * How a call is authenticated:
 * - `session` (default): Authorization header; refresh first when the access token is about to
 *   expire, and once more on a 401, then a forced logout.
 * - `attach`: send the header when logged in, never refresh (logout).
 * - `none`: public calls and the token calls themselves (obtain, refresh, MFA).
 */
export type AuthMode = 'session' | 'attach' | 'none';

export interface ApiRequestOptions<T> {
  method?: HttpMethod;
  query?: QueryParams;
  /** JSON body, or FormData for a multipart body (sent as is, the browser sets the boundary). */
  body?: unknown;
  /** Contract schema of a successful answer; the parsed value is returned. */
  schema: z.ZodType<T>;
  auth?: AuthMode;
  /** Show an error toast on failure (default true). Login and MFA calls turn it off. */
  notify?: boolean;
  /** Title of the error toast instead of the generic one. */
  errorMessage?: string;
  /**
   * Requests sharing a key supersede each other: starting one aborts the earlier one still in
   * flight (lists, searches). Aborted requests reject with an `aborted` ApiError and never notify.
   */
  abortKey?: string;
  /** External cancellation (TanStack Query passes one to every query function). */
  signal?: AbortSignal;
  /** Further request headers (e.g. `Idempotency-Key`); they cannot replace the session's. */
  headers?: Record<string, string>;
}

/** What a transport needs to send one request. */
export interface TransportRequest {
  method: HttpMethod;
  url: string;
  headers: Record<string, string>;
  body: BodyInit | undefined;
  signal: AbortSignal;
}

/**
 * Carries one request and resolves with its answer (any HTTP status), or rejects when no
 * answer arrives (network failure, abort). fetch by default; uploads use XMLHttpRequest for
 * progress events.
 */
export type Transport = (request: TransportRequest) => Promise<Response>;

/** Reads a successful or failed answer into the caller's result; throws ApiError on failure. */
export type AnswerReader<T> = (response: Response) => Promise<T>;

const fetchTransport: Transport = ({ url, method, headers, body, signal }) =>
  fetch(url, { method, headers, body, signal });

const inFlightByKey = new Map<string, AbortController>();

/** Builds `/api/v0{path}?{query}`. */
export function apiUrl(path: string, query?: QueryParams): string {
  const url = `${API_BASE}${path}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === null || value === undefined || value === '') continue;
    params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}

/**
 * The one way the web app talks to the API: JSON in and out, tokens attached and renewed,
 * answers validated against the contract, errors normalised to ApiError and shown as toasts
 * unless the caller opts out.
 */
export function apiRequest<T>(path: string, options: ApiRequestOptions<T>): Promise<T> {
  return performRequest(path, options, (response) => parseSuccess(response, options.schema));
}

/** Options of performRequest: those of apiRequest without the schema, plus the transport. */
export type PerformRequestOptions = Omit<ApiRequestOptions<unknown>, 'schema'> & {
  /** Accept header (default `application/json`). */
  accept?: string;
  transport?: Transport;
};

/**
 * The machinery behind apiRequest, for calls whose answer is not JSON (file downloads) or
 * that need another transport (uploads with progress): session handling, supersession by
 * `abortKey`, error normalisation and toasts are the same for all of them.
 */
export async function performRequest<T>(
  path: string,
  options: PerformRequestOptions,
  read: AnswerReader<T>,
): Promise<T> {
  const controller = new AbortController();
  const unlinkSignal = linkSignal(options.signal, controller);
  if (options.abortKey) {
    inFlightByKey.get(options.abortKey)?.abort();
    inFlightByKey.set(options.abortKey, controller);
  }
  try {
    const response = await sendWithSession(path, options, controller.signal);
    return await read(response);
  } catch (caught) {
    const error = normalizeError(caught, controller.signal);
    if (options.notify !== false) notifyApiError(error, options.errorMessage);
    throw error;
  } finally {
    unlinkSignal();
    if (options.abortKey && inFlightByKey.get(options.abortKey) === controller) {
      inFlightByKey.delete(options.abortKey);
    }
  }
}

async function sendWithSession(
  path: string,
  options: PerformRequestOptions,
  signal: AbortSignal,
): Promise<Response> {
  const mode = options.auth ?? 'session';
  if (mode === 'none') return send(path, options, signal, null);
  if (mode === 'attach') return send(path, options, signal, authStore.get());

  const session = await ensureFreshSession();
  signal.throwIfAborted();
  const response = await send(path, options, signal, session);
  if (response.status !== 401) return response;

  // The token may have been revoked or the clocks disagree: renew once and retry once.
  const renewed = await refreshSession(session.access);
  signal.throwIfAborted();
  const retried = await send(path, options, signal, renewed);
  if (retried.status === 401) {
    forceLogout('Access token refused right after a refresh');
    throw new ApiError({ kind: 'unauthenticated', status: 401, data: await readJson(retried) });
  }
  return retried;
}

function send(
  path: string,
  options: PerformRequestOptions,
  signal: AbortSignal,
  session: StoredAuth | null,
): Promise<Response> {
  // Accept-Language lets the server answer `detail` and field messages in the user's language.
  const headers: Record<string, string> = {
    ...options.headers,
    Accept: options.accept ?? 'application/json',
    'Accept-Language': currentLocale(),
  };
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  if (session) headers.Authorization = authorizationHeader(session);
  const transport = options.transport ?? fetchTransport;
  return transport({
    url: apiUrl(path, options.query),
    method: options.method ?? 'GET',
    headers,
    body,
    signal,
  });
}

/** The ApiError of a 4xx/5xx answer, with its JSON body (if any) as data. */
export async function httpError(response: Response): Promise<ApiError> {
  return new ApiError({
    kind: 'http',
    status: response.status,
    data: await readJson(response),
    retryAfterSeconds: parseRetryAfter(response.headers.get('Retry-After')),
  });
}

/** Reads a JSON answer and checks it against the contract schema; error answers throw ApiError. */
export async function parseSuccess<T>(response: Response, schema: z.ZodType<T>): Promise<T> {
  if (!response.ok) throw await httpError(response);
  const body = await readJson(response);
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new ApiError({
      kind: 'invalid-response',
      status: response.status,
      data: body,
      cause: parsed.error,
    });
  }
  return parsed.data;
}

/** JSON body of a response; null for an empty or non-JSON body. */
async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** Seconds from a Retry-After header (delta-seconds or an HTTP date). */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

function normalizeError(caught: unknown, signal: AbortSignal): ApiError {
  if (signal.aborted) return new ApiError({ kind: 'aborted', cause: caught });
  if (caught instanceof ApiError) return caught;
  if (caught instanceof DOMException && caught.name === 'AbortError') {
    return new ApiError({ kind: 'aborted', cause: caught });
  }
  // fetch rejects with a TypeError when no answer arrives at all.
  return new ApiError({ kind: 'network', cause: caught });
}

/** Forwards an external abort to our controller; returns the function that stops forwarding. */
function linkSignal(external: AbortSignal | undefined, controller: AbortController): () => void {
  if (!external) return () => undefined;
  if (external.aborted) {
    controller.abort(external.reason);
    return () => undefined;
  }
  const onAbort = () => controller.abort(external.reason);
  external.addEventListener('abort', onAbort, { once: true });
  return () => external.removeEventListener('abort', onAbort);
}
