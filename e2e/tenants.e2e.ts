import { SYSTEMS_TABLE_MIN_HEIGHT } from '@soc/contracts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { apiCall } from './support/api.ts';
import { launchBrowser, newPage } from './support/browser.ts';
import { signIn } from './support/session.ts';

const baseUrl = inject('baseUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

describe('protected systems', () => {
  it('lists the customer’s systems and opens a system card with services, SLA and contacts', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'alice');
    await page.getByTestId('main-menu').getByRole('link', { name: 'Systems' }).click();
    await page.getByTestId('tenants-page').waitFor();
    const links = page.getByTestId('tenants-link');
    await links.first().waitFor();
    expect(await links.allInnerTexts()).toEqual(['IS-0001']);

    await links.first().click();
    await page.getByTestId('tenant-main-info').waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/tenants\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    const card = await apiCall<{
      full_name: string;
      services: { name: string }[];
      customer_contacts: { email: string }[];
    }>(baseUrl, page, `/soc/systems/${id}/`);
    expect(await page.getByTestId('tenant-title').innerText()).toBe(card.full_name);
    expect(await page.getByTestId('tenant-service').count()).toBe(card.services.length);
    expect(await page.getByTestId('tenant-sla').first().locator('tbody tr').count()).toBeGreaterThan(0);
    const contacts = await page.getByTestId('tenant-contacts').innerText();
    for (const contact of card.customer_contacts) expect(contacts).toContain(contact.email);

    // the breadcrumb leads back to the table
    await page.getByRole('main').getByRole('link', { name: 'Systems' }).click();
    await page.getByTestId('tenants-table').waitFor();
    await context.close();
  });

  it('filters the systems table by id text and keeps the filter in the URL', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'analyst');
    await page.goto(`${baseUrl}/tenants`);
    await page.getByTestId('tenants-link').first().waitFor();
    expect(await page.getByTestId('tenants-link').count()).toBeGreaterThan(1);
    await page
      .getByTestId('tenants-table')
      .locator('th')
      .first()
      .locator('.ant-table-filter-trigger')
      .click();
    await page.getByTestId('tenants-filter-is_id-input').fill('0003');
    await page.getByTestId('tenants-filter-is_id-input').press('Enter');
    await expect.poll(() => page.getByTestId('tenants-link').allInnerTexts()).toEqual(['IS-0003']);
    expect(new URL(page.url()).searchParams.get('is_id__icontains')).toBe('0003');
    await page.reload();
    await expect.poll(() => page.getByTestId('tenants-link').allInnerTexts()).toEqual(['IS-0003']);
    await context.close();
  });

  it('opens the card at /tenants/IS-0003 and keeps the visible table at least 600 px tall', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'analyst');
    await page.goto(`${baseUrl}/tenants?is_id__icontains=0003`);
    await expect.poll(() => page.getByTestId('tenants-link').allInnerTexts()).toEqual(['IS-0003']);
    // one row: the table's own box (header and rows), not only the page, keeps its height
    const box = await page.getByTestId('tenants-table').locator('.ant-table-container').boundingBox();
    expect(box?.height).toBeGreaterThanOrEqual(SYSTEMS_TABLE_MIN_HEIGHT);
    await page.getByTestId('tenants-link').click();
    await page.getByTestId('tenant-title').waitFor();
    const byNumber = await page.getByTestId('tenant-title').innerText();

    await page.goto(`${baseUrl}/tenants/IS-0003`);
    await page.getByTestId('tenant-main-info').waitFor();
    expect(await page.getByTestId('tenant-title').innerText()).toBe(byNumber);
    await context.close();
  });
});

describe('log sources', () => {
  it('opens at /log-sources/total with totals, and the silent tab lists only silent sources', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'alice');
    await page.getByTestId('main-menu').getByRole('link', { name: 'Log sources' }).click();
    await page.getByTestId('logsources-page').waitFor();
    expect(new URL(page.url()).pathname).toBe('/log-sources/total');
    const summary = await apiCall<{ total: number; silent: number }>(
      baseUrl,
      page,
      '/soc/logsources/summary/',
    );
    await expect
      .poll(async () => (await page.getByTestId('logsources-count-total').innerText()).trim())
      .toBe(`(${summary.total})`);
    await expect.poll(() => page.getByTestId('logsource-status').count()).toBe(summary.total);
    await expect.poll(() => page.getByTestId('logsources-by-type').isVisible()).toBe(true);

    await page.getByTestId('logsources-tab-silent').click();
    await page.waitForURL(`${baseUrl}/log-sources/silent`);
    await expect.poll(() => page.getByTestId('logsource-status').count()).toBe(summary.silent);
    const statuses = await page
      .getByTestId('logsource-status')
      .evaluateAll((tags) => tags.map((t) => t.getAttribute('data-status')));
    expect(statuses.every((s) => s === 'silent')).toBe(true);

    // search narrows the table
    await page.getByTestId('logsources-tab-total').click();
    await page.getByTestId('logsources-search-input').fill('dc01');
    await page.getByTestId('logsources-search-input').press('Enter');
    await expect
      .poll(async () => {
        const names = await page
          .getByTestId('logsources-table')
          .locator('tbody tr td:first-child')
          .allInnerTexts();
        return names.length > 0 && names.every((n) => n.includes('dc01'));
      })
      .toBe(true);
    await context.close();
  });
});
