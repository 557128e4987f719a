import AxeBuilder from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage } from './support/browser.ts';
import { signIn } from './support/session.ts';

const baseUrl = inject('baseUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

/** Serious and critical violations, as readable lines. */
async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe.each(['light', 'dark'] as const)('accessibility in the %s theme', (theme) => {
  it('login page has no serious or critical violation', async () => {
    const { context, page } = await newPage(browser);
    await page.addInitScript((t) => localStorage.setItem('currentTheme', t), theme);
    await page.goto(baseUrl);
    await page.getByTestId('login-form').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('shell has no serious or critical violation', async () => {
    const { context, page } = await newPage(browser);
    await page.addInitScript((t) => localStorage.setItem('currentTheme', t), theme);
    await signIn(page, baseUrl, 'carol');
    await page.getByTestId('placeholder-page').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('incident page has no serious or critical violation', async () => {
    const { context, page } = await newPage(browser);
    await page.addInitScript((t) => localStorage.setItem('currentTheme', t), theme);
    await signIn(page, baseUrl, 'carol');
    await page.goto(`${baseUrl}/incidents`);
    await page.getByTestId('incident-card-link').first().click();
    await page.getByTestId('incident-main-info').waitFor();
    await page.getByTestId('comments-list').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });
});
