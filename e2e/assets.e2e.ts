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

interface Page<T> {
  total: number;
  results: T[];
}

describe('assets', () => {
  it('finds an asset, opens it with capped count badges, and resizes and collapses the software panel', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'alice');

    // a server of alice's with more than 99 programs (demo Windows servers carry their updates)
    const servers = await apiCall<Page<{ cmdb_id: string; name: string }>>(
      baseUrl,
      page,
      '/cmdb/assets/?asset_type__in=server&page_size=100',
    );
    let target: { cmdb_id: string; name: string; software: number } | null = null;
    for (const asset of servers.results) {
      const software = await apiCall<Page<unknown>>(
        baseUrl,
        page,
        `/cmdb/assets/${asset.cmdb_id}/software/?limit=100`,
      );
      if (software.total > 99) {
        target = { ...asset, software: software.total };
        break;
      }
    }
    expect(target).not.toBeNull();

    await page
      .getByTestId('main-menu')
      .getByRole('link', { name: /Assets/ })
      .click();
    await page.getByTestId('assets-page').waitFor();
    expect(new URL(page.url()).pathname).toBe('/cmdb/assets');
    await page.getByTestId('assets-search-input').fill(target!.name);
    await page.getByTestId('assets-search-input').press('Enter');
    const link = page.getByTestId('asset-link').filter({ hasText: target!.name }).first();
    await link.click();
    await page.getByTestId('asset-header').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/cmdb/assets/${target!.cmdb_id}`);
    expect(await page.getByTestId('asset-title').innerText()).toBe(target!.name);

    const incidents = await apiCall<Page<unknown>>(
      baseUrl,
      page,
      `/cmdb/assets/${target!.cmdb_id}/incidents/?limit=100`,
    );
    await expect.poll(() => page.getByTestId('asset-software-count').innerText()).toBe('99+');
    await expect
      .poll(() => page.getByTestId('asset-incidents-count').innerText())
      .toBe(incidents.total > 99 ? '99+' : String(incidents.total));
    await expect
      .poll(() => page.getByTestId('asset-incidents').locator('tbody tr.ant-table-row').count())
      .toBe(Math.min(15, incidents.total));

    // installed software: 40 rows, more on scroll
    await page.getByTestId('asset-tab-software').click();
    const rows = page.getByTestId('asset-software').locator('tbody tr.ant-table-row');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(40);
    await page.getByTestId('asset-software-more').scrollIntoViewIfNeeded();
    await expect.poll(() => rows.count()).toBeGreaterThan(40);

    // the panel: 450 by default, dragged wider, never beyond 700
    const panel = page.getByTestId('software-panel');
    expect(await panel.getAttribute('data-width')).toBe('450');
    // drags the handle by dx pixels (negative: to the left) at a height inside the window
    const drag = async (dx: number) => {
      await page.evaluate(() => window.scrollTo(0, 0));
      const box = (await page.getByTestId('software-panel-handle').boundingBox())!;
      const x = box.x + box.width / 2;
      const y = Math.max(box.y, 0) + 40;
      await page.mouse.move(x, y);
      await page.mouse.down();
      await page.mouse.move(x + dx, y, { steps: 5 });
      await page.mouse.up();
    };
    await drag(-150);
    await expect.poll(() => panel.getAttribute('data-width')).toBe('600');
    expect(Math.round((await panel.boundingBox())!.width)).toBe(600);
    await drag(-400);
    await expect.poll(() => panel.getAttribute('data-width')).toBe('700');
    await page.getByTestId('software-panel-collapse').click();
    expect(await panel.getAttribute('data-collapsed')).toBe('true');
    await page.getByTestId('software-panel-expand').click();
    expect(await panel.getAttribute('data-collapsed')).toBe('false');
    expect(await page.getByTestId('software-panel-details').innerText()).toContain(
      await rows.first().locator('td').first().innerText(),
    );
    await context.close();
  });
});
