import type { Page, Response as PageResponse } from 'playwright-core';
import { DEMO_PASSWORD } from './session.ts';

/** The access token the signed-in app keeps in storage. */
export async function accessToken(page: Page): Promise<string> {
  const token = await page.evaluate(
    () => (JSON.parse(localStorage.getItem('auth') ?? '{}') as { access?: string }).access,
  );
  if (!token) throw new Error('not signed in');
  return token;
}

/** Calls the API with the page's session; `init.body` may be FormData. */
export async function apiCall<T>(
  baseUrl: string,
  page: Page,
  path: string,
  init: RequestInit = {},
): Promise<T> {
  const response = await fetch(`${baseUrl}/api/v0${path}`, {
    ...init,
    headers: { authorization: `Bearer ${await accessToken(page)}`, ...(init.headers ?? {}) },
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * Runs `act` (e.g. a click) and returns the answer to the API request it sends: `method` to a
 * path matching `path`. Waits as long as the server takes on a loaded machine (`timeout`), so
 * what follows (a toast, a re-render) is timed from the answer, not from the click.
 */
export async function answerTo(
  page: Page,
  method: string,
  path: RegExp,
  act: () => Promise<unknown>,
  timeout = 45_000,
): Promise<PageResponse> {
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === method && path.test(new URL(r.url()).pathname), {
      timeout,
    }),
    act(),
  ]);
  return response;
}

/** Calls the API as `username` (a demo account), signed in for the call; `init.body` may be FormData. */
export async function apiAs<T>(
  baseUrl: string,
  username: string,
  path: string,
  init: RequestInit = {},
): Promise<T> {
  const login = await fetch(`${baseUrl}/api/v0/auth/token/obtain/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: DEMO_PASSWORD }),
  });
  const { access } = (await login.json()) as { access: string };
  const response = await fetch(`${baseUrl}/api/v0${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${access}`,
      ...(typeof init.body === 'string' ? { 'content-type': 'application/json' } : {}),
    },
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Registers a high incident of IS-0001 (alice's system) as the SOC analyst, as the provider's integrations do. */
export async function analystIncident(
  baseUrl: string,
  summary: string,
  description: string,
): Promise<{ key: number }> {
  const systems = await apiAs<{ results: { id: number; is_id: string }[] }>(
    baseUrl,
    'analyst',
    '/soc/systems/?page_size=100',
  );
  const system = systems.results.find((s) => s.is_id === 'IS-0001')!;
  const types = await apiAs<{ results: { id: number; code: string }[] }>(
    baseUrl,
    'analyst',
    '/soc/issue_types/',
  );
  const type = types.results.find((t) => t.code === 'incident')!;
  const cats = await apiAs<{ results: { id: number }[] }>(
    baseUrl,
    'analyst',
    `/soc/issues/${type.id}/categories/`,
  );
  return apiAs<{ key: number }>(baseUrl, 'analyst', '/soc/incs/', {
    method: 'POST',
    body: JSON.stringify({
      system: system.id,
      summary,
      issuetype: type.id,
      priority: 'high',
      description,
      primary_category: cats.results[0]!.id,
    }),
  });
}
