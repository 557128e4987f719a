import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage } from './support/browser.ts';
import { signIn } from './support/session.ts';

/**
 * The screenshots of docs/screenshots/ (README, issue notes): the dashboard, an incident page and
 * Rules → MITRE at 1440 px in both themes, taken on every run so that they show the current build.
 */
const baseUrl = inject('baseUrl');
const folder = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(folder, { recursive: true });
});
afterAll(() => browser.close());

/** Waits for every finite animation to end, so that a picture shows the settled screen. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity,
      ),
  );
}

describe.each(['light', 'dark'] as const)('screenshots in the %s theme', (theme) => {
  const open = async () => {
    const { context, page } = await newPage(browser, { colorScheme: theme });
    await page.addInitScript((t) => localStorage.setItem('currentTheme', t), theme);
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, baseUrl, 'carol');
    return { context, page };
  };
  const shoot = async (page: Page, name: string) => {
    const path = `${folder}${name}-${theme}.png`;
    const png = await page.screenshot({ path, fullPage: false });
    // a PNG of the whole 1440 px viewport, not a blank or cropped capture
    expect(png.readUInt32BE(16)).toBe(1440);
  };

  it('dashboard', async () => {
    const { context, page } = await open();
    await page.getByTestId('dashboard-page').waitFor();
    await page.getByTestId('mitre-tactic-initial-access').waitFor();
    await settle(page);
    await shoot(page, 'dashboard');
    await context.close();
  });

  it('incident page', async () => {
    const { context, page } = await open();
    await page.goto(`${baseUrl}/incidents?ordering=created`);
    await page.getByTestId('incident-card-link').first().click();
    await page.getByTestId('incident-main-info').waitFor();
    await page.getByTestId('comments-list').waitFor();
    await settle(page);
    await shoot(page, 'incident-page');
    await context.close();
  });

  it('Rules → MITRE', async () => {
    const { context, page } = await open();
    await page.goto(`${baseUrl}/docs/rules`);
    await page.getByTestId('rules-mode').getByText('MITRE').click();
    await page.getByTestId('mitre-tactic').first().waitFor();
    await settle(page);
    await shoot(page, 'rules-mitre');
    await context.close();
  });
});
