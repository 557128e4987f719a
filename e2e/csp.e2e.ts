import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newPage } from './support/browser.ts';
import { signIn } from './support/session.ts';

/*
 * Issue 25, item 17 (b): the portal's Content-Security-Policy forbids eval, and nothing the
 * portal ships may try it. zod 4 probed `new Function('')` on every page, which the browser
 * refused and reported; any such attempt, or any other CSP violation, fails this test.
 */

const baseUrl = inject('baseUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

/** Every CSP violation the page reports, as events and as console errors. */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|unsafe-eval/i.test(message.text())) {
      consoleErrors.push(message.text());
    }
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __cspViolations: string[] };
    w.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  return async () => [
    ...(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)),
    ...consoleErrors,
  ];
}

describe('Content-Security-Policy', () => {
  it('is not violated on the login page', async () => {
    const { context, page } = await newPage(browser);
    const violations = await watchCsp(page);
    await page.goto(baseUrl);
    await page.getByTestId('login-form').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await violations()).toEqual([]);
    await context.close();
  });

  it('is not violated on the signed-in pages, in light and dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const { context, page } = await newPage(browser, { colorScheme });
      const violations = await watchCsp(page);
      await signIn(page, baseUrl, 'alice');
      await page.waitForLoadState('networkidle');
      for (const path of ['/incidents', '/docs/rules', '/reports']) {
        // a client-side navigation: the page's listener stays, each route's chunk loads
        await page.evaluate((to) => {
          window.history.pushState(null, '', to);
          window.dispatchEvent(new PopStateEvent('popstate'));
        }, path);
        await page.waitForLoadState('networkidle');
      }
      expect(await violations(), colorScheme).toEqual([]);
      await context.close();
    }
  });
});
