import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPage } from './support/browser.ts';
import { analystIncident } from './support/api.ts';
import { signIn } from './support/session.ts';

const baseUrl = inject('baseUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

describe('live updates', () => {
  it('shows an incident created through the API on an open incident list, without a reload', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'alice');
    const streamOpened = page.waitForResponse(
      (r) => r.url().includes('/api/v0/events/?ticket=') && r.status() === 200,
    );
    await page.goto(`${baseUrl}/incidents`);
    await page.getByTestId('incident-card').first().waitFor();
    await streamOpened;
    let reloads = 0;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) reloads += 1;
    });

    const summary = `Live: ransomware note on FS-${Date.now() % 100000}`;
    const created = await analystIncident(baseUrl, summary, 'Files renamed to *.locked on the file server.');

    // well inside the 30 s poll: only the event stream can bring it this fast
    await page.getByTestId('incident-card').filter({ hasText: summary }).waitFor({ timeout: 10_000 });
    await page
      .getByTestId('notification-warning')
      .filter({ hasText: String(created.key) })
      .waitFor({ timeout: 10_000 });
    expect(reloads).toBe(0);
    await context.close();
  });
});
