import type { NotificationInstance } from 'antd/es/notification/interface';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { callsTo, deferred, mockFetch, type MockResponse } from '../../test/fetchMock.ts';
import { makeAccessToken } from '../../test/tokens.ts';
import { configureErrorReporting } from '../errors/errorReporter.ts';
import { registerNotifier } from '../ui/notifications.tsx';
import { authStore } from './authStore.ts';
import { apiRequest, parseRetryAfter } from './client.ts';
import { ApiError } from './errors.ts';

const REFRESH = 'POST /api/v0/auth/token/refresh/';
const ITEMS = 'GET /api/v0/soc/items/';
const ItemsSchema = z.object({ results: z.array(z.number()) });

const fakeNotifier = () => {
  const notifier = {
    error: vi.fn(),
    success: vi.fn(),
    info: vi.fn(),
    warning: vi.fn(),
    open: vi.fn(),
    destroy: vi.fn(),
  };
  return notifier satisfies NotificationInstance;
};

let notifier: ReturnType<typeof fakeNotifier>;
let unregister: () => void;

beforeEach(() => {
  notifier = fakeNotifier();
  unregister = registerNotifier(notifier);
});

afterEach(() => {
  unregister();
  configureErrorReporting({ dsn: null, release: 'test', environment: 'test' });
});

const bearerOf = (request: { headers: Headers }) =>
  request.headers.get('Authorization')?.replace('Bearer ', '');

describe('apiRequest', () => {
  it('sends the access token and parses the answer with the schema', async () => {
    const access = makeAccessToken(300);
    authStore.setTokens({ access, refresh: 'r1' });
    const fetchMock = mockFetch({ [ITEMS]: { body: { results: [1, 2] } } });

    await expect(
      apiRequest('/soc/items/', { schema: ItemsSchema, query: { page: 2, search: '' } }),
    ).resolves.toEqual({
      results: [1, 2],
    });
    const [call] = callsTo(fetchMock, ITEMS);
    expect(call?.headers.get('Authorization')).toBe(`Bearer ${access}`);
    expect(call?.url.search).toBe('?page=2');
    expect(callsTo(fetchMock, REFRESH)).toHaveLength(0);
  });

  it('refreshes once for concurrent calls when the token is about to expire, and keeps the rotated pair', async () => {
    authStore.setTokens({ access: makeAccessToken(10), refresh: 'r1' });
    const renewed = makeAccessToken(300);
    const refreshAnswer = deferred<MockResponse>();
    const fetchMock = mockFetch({
      [REFRESH]: () => refreshAnswer.promise,
      [ITEMS]: { body: { results: [] } },
    });

    const calls = [1, 2, 3].map(() => apiRequest('/soc/items/', { schema: ItemsSchema }));
    refreshAnswer.resolve({ body: { access: renewed, refresh: 'r2' } });
    await Promise.all(calls);

    const refreshes = callsTo(fetchMock, REFRESH);
    expect(refreshes).toHaveLength(1);
    expect(refreshes[0]?.body).toEqual({ refresh: 'r1' });
    expect(callsTo(fetchMock, ITEMS).map(bearerOf)).toEqual([renewed, renewed, renewed]);
    expect(JSON.parse(window.localStorage.getItem('auth') ?? 'null')).toMatchObject({
      access: renewed,
      refresh: 'r2',
    });
  });

  it('logs out when the refresh is refused, keeping locale and theme, and reports it', async () => {
    window.localStorage.setItem('locale', 'ru');
    window.localStorage.setItem('currentTheme', 'dark');
    configureErrorReporting({
      dsn: 'https://key@errors.example/42',
      release: '2.10.24',
      environment: 'test',
    });
    authStore.setTokens({ access: makeAccessToken(5), refresh: 'reused' });
    const fetchMock = mockFetch({
      [REFRESH]: { status: 401, body: { detail: 'Token is invalid or expired' } },
      [ITEMS]: { body: { results: [] } },
      'POST /api/42/store/': { body: { id: 'x' } },
    });

    const failure = apiRequest('/soc/items/', { schema: ItemsSchema });
    await expect(failure).rejects.toMatchObject({ kind: 'unauthenticated' });
    expect(authStore.get()).toBeNull();
    expect(authStore.lastLogoutReason()).toBe('forced');
    expect(window.localStorage.getItem('auth')).toBeNull();
    expect(window.localStorage.getItem('locale')).toBe('ru');
    expect(window.localStorage.getItem('currentTheme')).toBe('dark');
    expect(callsTo(fetchMock, ITEMS)).toHaveLength(0);
    expect(notifier.error).not.toHaveBeenCalled();
    const [report] = callsTo(fetchMock, 'POST /api/42/store/');
    expect(report?.body).toMatchObject({
      level: 'warning',
      tags: { source: 'token-refresh', status: '401' },
    });
    expect(JSON.stringify(report?.body)).not.toContain('reused');
  });

  it('renews and retries once on a 401, then logs out if the new token is refused too', async () => {
    const first = makeAccessToken(300);
    const second = makeAccessToken(300);
    authStore.setTokens({ access: first, refresh: 'r1' });
    let itemsCalls = 0;
    const fetchMock = mockFetch({
      [REFRESH]: { body: { access: second, refresh: 'r2' } },
      [ITEMS]: () =>
        ++itemsCalls === 1 ? { status: 401, body: { detail: 'revoked' } } : { body: { results: [7] } },
    });
    await expect(apiRequest('/soc/items/', { schema: ItemsSchema })).resolves.toEqual({ results: [7] });
    expect(callsTo(fetchMock, ITEMS).map(bearerOf)).toEqual([first, second]);

    mockFetch({
      [REFRESH]: { body: { access: makeAccessToken(300), refresh: 'r3' } },
      [ITEMS]: { status: 401, body: { detail: 'revoked' } },
    });
    await expect(apiRequest('/soc/items/', { schema: ItemsSchema })).rejects.toMatchObject({
      kind: 'unauthenticated',
    });
    expect(authStore.get()).toBeNull();
  });

  it('keeps the session when the refresh cannot reach the server', async () => {
    authStore.setTokens({ access: makeAccessToken(5), refresh: 'r1' });
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(apiRequest('/soc/items/', { schema: ItemsSchema })).rejects.toMatchObject({
      kind: 'network',
    });
    expect(authStore.get()?.refresh).toBe('r1');
    expect(notifier.error).toHaveBeenCalledTimes(1);
  });

  it('aborts the earlier request of the same kind without showing it', async () => {
    authStore.setTokens({ access: makeAccessToken(300), refresh: 'r1' });
    const firstAnswer = deferred<MockResponse>();
    let calls = 0;
    mockFetch({ [ITEMS]: () => (++calls === 1 ? firstAnswer.promise : { body: { results: [2] } }) });

    const older = apiRequest('/soc/items/', { schema: ItemsSchema, abortKey: 'items-list' });
    await vi.waitFor(() => expect(calls).toBe(1));
    const newer = apiRequest('/soc/items/', { schema: ItemsSchema, abortKey: 'items-list' });

    await expect(older).rejects.toSatisfy((error) => error instanceof ApiError && error.kind === 'aborted');
    await expect(newer).resolves.toEqual({ results: [2] });
    firstAnswer.resolve({ body: { results: [1] } });
    expect(notifier.error).not.toHaveBeenCalled();
  });

  it('shows an error notification with the detail, or with field lines', async () => {
    authStore.setTokens({ access: makeAccessToken(300), refresh: 'r1' });
    mockFetch({ [ITEMS]: { status: 403, body: { detail: 'You do not have permission.' } } });
    await expect(
      apiRequest('/soc/items/', { schema: ItemsSchema, errorMessage: 'Loading items failed' }),
    ).rejects.toThrow();
    expect(notifier.error).toHaveBeenLastCalledWith(
      expect.objectContaining({ title: 'Loading items failed', duration: 5 }),
    );

    mockFetch({
      'POST /api/v0/soc/items/': {
        status: 400,
        body: { title: ['Required field'], non_field_errors: ['Bad'] },
      },
    });
    const error: unknown = await apiRequest('/soc/items/', {
      method: 'POST',
      body: {},
      schema: ItemsSchema,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).fieldErrors).toEqual({ title: ['Required field'], non_field_errors: ['Bad'] });
    const lastCall = notifier.error.mock.lastCall?.[0] as {
      title: string;
      description: { props: { children: string } }[];
    };
    expect(lastCall.title).toBe('Request failed');
    expect(lastCall.description.map((line) => line.props.children)).toEqual(['title: Required field', 'Bad']);
  });

  it('shows the detail of a 429 (rate limit) and when to try again', async () => {
    authStore.setTokens({ access: makeAccessToken(300), refresh: 'r1' });
    const detail = 'Too many CSV exports from your account: at most 5 a minute. Please try again later.';
    mockFetch({ [ITEMS]: { status: 429, body: { detail }, headers: { 'Retry-After': '42' } } });
    const error: unknown = await apiRequest('/soc/items/', { schema: ItemsSchema }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'http', status: 429, detail, retryAfterSeconds: 42 });
    const lastCall = notifier.error.mock.lastCall?.[0] as { description: { props: { children: string } }[] };
    expect(lastCall.description.map((line) => line.props.children)).toEqual([detail, 'Try again in 42 s.']);
  });

  it('shows a storage-quota 507 in the user’s language', async () => {
    authStore.setTokens({ access: makeAccessToken(300), refresh: 'r1' });
    mockFetch({
      [ITEMS]: {
        status: 507,
        body: {
          detail: 'The system’s storage quota is used up.',
          code: 'storage_quota_exceeded',
          used_bytes: 20 * 1024 ** 3,
          quota_bytes: 20 * 1024 ** 3,
        },
      },
    });
    await apiRequest('/soc/items/', { schema: ItemsSchema }).catch(() => undefined);
    const lastCall = notifier.error.mock.lastCall?.[0] as { description: { props: { children: string } }[] };
    expect(lastCall.description.map((line) => line.props.children)).toEqual([
      'The storage quota of this system is used up (20 of 20 GB stored). Delete files that are no longer needed or ask the SOC to raise the quota.',
    ]);
  });

  it('stays silent when the caller turns notifications off', async () => {
    mockFetch({ 'GET /api/v0/portal/config/': { status: 500, body: { detail: 'boom' } } });
    await expect(
      apiRequest('/portal/config/', { schema: z.unknown(), auth: 'none', notify: false }),
    ).rejects.toMatchObject({ kind: 'http', status: 500, detail: 'boom' });
    expect(notifier.error).not.toHaveBeenCalled();
  });

  it('rejects answers that break the contract', async () => {
    mockFetch({ 'GET /api/v0/portal/config/': { body: { results: 'nope' } } });
    await expect(apiRequest('/portal/config/', { schema: ItemsSchema, auth: 'none' })).rejects.toMatchObject({
      kind: 'invalid-response',
    });
    expect(notifier.error).toHaveBeenCalledTimes(1);
  });

  it('fails without a request when there is no session', async () => {
    const fetchMock = mockFetch({});
    await expect(apiRequest('/soc/items/', { schema: ItemsSchema })).rejects.toMatchObject({
      kind: 'unauthenticated',
    });
    expect(fetchMock).not.toHaveBeenCalled();
    expect(notifier.error).not.toHaveBeenCalled();
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('120')).toBe(120);
    expect(parseRetryAfter(new Date(Date.now() + 60_000).toUTCString())).toBeGreaterThanOrEqual(59);
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter('soon')).toBeNull();
  });
});
