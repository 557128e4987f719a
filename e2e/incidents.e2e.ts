import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { pickOptions } from './support/antd.ts';
import { launchBrowser, newPage } from './support/browser.ts';
import { signIn } from './support/session.ts';

const baseUrl = inject('baseUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

const cardTexts = (page: Page) => page.getByTestId('incident-card').allInnerTexts();

async function openIncidents(page: Page, user = 'alice'): Promise<void> {
  await signIn(page, baseUrl, user);
  await page.goto(`${baseUrl}/incidents`);
  await page.getByTestId('incidents-page').waitFor();
  await page.getByTestId('incident-card').first().waitFor();
}

describe('incident list', () => {
  it('filters by status and priority, and keeps the filters over a reload', async () => {
    const { context, page } = await newPage(browser);
    await openIncidents(page);
    await page.getByTestId('incidents-filter-toggle').click();
    await page.getByTestId('incidents-filter-row').waitFor();
    await pickOptions(page, 'filter-status', ['Closed']);
    await expect.poll(() => new URL(page.url()).searchParams.get('status__in')).toBe('closed');
    await pickOptions(page, 'filter-priority', ['Medium', 'Low']);
    await expect
      .poll(() => new URL(page.url()).searchParams.get('priority__in')?.split(',').sort().join(','))
      .toBe('low,medium');
    await expect
      .poll(async () => {
        const texts = await cardTexts(page);
        return (
          texts.length > 0 &&
          texts.every((t) => t.includes('Closed') && (t.includes('Medium') || t.includes('Low')))
        );
      })
      .toBe(true);
    const total = await page.getByTestId('incidents-total').textContent();
    await page.reload();
    await page.getByTestId('incident-card').first().waitFor();
    expect(new URL(page.url()).searchParams.get('status__in')).toBe('closed');
    await expect.poll(() => page.getByTestId('incidents-total').textContent()).toBe(total);
    const stored = await page.evaluate(() => localStorage.getItem('filters'));
    expect(stored).toContain('status__in');
    await context.close();
  });

  it('loads the next page when the list is scrolled to its end', async () => {
    const { context, page } = await newPage(browser);
    await openIncidents(page, 'carol');
    const nextPage = page.waitForRequest(
      (r) => r.url().includes('/api/v0/soc/incs/') && r.url().includes('offset=40'),
    );
    for (let i = 0; i < 20; i++) {
      await page.getByTestId('incidents-list').evaluate((el) => el.scrollBy(0, 4000));
      await page.waitForTimeout(100);
    }
    await nextPage;
    // the range shown grows past the first page
    await expect
      .poll(async () =>
        Number(/^1[-–](\d+) /.exec((await page.getByTestId('incidents-total').textContent()) ?? '')?.[1]),
      )
      .toBeGreaterThan(40);
    await context.close();
  });

  it('shows "no data" when nothing matches the search', async () => {
    const { context, page } = await newPage(browser);
    await openIncidents(page);
    await page.getByTestId('incidents-search-input').fill('  no-such-incident-anywhere  ');
    await page.getByTestId('incidents-search-input').press('Enter');
    await page.getByTestId('incidents-empty').waitFor();
    expect(new URL(page.url()).searchParams.get('search')).toBe('no-such-incident-anywhere');
    await context.close();
  });
});

describe('registering an incident', () => {
  it('creates an incident with an attachment and finds it in the list', async () => {
    const { context, page } = await newPage(browser);
    await openIncidents(page);
    const title = `E2E suspicious VPN logon ${Date.now()}`;
    await page.getByTestId('incidents-create-button').click();
    await page.getByTestId('create-incident-modal').waitFor();
    await pickOptions(page, 'create-issuetype', ['Security incident'], false);
    await page.getByTestId('create-title').fill(title);
    await page.getByTestId('create-description').fill('Logon from an unusual country, please check.');
    await pickOptions(page, 'create-system', ['IS-0001'], false, 'prefix');
    await pickOptions(page, 'create-category', ['Phishing'], false, 'exact', true);
    await pickOptions(page, 'create-priority', ['High'], false);
    await page.getByTestId('create-attachments').setInputFiles({
      name: 'evidence.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('first seen 10:42, source 203.0.113.7'),
    });
    await page.getByTestId('create-submit').click();
    await expect
      .poll(() => page.getByText(/Incident \d+ added/).count(), { timeout: 15_000 })
      .toBeGreaterThan(0);
    await expect.poll(() => page.getByText('Files added').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('create-incident-modal').isVisible()).toBe(false);
    await page.getByTestId('incidents-search-input').fill(title);
    await page.getByTestId('incidents-search-button').click();
    await expect.poll(async () => (await cardTexts(page)).filter((t) => t.includes(title)).length).toBe(1);

    // the incident reached the server with its fields ("Files added" shows only after the upload call succeeded)
    const token = await page.evaluate(
      () => (JSON.parse(localStorage.getItem('auth') ?? '{}') as { access?: string }).access,
    );
    const list = (await (
      await fetch(`${baseUrl}/api/v0/soc/incs/?search=${encodeURIComponent(title)}`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { results: { key: number; priority: string }[] };
    expect(list.results).toHaveLength(1);
    expect(list.results[0]!.priority).toBe('high');
    await context.close();
  });
});

describe('CSV export', () => {
  it('downloads the filtered list as CSV', async () => {
    const { context, page } = await newPage(browser);
    await openIncidents(page);
    await page.goto(`${baseUrl}/incidents?status__in=closed`);
    await page.getByTestId('incident-card').first().waitFor();
    const totalText = (await page.getByTestId('incidents-total').textContent()) ?? '';
    const total = Number(/(\d+)\s*$/.exec(totalText.trim())?.[1]);
    const download = page.waitForEvent('download');
    await page.getByTestId('incidents-csv-button').click();
    const file = await (await download).path();
    const raw = readFileSync(file);
    expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = raw.toString('utf8').slice(1).trim().split('\n');
    expect(lines[0]).toMatch(/^Key,Summary,System,/);
    expect(lines).toHaveLength(total + 1);
    expect(lines.slice(1).every((l) => l.includes(',Closed,'))).toBe(true);
    await context.close();
  });
});
