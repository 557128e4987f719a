import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPage } from './support/browser.ts';
import { DEMO_PASSWORD, signIn, signOut } from './support/session.ts';

const baseUrl = inject('baseUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

describe('sign-in', () => {
  it('shows the validation texts of an empty form in English and Russian', async () => {
    for (const [locale, login, password] of [
      ['en-US', 'Enter login', 'Enter password'],
      ['ru-RU', 'Введите логин', 'Введите пароль'],
    ] as const) {
      const { context, page } = await newPage(browser, { locale });
      await page.goto(baseUrl);
      await page.getByTestId('login-submit').click();
      await expect.poll(() => page.getByText(login).isVisible()).toBe(true);
      await expect.poll(() => page.getByText(password).isVisible()).toBe(true);
      await context.close();
    }
  });

  it('shows the server error for a wrong password and stays on the login screen', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(baseUrl);
    await page.getByTestId('login-username').fill('alice');
    await page.getByTestId('login-password').fill('not-the-password');
    await page.getByTestId('login-submit').click();
    const error = page.getByTestId('login-error');
    await error.waitFor();
    expect(await error.textContent()).toContain('No active account found');
    expect(await page.getByTestId('shell-header').count()).toBe(0);
    await context.close();
  });

  it('signs in and shows the shell: menu, user, version, title', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'alice');
    const menu = page.getByTestId('main-menu');
    for (const item of ['Dashboard', 'Issues', 'Systems', 'Log sources', 'Reports', 'Documentation']) {
      expect(await menu.getByText(item, { exact: true }).count(), item).toBeGreaterThan(0);
    }
    expect(await menu.textContent()).toMatch(/Assets\s*Beta/);
    expect(await page.getByTestId('app-version').textContent()).toContain('2.10.24');
    await page.getByTestId('profile-menu').click();
    expect(await page.getByTestId('profile-fullname').textContent()).toContain('Алиса Морозова');
    expect(await page.title()).toMatch(/ \| SOC Portal$/);
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    await context.close();
  });

  it('sends an unknown path to the dashboard', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'bob');
    await page.goto(`${baseUrl}/no/such/page`);
    await page.getByTestId('shell-header').waitFor();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/dashboard');
    await context.close();
  });

  it('keeps the session over a reload and ends it on logout', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'bob');
    await page.reload();
    await page.getByTestId('shell-header').waitFor();
    await signOut(page);
    const auth = await page.evaluate(() => localStorage.getItem('auth'));
    expect(auth === null || !auth.includes('refresh')).toBe(true);
    await page.reload();
    await page.getByTestId('login-form').waitFor();
    await context.close();
  });
});

describe('language and theme', () => {
  it('switches the language, keeps it over a reload and after logout', async () => {
    const { context, page } = await newPage(browser, { locale: 'en-US' });
    await signIn(page, baseUrl, 'alice');
    const menu = page.getByTestId('main-menu');
    const before = await menu.textContent();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await page.getByTestId('lang-switch').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('ru');
    const after = await menu.textContent();
    expect(after).not.toBe(before);
    expect(after).not.toContain('Dashboard');
    await page.reload();
    await page.getByTestId('shell-header').waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ru');
    await signOut(page);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ru');
    await page.getByTestId('login-submit').click();
    await expect.poll(() => page.getByText('Введите логин').isVisible()).toBe(true);
    await context.close();
  });

  it('switches between light and dark: the page really changes and the choice is kept', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'alice');
    const background = () =>
      page.evaluate(() => {
        const header = document.querySelector('[data-testid="shell-header"]');
        return [
          getComputedStyle(document.body).backgroundColor,
          header ? getComputedStyle(header).backgroundColor : '',
        ].join('|');
      });
    expect(await page.evaluate(() => localStorage.getItem('currentTheme') ?? 'light')).toBe('light');
    const light = await background();
    await page.getByTestId('theme-switch').click();
    await expect.poll(background).not.toBe(light);
    expect(await page.evaluate(() => localStorage.getItem('currentTheme'))).toBe('dark');
    const dark = await background();
    await page.reload();
    await page.getByTestId('shell-header').waitFor();
    await expect.poll(background).toBe(dark);
    await context.close();
  });
});

describe('change password', () => {
  it('checks the rules in the form before sending', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'user004');
    await page.goto(`${baseUrl}/changepassword`);
    await page.getByTestId('cp-old').fill(DEMO_PASSWORD);
    await page.getByTestId('cp-new').fill('123456789');
    await page.getByTestId('cp-confirm').fill('123456780');
    await page.getByTestId('cp-submit').click();
    await expect.poll(() => page.getByText('Password should be not entirely numeric').isVisible()).toBe(true);
    // each field's rule settles on its own: wait for this one too
    await expect.poll(() => page.getByText('Must match').isVisible()).toBe(true);
    await page.getByTestId('cp-new').fill('short1');
    await expect.poll(() => page.getByText('Minimum password length is 9').isVisible()).toBe(true);
    await context.close();
  });

  it('shows a wrong old password on its field', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'user004');
    await page.goto(`${baseUrl}/changepassword`);
    await page.getByTestId('cp-old').fill('not-my-password');
    await page.getByTestId('cp-new').fill('Another-pass-42');
    await page.getByTestId('cp-confirm').fill('Another-pass-42');
    await page.getByTestId('cp-submit').click();
    await expect
      .poll(() => page.getByText('Your old password was entered incorrectly').isVisible())
      .toBe(true);
    await context.close();
  });

  it('changes the password from the profile menu; the new one signs in, the old one does not', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'user003');
    await page.getByTestId('profile-menu').click();
    await page.getByTestId('profile-change-password').click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/changepassword');
    await page.getByTestId('cp-old').fill(DEMO_PASSWORD);
    await page.getByTestId('cp-new').fill('Fresh-password-2026');
    await page.getByTestId('cp-confirm').fill('Fresh-password-2026');
    await page.getByTestId('cp-submit').click();
    // the change ended every session, this one too: the login screen asks for the new password
    await page.getByTestId('login-form').waitFor();

    await page.getByTestId('login-username').fill('user003');
    await page.getByTestId('login-password').fill(DEMO_PASSWORD);
    await page.getByTestId('login-submit').click();
    await page.getByTestId('login-error').waitFor();

    await page.getByTestId('login-password').fill('Fresh-password-2026');
    await page.getByTestId('login-submit').click();
    await page.getByTestId('shell-header').waitFor();
    await context.close();
  });

  it('cancel leaves the page without changing anything', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'user004');
    await page.goto(`${baseUrl}/changepassword`);
    await page.getByTestId('cp-cancel').click();
    await expect.poll(() => new URL(page.url()).pathname).not.toBe('/changepassword');
    await context.close();
  });
});

describe('temporary password given by an administrator', () => {
  it('opens only the change-password screen at the first sign-in; then the portal', async () => {
    const obtained = await fetch(`${baseUrl}/api/v0/auth/token/obtain/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: DEMO_PASSWORD }),
    });
    const { access } = (await obtained.json()) as { access: string };
    const invited = await fetch(`${baseUrl}/api/v0/admin/users/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${access}` },
      body: JSON.stringify({ username: 'e2e-temp', email: 'e2e-temp@customer1.example', systems: [1] }),
    });
    expect(invited.status).toBe(201);
    const { temporary_password } = (await invited.json()) as { temporary_password: string };

    const { context, page } = await newPage(browser);
    await page.goto(`${baseUrl}/incidents`);
    await page.getByTestId('login-username').fill('e2e-temp');
    await page.getByTestId('login-password').fill(temporary_password);
    await page.getByTestId('login-submit').click();
    const screen = page.getByTestId('temporary-password-page');
    await screen.waitFor();
    expect(await screen.textContent()).toContain('temporary one given by the administrator');
    expect(await page.getByTestId('shell-header').count()).toBe(0);

    await page.getByTestId('cp-old').fill(temporary_password);
    await page.getByTestId('cp-new').fill('E2e-own-passphrase-2026');
    await page.getByTestId('cp-confirm').fill('E2e-own-passphrase-2026');
    await page.getByTestId('cp-submit').click();
    // the change ended every session: sign in again, with the new password, into the portal
    await page.getByTestId('login-username').fill('e2e-temp');
    await page.getByTestId('login-password').fill('E2e-own-passphrase-2026');
    await page.getByTestId('login-submit').click();
    await page.getByTestId('shell-header').waitFor();
    expect(await page.getByTestId('temporary-password-page').count()).toBe(0);
    await context.close();
  });
});
