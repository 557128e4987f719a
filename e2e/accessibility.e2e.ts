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

/**
 * Serious and critical violations, as readable lines, once no finite animation or transition is
 * running: a colour measured mid-fade fails the contrast check (the incident's alerts tab fading
 * from its disabled grey once the alert count arrives, a modal zooming in). Endless ones
 * (spinners) are not waited for.
 */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity,
      ),
  );
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

  it('shell and dashboard have no serious or critical violation', async () => {
    const { context, page } = await newPage(browser);
    await page.addInitScript((t) => localStorage.setItem('currentTheme', t), theme);
    await signIn(page, baseUrl, 'carol');
    // the shell around the dashboard, once every widget has drawn
    await page.getByTestId('dashboard-page').waitFor();
    await page.getByTestId('mitre-tactic-initial-access').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('incident page has no serious or critical violation', async () => {
    const { context, page } = await newPage(browser);
    await page.addInitScript((t) => localStorage.setItem('currentTheme', t), theme);
    await signIn(page, baseUrl, 'carol');
    // the oldest incident: one of the demo data, not one that another browser test has just created
    // (e2e/xss.e2e.ts fills its own with hostile markup, an image without alt among it)
    await page.goto(`${baseUrl}/incidents?ordering=created`);
    await page.getByTestId('incident-card-link').first().click();
    await page.getByTestId('incident-main-info').waitFor();
    await page.getByTestId('comments-list').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('documentation hub has no serious or critical violation', async () => {
    const { context, page } = await newPage(browser);
    await page.addInitScript((t) => localStorage.setItem('currentTheme', t), theme);
    await signIn(page, baseUrl, 'carol');
    await page.goto(`${baseUrl}/docs/instructions`);
    await page.getByTestId('document-card').first().click();
    await page.getByTestId('document-side-panel').waitFor();
    await page.getByTestId('documents-filter-toggle').click();
    await page.getByTestId('documents-filter-row').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('document card has no serious or critical violation', async () => {
    const { context, page } = await newPage(browser);
    await page.addInitScript((t) => localStorage.setItem('currentTheme', t), theme);
    await signIn(page, baseUrl, 'carol');
    await page.goto(`${baseUrl}/docs/articles`);
    await page.getByTestId('document-card-link').first().click();
    await page.getByTestId('document-main-info').waitFor();
    await page
      .getByTestId('document-comments-list')
      .locator('[data-testid="document-comment"], [data-testid="document-comments-empty"]')
      .first()
      .waitFor();
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByTestId('document-history-open').click();
    await page.getByTestId('document-version-open').first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });
});
