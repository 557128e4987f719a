import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPage } from './support/browser.ts';
import { analystIncident, apiAs } from './support/api.ts';
import { signIn } from './support/session.ts';

const baseUrl = inject('baseUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

const api = <T>(username: string, path: string, init: RequestInit = {}) =>
  apiAs<T>(baseUrl, username, path, init);

const comment = (username: string, key: number, body: string) => {
  const form = new FormData();
  form.append('body', body);
  return api(username, `/soc/incs/${key}/comments/`, { method: 'POST', body: form });
};

describe('the notification centre', () => {
  it('counts an SOC comment on a followed incident at once; its line opens the incident and is read', async () => {
    // an incident of alice's system that she follows (she commented on it)
    const summary = `Inbox: beaconing from WS-${Date.now() % 100000}`;
    const { key } = await analystIncident(baseUrl, summary, 'Periodic HTTPS requests to a new domain.');
    /** Alice's items about the incident, by kind, once the jobs have written `expected` of them. */
    const settled = (expected: Record<string, number>) =>
      expect
        .poll(
          async () => {
            const inbox = await api<{ results: { kind: string; incident: { key: number } | null }[] }>(
              'alice',
              '/notifications/inbox/',
            );
            const kinds: Record<string, number> = {};
            for (const item of inbox.results.filter((i) => i.incident?.key === key)) {
              kinds[item.kind] = (kinds[item.kind] ?? 0) + 1;
            }
            return kinds;
          },
          { timeout: 20_000 },
        )
        .toEqual(expected);
    // alice follows it from her comment, which also hands it to the SOC: a status change of her
    // own, which her notification centre leaves out
    await comment('alice', key, 'We are looking into it.');
    await settled({ incident_created: 1 });

    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'alice');
    const streamOpened = page.waitForResponse(
      (r) => r.url().includes('/api/v0/events/?ticket=') && r.status() === 200,
    );
    await page.goto(`${baseUrl}/dashboard`);
    await streamOpened;
    const bell = page.getByTestId('inbox-bell');
    const unreadOf = async () => Number(await bell.getAttribute('data-unread'));
    const serverUnread = async () =>
      (await api<{ unread: number }>('alice', '/notifications/inbox/count/')).unread;
    const before = await serverUnread();
    await expect.poll(unreadOf).toBe(before);
    let reloads = 0;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) reloads += 1;
    });

    // the SOC's answer: a comment, and the incident back to waiting for the customer
    await comment('analyst', key, 'Please isolate the workstation.');
    // well inside the bell's 60 s poll: only the stream's signal brings it this fast
    await expect.poll(unreadOf, { timeout: 15_000 }).toBeGreaterThan(before);
    await settled({ incident_created: 1, status_changed: 1, comment: 1 });
    await expect.poll(unreadOf, { timeout: 15_000 }).toBe(before + 2);
    expect(reloads).toBe(0);

    await bell.click();
    await page.getByTestId('inbox-panel').waitFor({ timeout: 15_000 });
    // newest first: the SOC's comment and its status change are the top lines
    const comments = page
      .getByTestId('inbox-item')
      .filter({ hasText: /comment on incident|комментарий к инциденту/ })
      .filter({ hasText: String(key) });
    await comments.first().waitFor({ timeout: 15_000 });
    expect(await comments.first().getAttribute('data-read')).toBe('false');
    await comments.first().click();
    await page.waitForURL(`${baseUrl}/inc/${key}`, { timeout: 15_000 });
    await page.getByText(summary).first().waitFor({ timeout: 15_000 });
    await expect.poll(unreadOf, { timeout: 15_000 }).toBe(before + 1);
    expect(await serverUnread()).toBe(before + 1);
    await context.close();
  });
  it('shows the unread only when asked, and opens that way after a reload', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'alice');
    await page.goto(`${baseUrl}/dashboard`);
    const bell = page.getByTestId('inbox-bell');
    await bell.click();
    const panel = page.getByTestId('inbox-panel');
    await panel.waitFor({ timeout: 15_000 });
    const toggle = panel.getByRole('switch', { name: /Unread only|Только непрочитанные/ });
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    const unreadAsked = page.waitForResponse(
      (r) => r.url().includes('/notifications/inbox/?') && r.url().includes('unread=true'),
    );
    await toggle.click();
    await unreadAsked;
    const unread = (await api<{ unread: number }>('alice', '/notifications/inbox/count/')).unread;
    /** What the panel shows: its lines' read states, or the empty state. */
    const shown = async () =>
      (await panel.getByTestId('inbox-empty').isVisible())
        ? 'empty'
        : await panel.getByTestId('inbox-item').evaluateAll((lines) => lines.map((l) => l.dataset.read));
    if (unread === 0) {
      await expect.poll(shown, { timeout: 15_000 }).toBe('empty');
      expect(await panel.getByTestId('inbox-empty').textContent()).toMatch(
        /No unread notifications|Нет непрочитанных уведомлений/,
      );
    } else {
      const lines = Math.min(unread, 20);
      await expect.poll(shown, { timeout: 15_000 }).toEqual(Array<string>(lines).fill('false'));
    }

    await page.reload();
    await bell.click();
    await panel.waitFor({ timeout: 15_000 });
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    await context.close();
  });
});
