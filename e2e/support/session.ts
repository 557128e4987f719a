import type { Page } from 'playwright-core';

export const DEMO_PASSWORD = 'SocDemo-2026!';

/** Signs in through the login form and waits for the shell. */
export async function signIn(
  page: Page,
  baseUrl: string,
  username: string,
  password = DEMO_PASSWORD,
): Promise<void> {
  await page.goto(`${baseUrl}/dashboard`);
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('shell-header').waitFor();
}

export async function signOut(page: Page): Promise<void> {
  await page.getByTestId('profile-menu').click();
  await page.getByTestId('profile-logout').click();
  await page.getByTestId('login-form').waitFor();
}
