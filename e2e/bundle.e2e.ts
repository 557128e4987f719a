import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { BUDGET_KB, formatReport, measureBundle } from '../scripts/bundle-size.mjs';
import { launchBrowser, newPage } from './support/browser.ts';
import { ROOT } from './support/server.ts';

const baseUrl = inject('baseUrl');
const dist = path.join(ROOT, 'apps/web/dist');

describe('start-up bundle (issue 14)', () => {
  it('keeps the JavaScript loaded before the first screen under 305 KB gzipped', () => {
    const result = measureBundle(dist);
    const initialNames = result.initial.map((file) => file.file);
    // both languages are packs of their own, outside the initial chunks
    expect(Object.keys(result.languages).sort()).toEqual(['en', 'ru']);
    expect(initialNames.some((name) => /locale-/.test(name))).toBe(false);
    expect(result.totalGzip, formatReport(result)).toBeLessThanOrEqual(BUDGET_KB * 1024);
  });
});

describe('tree-shaken contracts (issue 14)', () => {
  // @soc/contracts declares itself free of side effects except for its zod configuration
  // (z.config: a missing value reads "This field is required."); the bundlers must keep that call.
  const zodConfigCall = /customError:\s*\(?\w+\)?\s*=>/;

  it('keep the zod configuration in the server bundle', () => {
    expect(readFileSync(path.join(ROOT, 'apps/server/dist/main.js'), 'utf8')).toMatch(zodConfigCall);
  });

  it('keep the zod configuration in the start-up chunks of the web app', () => {
    const initial = measureBundle(dist).initial.map((file) =>
      readFileSync(path.join(dist, file.file), 'utf8'),
    );
    expect(initial.some((code) => zodConfigCall.test(code))).toBe(true);
  });
});

describe('language packs in the browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it("shows the first screen with only the interface language's pack; the other one comes for the switch", async () => {
    const { context, page } = await newPage(browser, { locale: 'en-US' });
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    // hold the Russian pack back: the English start must not wait for it
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/assets/locale-ru-*.js', async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(baseUrl);
    await page.getByTestId('login-form').waitFor();
    await page.getByTestId('login-submit').click();
    await expect.poll(() => page.getByText('Enter login').isVisible()).toBe(true);
    expect(scripts.some((file) => /\/locale-en-/.test(file))).toBe(true);

    // the switch waits for the pack (the button spins), then changes the whole screen
    await page.getByTestId('lang-switch').click();
    release();
    await expect.poll(() => page.getByText('Введите логин').isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ru');
    expect(scripts.filter((file) => /\/locale-ru-/.test(file))).toHaveLength(1);

    // switching back needs no download
    await page.getByTestId('lang-switch').click();
    await expect.poll(() => page.getByText('Enter login').isVisible()).toBe(true);
    expect(scripts.filter((file) => /\/locale-/.test(file))).toHaveLength(2);
    await context.close();
  });

  it('shows the reload screen in the browser language when its pack cannot be loaded', async () => {
    const { context, page } = await newPage(browser, { locale: 'ru-RU' });
    await page.route('**/assets/locale-ru-*.js', (route) => route.abort());
    await page.goto(baseUrl);
    const screen = page.getByTestId('chunk-error');
    await screen.waitFor();
    expect(await screen.getAttribute('data-failure')).toBe('missing');
    expect(await screen.textContent()).toContain('Перезагрузить');
    await context.close();
  });

  it('keeps the language and says why when the other pack cannot be loaded', async () => {
    const { context, page } = await newPage(browser, { locale: 'en-US' });
    await page.route('**/assets/locale-ru-*.js', (route) => route.abort());
    await page.goto(baseUrl);
    await page.getByTestId('login-form').waitFor();
    await page.getByTestId('lang-switch').click();
    const toast = page.getByTestId('notification-error');
    await toast.waitFor();
    expect(await toast.textContent()).toContain('Part of the application is missing');
    expect(await page.getByTestId('lang-switch').getAttribute('data-locale')).toBe('en');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await context.close();
  });
});
