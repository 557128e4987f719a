import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { signInAtIdp } from '../apps/server/src/test/oidc-idp.ts';
import { launchBrowser, newPage } from './support/browser.ts';

const baseUrl = inject('baseUrl');
const providerName = inject('oidcProviderName');
const carolAtIdp = inject('oidcLogin');
const newcomerAtIdp = inject('oidcNewLogin');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

/** From the portal's login screen through the provider's own (development) login form. */
async function signInAtProvider(page: Page, login: string, path = '/incidents') {
  await page.goto(`${baseUrl}${path}`);
  const providers = page.getByTestId('oidc-providers');
  await providers.waitFor();
  await providers.getByText(providerName, { exact: true }).click();
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.locator('button[type="submit"]').click();
}

/** An OIDC sign-in run outside the browser up to the provider's redirect back to the portal. */
async function attackerFlow(): Promise<{ callback: URL; cookie: string }> {
  const start = await fetch(`${baseUrl}/api/v0/auth/oidc/${encodeURIComponent(providerName)}/start/`, {
    redirect: 'manual',
  });
  const cookie = (start.headers.get('set-cookie') ?? '').split(';')[0]!;
  const authorization = start.headers.get('location')!;
  return { callback: await signInAtIdp(new URL(authorization).origin, authorization, newcomerAtIdp), cookie };
}

describe('OIDC sign-in', () => {
  it('creates the account of a verified newcomer, signs her in and opens the page she asked for', async () => {
    const { context, page } = await newPage(browser, { locale: 'ru-RU' });
    await page.goto(`${baseUrl}/incidents`);
    expect(await page.getByTestId('oidc-providers').textContent()).toContain('Войти через');
    await signInAtProvider(page, newcomerAtIdp);

    await page.getByTestId('shell-header').waitFor();
    expect(new URL(page.url()).pathname).toBe('/incidents');
    const stored = await page.evaluate(
      () => JSON.parse(window.localStorage.getItem('auth') ?? 'null') as unknown,
    );
    expect(stored).toMatchObject({ tokenType: 'OIDC' });
    await page.getByTestId('profile-menu').click();
    expect(await page.getByTestId('profile-fullname').textContent()).toContain('Зайцева');
    await context.close();
  });

  it("never signs in to an account with a password by the provider's e-mail, and says why", async () => {
    const { context, page } = await newPage(browser, { locale: 'ru-RU' });
    await signInAtProvider(page, carolAtIdp);
    const error = page.getByTestId('login-callback-error');
    await error.waitFor();
    expect(await error.textContent()).toContain('уже существует и имеет свой пароль');
    expect(await page.evaluate(() => window.localStorage.getItem('auth'))).toBeNull();
    await context.close();
  });

  it('refuses sign-in links opened in another browser than the one that started them (login CSRF)', async () => {
    // the attacker runs the flow outside any browser and keeps the links back to the portal:
    // the provider's redirect to the portal, and the portal's redirect with a ticket
    const callbackLink = (await attackerFlow()).callback;
    const { callback, cookie } = await attackerFlow();
    const ticketLink = await fetch(callback, { redirect: 'manual', headers: { cookie } });
    const ticketUrl = new URL(ticketLink.headers.get('location')!, baseUrl);
    expect(ticketUrl.searchParams.get('ticket')).toBeTruthy();

    for (const link of [callbackLink.href, ticketUrl.href]) {
      const { context, page } = await newPage(browser);
      await page.goto(link);
      const error = page.getByTestId('login-callback-error');
      await error.waitFor();
      expect(await error.textContent()).toContain('started in another browser');
      expect(await page.evaluate(() => window.localStorage.getItem('auth'))).toBeNull();
      await context.close();
    }
  });
});
