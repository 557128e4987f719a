import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPage } from './support/browser.ts';

const baseUrl = inject('baseUrl');
const providerName = inject('oidcProviderName');
const idpLogin = inject('oidcLogin');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

describe('OIDC sign-in', () => {
  it('signs carol in through the local OpenID provider and opens the page she asked for', async () => {
    const { context, page } = await newPage(browser, { locale: 'ru-RU' });
    await page.goto(`${baseUrl}/incidents`);
    const providers = page.getByTestId('oidc-providers');
    await providers.waitFor();
    expect(await providers.textContent()).toContain('Войти через');
    await providers.getByText(providerName, { exact: true }).click();

    // the provider's own (development) login form
    await page.locator('input[name="login"]').fill(idpLogin);
    await page.locator('input[name="password"]').fill('any password');
    await page.locator('button[type="submit"]').click();

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
});
