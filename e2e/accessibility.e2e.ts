import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { seriousViolations } from './support/axe.ts';
import { attachToIncident } from './support/files.ts';
import { launchBrowser, newPage } from './support/browser.ts';
import { signIn } from './support/session.ts';

const baseUrl = inject('baseUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

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
  it('tenants list and tenant card have no serious or critical violation', async () => {
    const { context, page } = await newPage(browser);
    await page.addInitScript((t) => localStorage.setItem('currentTheme', t), theme);
    await signIn(page, baseUrl, 'carol');
    await page.goto(`${baseUrl}/tenants`);
    await page.getByTestId('tenants-table').waitFor();
    await page.getByTestId('tenants-link').first().waitFor();
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByTestId('tenants-link').first().click();
    await page.getByTestId('tenant-main-info').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('reports and their schedules have no serious or critical violation', async () => {
    const { context, page } = await newPage(browser);
    await page.addInitScript((t) => localStorage.setItem('currentTheme', t), theme);
    await signIn(page, baseUrl, 'carol');
    await page.goto(`${baseUrl}/reports`);
    await page.locator('[data-testid="reports-page"][data-tab="reportsList"]').waitFor();
    await page.getByTestId('report-row').first().waitFor();
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('tab', { name: /Schedules|Расписания/ }).click();
    await page.locator('[data-testid="reports-page"][data-tab="reportShedules"]').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('file viewer has no serious or critical violation', async () => {
    const { context, page } = await newPage(browser);
    await page.addInitScript((t) => localStorage.setItem('currentTheme', t), theme);
    await signIn(page, baseUrl, 'alice');
    const body = Buffer.from(JSON.stringify({ event: 'logon', host: 'web-01', count: 3 }));
    const [path] = await attachToIncident(baseUrl, page, [
      { name: `axe-${theme}.json`, type: 'application/json', body },
    ]);
    await page.goto(`${baseUrl}${path}`);
    await page.getByTestId('file-preview-json').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });
});
