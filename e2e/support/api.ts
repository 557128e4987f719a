import type { Page } from 'playwright-core';

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
