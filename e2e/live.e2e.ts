import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPage } from './support/browser.ts';
import { DEMO_PASSWORD, signIn } from './support/session.ts';

const baseUrl = inject('baseUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

/** Calls the API as the SOC analyst, as the provider's integrations do. */
async function asAnalyst<T>(path: string, init: RequestInit = {}): Promise<T> {
  const login = await fetch(`${baseUrl}/api/v0/auth/token/obtain/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'analyst', password: DEMO_PASSWORD }),
  });
  const { access } = (await login.json()) as { access: string };
  const response = await fetch(`${baseUrl}/api/v0${path}`, {
    ...init,
    headers: { authorization: `Bearer ${access}`, 'content-type': 'application/json' },
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

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

    const systems = await asAnalyst<{ results: { id: number; is_id: string }[] }>(
      '/soc/systems/?page_size=100',
    );
    const system = systems.results.find((s) => s.is_id === 'IS-0001')!;
    const types = await asAnalyst<{ results: { id: number; code: string }[] }>('/soc/issue_types/');
    const type = types.results.find((t) => t.code === 'incident')!;
    const cats = await asAnalyst<{ results: { id: number }[] }>(`/soc/issues/${type.id}/categories/`);
    const summary = `Live: ransomware note on FS-${Date.now() % 100000}`;
    const created = await asAnalyst<{ key: number }>('/soc/incs/', {
      method: 'POST',
      body: JSON.stringify({
        system: system.id,
        summary,
        issuetype: type.id,
        priority: 'high',
        description: 'Files renamed to *.locked on the file server.',
        primary_category: cats.results[0]!.id,
      }),
    });

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
