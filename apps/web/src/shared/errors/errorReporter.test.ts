import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  buildEvent,
  configureErrorReporting,
  installGlobalErrorHandlers,
  isErrorReportingEnabled,
  parseDsn,
  parseStack,
  reportError,
  reportMessage,
  scrubText,
} from './errorReporter.ts';

const DSN = 'https://abc123@errors.example.com/17';
const ORIGIN = window.location.origin;
const STORE_URL = 'https://errors.example.com/api/17/store/?sentry_version=7&sentry_key=abc123';

const stubFetch = () => {
  const fetchMock = vi.fn((_url: string, _init: { body: string }) => Promise.resolve(new Response('{}')));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
};

const sentEvent = (fetchMock: ReturnType<typeof stubFetch>, index = 0): Record<string, unknown> =>
  JSON.parse(fetchMock.mock.calls[index]?.[1].body ?? 'null') as Record<string, unknown>;

afterEach(() => configureErrorReporting({ dsn: null, release: 'test', environment: 'test' }));

describe('parseDsn', () => {
  it('derives the store endpoint from a DSN', () => {
    expect(parseDsn(DSN)).toEqual({ publicKey: 'abc123', projectId: '17', storeUrl: STORE_URL });
    expect(parseDsn('https://k@host.example/sub/path/5')?.storeUrl).toBe(
      'https://host.example/sub/path/api/5/store/?sentry_version=7&sentry_key=k',
    );
  });

  it('rejects values that are not DSNs', () => {
    expect(parseDsn('not a url')).toBeNull();
    expect(parseDsn('https://errors.example.com/17')).toBeNull();
    expect(parseDsn('ftp://k@host/1')).toBeNull();
  });
});

describe('reporting', () => {
  it('is off without a DSN', () => {
    const fetchMock = stubFetch();
    configureErrorReporting({ dsn: null, release: '2.10.24', environment: 'production' });
    reportError(new Error('boom'));
    expect(isErrorReportingEnabled()).toBe(false);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('posts an exception event to the store endpoint', () => {
    const fetchMock = stubFetch();
    configureErrorReporting({ dsn: DSN, release: '2.10.24', environment: 'production' });
    window.history.replaceState(null, '', '/inc/42?code=secret-oidc-code#frag');
    const error = new TypeError('x is undefined');
    error.stack = [
      'TypeError: x is undefined',
      `    at render (${ORIGIN}/assets/index-abc.js:1:200)`,
      `    at ${ORIGIN}/assets/react-vendor.js?v=1:2:300`,
    ].join('\n');
    reportError(error, { tags: { source: 'error-boundary' } });

    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]?.[0]).toBe(STORE_URL);
    const event = sentEvent(fetchMock);
    expect(event).toMatchObject({
      platform: 'javascript',
      level: 'error',
      release: '2.10.24',
      environment: 'production',
      request: { url: `${ORIGIN}/inc/42` },
      tags: { source: 'error-boundary' },
      exception: {
        values: [
          {
            type: 'TypeError',
            value: 'x is undefined',
            stacktrace: {
              frames: [
                { filename: `${ORIGIN}/assets/react-vendor.js`, lineno: 2, colno: 300, in_app: true },
                { function: 'render', filename: `${ORIGIN}/assets/index-abc.js`, lineno: 1, colno: 200 },
              ],
            },
          },
        ],
      },
    });
    expect(event.event_id).toMatch(/^[0-9a-f]{32}$/);
    expect(new Date(String(event.timestamp)).toString()).not.toBe('Invalid Date');
    window.history.replaceState(null, '', '/');
  });

  it('never sends tokens, passwords or Authorization values', () => {
    const fetchMock = stubFetch();
    configureErrorReporting({ dsn: DSN, release: '2.10.24', environment: 'test' });
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl';
    reportMessage(
      `refresh failed: Authorization: Bearer ${jwt} password=hunter2 {"refresh":"opaque-refresh"}`,
    );
    const body = fetchMock.mock.calls[0]?.[1].body ?? '';
    expect(body).not.toContain(jwt);
    expect(body).not.toContain('hunter2');
    expect(body).not.toContain('opaque-refresh');
    expect(sentEvent(fetchMock)).toMatchObject({
      message: { formatted: expect.stringContaining('[Filtered]') as string },
    });
  });

  it('reports uncaught errors and unhandled rejections, but not aborts', () => {
    const fetchMock = stubFetch();
    configureErrorReporting({ dsn: DSN, release: '2.10.24', environment: 'test' });
    // A stand-in target: errors dispatched on the real window would fail the test run itself.
    const target = new EventTarget();
    const uninstall = installGlobalErrorHandlers(target as Window);
    target.dispatchEvent(new ErrorEvent('error', { error: new Error('uncaught'), message: 'uncaught' }));
    const rejection = (reason: unknown) => {
      const event = new Event('unhandledrejection') as PromiseRejectionEvent;
      Object.defineProperty(event, 'reason', { value: reason });
      target.dispatchEvent(event);
    };
    rejection(new Error('async failure'));
    rejection(new DOMException('aborted', 'AbortError'));
    uninstall();
    target.dispatchEvent(new ErrorEvent('error', { error: new Error('after uninstall') }));

    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(sentEvent(fetchMock, 0)).toMatchObject({ tags: { source: 'window.onerror' } });
    expect(sentEvent(fetchMock, 1)).toMatchObject({
      tags: { source: 'unhandledrejection' },
      exception: { values: [{ value: 'async failure' }] },
    });
  });
});

describe('helpers', () => {
  it('scrubs secrets from text', () => {
    expect(scrubText('token=abc&x=1')).toBe('token=[Filtered]&x=1');
    expect(scrubText('OIDC abc.def')).toBe('OIDC [Filtered]');
  });

  it('parses Firefox-style stacks', () => {
    expect(parseStack(`render@${ORIGIN}/assets/a.js:3:4\n@https://cdn.example/lib.js:1:1`)).toEqual([
      { filename: 'https://cdn.example/lib.js', lineno: 1, colno: 1, in_app: false },
      { function: 'render', filename: `${ORIGIN}/assets/a.js`, lineno: 3, colno: 4, in_app: true },
    ]);
  });

  it('builds a message event when there is no exception', () => {
    const event = buildEvent({ message: 'hello', release: 'r', environment: 'e', url: 'https://x/y?z=1' });
    expect(event).toMatchObject({ message: { formatted: 'hello' }, request: { url: 'https://x/y' } });
    expect(event.exception).toBeUndefined();
  });
});
