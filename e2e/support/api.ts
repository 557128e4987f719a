import type { Page, Response as PageResponse } from 'playwright-core';

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
