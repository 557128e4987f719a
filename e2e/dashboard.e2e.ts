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

const DAY = 86_400_000;
/** The whole demo period (180 days up to the end of today), so that every chart has data. */
function wholePeriod(): string {
  const end = new Date();
  end.setHours(23, 59, 59, 999);
  return `created__gte=${end.getTime() + 1 - 181 * DAY}&created__lte=${end.getTime()}`;
}

const WIDGETS = ['priority', 'status', 'timeline', 'category', 'sla', 'top_domains', 'top_ips', 'eps'];

/** Waits until every widget shows its chart (an SVG drawn by ECharts) and the MITRE matrix its tactics. */
async function widgetsPainted(page: Page): Promise<void> {
  for (const id of WIDGETS) await page.locator(`[data-testid="widget-${id}-chart"] svg`).first().waitFor();
  await page.getByTestId('mitre-tactic-initial-access').waitFor();
}

/** An item of the widget menu just opened (a closing menu may still be fading out before it). */
const menuItem = (page: Page, name: string) =>
  page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').last().getByRole('menuitem', { name });

/** Fill colours of the texts ECharts drew in a chart. */
const textFills = (page: Page, testId: string) =>
  page
    .locator(`[data-testid="${testId}"] svg text`)
    .evaluateAll((nodes) => [
      ...new Set(nodes.map((n) => n.getAttribute('fill') ?? getComputedStyle(n).fill)),
    ]);

describe('dashboard', () => {
  it('renders every widget, and a pie slice opens the incident list with the same count', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'carol');
    await page.getByTestId('dashboard-page').waitFor();
    // the default period: today minus 6 days to today
    const range = page.getByTestId('dashboard-range');
    await range.first().waitFor();
    const day = (offset: number) => {
      const d = new Date(Date.now() + offset * DAY);
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    };
    expect(await range.first().inputValue()).toBe(day(-6));
    expect(await range.last().inputValue()).toBe(day(0));

    await page.goto(`${baseUrl}/dashboard?${wholePeriod()}`);
    await widgetsPainted(page);

    // factoids with the previous period, the EPS summary and MITRE's notice beside the matrix
    await expect.poll(() => page.getByTestId('factoid-count').innerText()).toMatch(/previous period/);
    await page.getByTestId('eps-summary').waitFor();
    expect(await page.getByTestId('mitre-copyright').innerText()).toContain('The MITRE Corporation');
    expect(await page.getByTestId('mitre-tactic-initial-access').innerText()).toContain('Initial Access');

    // the largest slice is drawn first, clockwise from 12 o'clock: click just right of the top
    const first = page.locator('[data-testid="widget-priority-values"] li').first();
    const item = (await first.getAttribute('data-item'))!;
    const value = Number(await first.getAttribute('data-value'));
    expect(value).toBeGreaterThan(0);
    const box = (await page.getByTestId('widget-priority-chart').boundingBox())!;
    const r = (0.6 * Math.min(box.width, box.height)) / 2;
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height * 0.45;
    const angle = (15 * Math.PI) / 180;
    await page.mouse.click(cx + 0.6 * r * Math.sin(angle), cy - 0.6 * r * Math.cos(angle));

    await page.waitForURL(/\/incidents\?/);
    const url = new URL(page.url());
    expect(url.searchParams.get('priority__in')).toBe(item);
    expect(url.searchParams.get('created__gte')).not.toBeNull();
    await expect
      .poll(() => page.getByTestId('incidents-total').innerText(), { timeout: 10_000 })
      .toMatch(new RegExp(`of ${value}$`));
    await context.close();
  });

  it('keeps the layout, titles and chart types over a reload and restores the default', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'alice');
    await page.goto(`${baseUrl}/dashboard?${wholePeriod()}`);
    await widgetsPainted(page);

    // rename: the title is required
    await page.getByTestId('widget-status-menu').click();
    await menuItem(page, 'Rename').click();
    const input = page.getByTestId('widget-title-input');
    await input.fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Enter the chart title').waitFor();
    await input.fill('Statuses of my systems');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => page.getByTestId('widget-status-title').innerText())
      .toBe('Statuses of my systems');

    // chart type: status as a pie
    await page.getByTestId('widget-status-menu').click();
    await menuItem(page, 'Pie chart').click();
    await expect.poll(() => page.getByTestId('widget-status').getAttribute('data-chart')).toBe('pie');

    // delete the top IP addresses
    await page.getByTestId('widget-top_ips-menu').click();
    await menuItem(page, 'Delete').click();
    await page.getByTestId('widget-top_ips').waitFor({ state: 'detached' });

    // drag the priority widget down below the timeline
    const handle = page.getByTestId('widget-priority-title');
    const from = (await page.getByTestId('widget-priority').boundingBox())!;
    const start = (await handle.boundingBox())!;
    await page.mouse.move(start.x + 5, start.y + 5);
    await page.mouse.down();
    for (let step = 1; step <= 10; step++) await page.mouse.move(start.x + 5, start.y + 5 + step * 70);
    await page.mouse.up();
    await expect
      .poll(async () => (await page.getByTestId('widget-priority').boundingBox())!.y)
      .toBeGreaterThan(from.y + 200);
    const moved = (await page.getByTestId('widget-priority').boundingBox())!;

    await page.reload();
    await page.getByTestId('widget-status-chart').waitFor();
    expect(await page.getByTestId('widget-status-title').innerText()).toBe('Statuses of my systems');
    expect(await page.getByTestId('widget-status').getAttribute('data-chart')).toBe('pie');
    expect(await page.getByTestId('widget-top_ips').count()).toBe(0);
    await expect
      .poll(async () => Math.round((await page.getByTestId('widget-priority').boundingBox())!.y))
      .toBe(Math.round(moved.y));

    await page.getByTestId('dashboard-restore').click();
    await page.getByTestId('widget-top_ips').waitFor();
    expect(await page.getByTestId('widget-status-title').innerText()).toBe('Status');
    await context.close();
  });

  it('recolours the charts when the theme changes', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'alice');
    await page.goto(`${baseUrl}/dashboard?${wholePeriod()}`);
    await widgetsPainted(page);
    const chart = page.getByTestId('widget-status-chart');
    expect(await chart.getAttribute('data-chart-theme')).toBe('light');
    const light = await textFills(page, 'widget-status-chart');
    expect(light.length).toBeGreaterThan(0);

    await page.getByTestId('theme-switch').click();
    await expect.poll(() => chart.getAttribute('data-chart-theme')).toBe('dark');
    await expect.poll(() => textFills(page, 'widget-status-chart')).not.toEqual(light);
    const dark = await textFills(page, 'widget-status-chart');
    expect(dark.some((fill) => light.includes(fill))).toBe(false);
    await context.close();
  });
});
