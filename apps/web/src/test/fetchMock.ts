import { act } from '@testing-library/react';
import { vi } from 'vitest';

/** What a mocked endpoint received. */
export interface MockRequest {
  url: URL;
  method: string;
  headers: Headers;
  body: unknown;
  signal: AbortSignal | null;
}

/** What a mocked endpoint answers; `body` is sent as JSON. */
export interface MockResponse {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type MockHandler = MockResponse | ((request: MockRequest) => MockResponse | Promise<MockResponse>);

/** Routes keyed by `METHOD /path` (no query string). */
export type MockRoutes = Record<string, MockHandler>;

const toUrl = (input: RequestInfo | URL): URL =>
  new URL(
    typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
    'http://localhost',
  );

const abortError = () => new DOMException('The operation was aborted.', 'AbortError');

/**
 * Replaces global fetch with a router over `routes`. Unknown routes answer 404. A pending
 * handler rejects like real fetch when the request's signal aborts.
 */
export function mockFetch(routes: MockRoutes) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = toUrl(input);
    const method = (init.method ?? 'GET').toUpperCase();
    const signal = init.signal ?? null;
    if (signal?.aborted) throw abortError();
    const handler = routes[`${method} ${url.pathname}`];
    const request: MockRequest = {
      url,
      method,
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : null,
      signal,
    };
    const answer = handler === undefined ? { status: 404, body: { detail: 'Not found.' } } : handler;
    const pending = Promise.resolve(typeof answer === 'function' ? answer(request) : answer);
    const result = await (signal
      ? Promise.race([
          pending,
          new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(abortError()))),
        ])
      : pending);
    return new Response(result.body === undefined ? null : JSON.stringify(result.body), {
      status: result.status ?? 200,
      headers: { 'Content-Type': 'application/json', ...result.headers },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The requests fetchMock received for `METHOD /path`. */
export function callsTo(fetchMock: ReturnType<typeof mockFetch>, key: string): MockRequest[] {
  return fetchMock.mock.calls
    .map(([input, init = {}]) => ({
      url: toUrl(input),
      method: (init.method ?? 'GET').toUpperCase(),
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : null,
      signal: init.signal ?? null,
    }))
    .filter((request) => `${request.method} ${request.url.pathname}` === key);
}

/** A promise with its resolve function exposed, to hold an answer back until the test says so. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((res) => {
    resolve = res;
  });
  return { promise, resolve };
}

/**
 * Lets the work a user's action started run out: promises, 0 ms timers (React's scheduler and
 * React Query's notifications use them) and the renders they cause. A test that checks what was
 * *not* sent calls it instead of waiting a guessed number of milliseconds.
 */
export async function settle(): Promise<void> {
  for (let turn = 0; turn < 5; turn++) {
    await act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
  }
}

/**
 * `handler`, except that the first request `when` picks waits until the test calls `release`
 * with its answer (to see a loading state, then a failure or a late answer).
 */
export function holdFirst(handler: MockHandler, when: (request: MockRequest) => boolean) {
  const gate = deferred<MockResponse>();
  let held = false;
  const routed = (request: MockRequest): MockResponse | Promise<MockResponse> => {
    if (held || !when(request)) return typeof handler === 'function' ? handler(request) : handler;
    held = true;
    return gate.promise;
  };
  return { handler: routed, release: gate.resolve };
}
