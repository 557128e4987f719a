import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import type { Eps } from '@soc/contracts';
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

type Box = { x: number; y: number; width: number; height: number };
const intersect = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const inside = (a: Box, b: Box) =>
  a.x >= b.x - 1 &&
  a.y >= b.y - 1 &&
  a.x + a.width <= b.x + b.width + 1 &&
  a.y + a.height <= b.y + b.height + 1;

/** The texts ECharts drew and shows (labels it hid for overlapping are left out), with their boxes. */
const shownTexts = (chart: Locator) =>
  chart.locator('svg text').evaluateAll((nodes) =>
    nodes.flatMap((n) => {
      const r = n.getBoundingClientRect();
      let shown = r.width > 0 && r.height > 0;
      const clipped = n.closest('[clip-path]') !== null;
      for (let e: Element | null = n; e && shown; e = e.parentElement) {
        const style = getComputedStyle(e);
        shown = style.display !== 'none' && style.visibility !== 'hidden' && Number(style.opacity) > 0;
      }
      return shown
        ? [{ text: n.textContent ?? '', clipped, x: r.x, y: r.y, width: r.width, height: r.height }]
        : [];
    }),
  );

/** The dashboard of the whole demo period for one tenant, and the EPS answer it got. */
async function openEps(page: Page, system: number): Promise<Eps> {
  // this tenant's answer: the page left behind (the sign-in's dashboard) may still be answered
  // its own, whose body is gone once the browser has navigated away
  const [answer] = await Promise.all([
    page.waitForResponse(
      (r) => {
        const url = new URL(r.url());
        return (
          r.request().method() === 'GET' &&
          /\/soc\/dashboards\/eps\/$/.test(url.pathname) &&
          url.searchParams.get('system__in') === String(system)
        );
      },
      { timeout: 45_000 },
    ),
    page.goto(`${baseUrl}/dashboard?${wholePeriod()}&system__in=${system}`),
  ]);
  await page.locator('[data-testid="widget-eps-chart"] svg text').first().waitFor();
  return (await answer.json()) as Eps;
}

/** A fresh page signed in as `user` on the dashboard of the whole demo period, every widget drawn. */
async function openDashboard(user: string) {
  const opened = await newPage(browser);
  await signIn(opened.page, baseUrl, user);
  await opened.page.goto(`${baseUrl}/dashboard?${wholePeriod()}`);
  await widgetsPainted(opened.page);
  return opened;
}

/** A widget shows all it holds without scrolling inside it. */
async function noInnerScroll(page: Page, id: string): Promise<void> {
  const [scroll, client] = await page
    .getByTestId(`widget-${id}-body`)
    .evaluate((e) => [e.scrollHeight, e.clientHeight]);
  expect(scroll).toBeLessThanOrEqual(client);
}

/** The EPS widget shows its whole chart without scrolling inside the widget. */
async function epsFits(page: Page): Promise<void> {
  await noInnerScroll(page, 'eps');
  const body = (await page.getByTestId('widget-eps-body').boundingBox())!;
  expect(inside((await page.getByTestId('widget-eps-chart').boundingBox())!, body)).toBe(true);
}

/** Deletes a widget through its menu. */
async function deleteWidget(page: Page, id: string): Promise<void> {
  await page.getByTestId(`widget-${id}-menu`).click();
  await menuItem(page, 'Delete').click();
  await page.getByTestId(`widget-${id}`).waitFor({ state: 'detached' });
}

const axisValues = (texts: { text: string }[]) =>
  texts.map((t) => Number(t.text.replace(/[\s,]/g, ''))).filter((n) => Number.isFinite(n));

describe('dashboard: the ATT&CK matrix fits its widget', () => {
  for (const width of [1440, 1920]) {
    it(`shows every tactic without scrolling sideways at ${width} px, in balanced rows`, async () => {
      const { context, page } = await newPage(browser);
      await page.setViewportSize({ width, height: 900 });
      await signIn(page, baseUrl, 'carol');
      await page.goto(`${baseUrl}/dashboard?${wholePeriod()}`);
      const grid = page.getByTestId('mitre-grid');
      await page.getByTestId('mitre-tactic-initial-access').waitFor();
      await grid.scrollIntoViewIfNeeded();
      // no tactic hides in a sideways-scrolling area, none is cut at the widget's edge
      await expect
        .poll(() => grid.evaluate((element) => element.scrollWidth - element.clientWidth))
        .toBeLessThanOrEqual(0);
      const box = (await grid.boundingBox())!;
      for (const tactic of await page.getByTestId('mitre-tactic').all()) {
        const { x, width: w } = (await tactic.boundingBox())!;
        expect(x).toBeGreaterThanOrEqual(box.x - 0.5);
        expect(x + w).toBeLessThanOrEqual(box.x + box.width + 0.5);
      }
      // rows balanced: no row of one or two tactics left over
      const perRow = Number(await grid.getAttribute('data-per-row'));
      const tactics = await page.getByTestId('mitre-tactic').count();
      expect(tactics % perRow === 0 || tactics % perRow >= perRow - 1).toBe(true);
      await context.close();
    });
  }
});

describe('dashboard', () => {
  it('renders every widget, and a pie slice opens the incident list with the same count', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'carol');
    await page.getByTestId('dashboard-page').waitFor();
    // the default period: today minus 6 days to today
    const range = page.getByTestId('dashboard-range');
    await range.first().waitFor();
    // written as the interface writes a date in English ("27 Nov 2026"), as every picker is
    const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
    const day = (offset: number) => {
      const d = new Date(Date.now() + offset * DAY);
      return `${d.getDate()} ${MONTHS[d.getMonth()]} ${d.getFullYear()}`;
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
    const { context, page } = await openDashboard('alice');

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
    await deleteWidget(page, 'top_ips');

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
    const { context, page } = await openDashboard('alice');
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

  it('fits the EPS chart in its widget, its axis following the data and the contract readable', async () => {
    const { context, page } = await newPage(browser, { locale: 'ru-RU' });
    await signIn(page, baseUrl, 'carol');
    // tenant 1: hours of at most ~900 against a contract of 5,500
    const far = await openEps(page, 1);
    const peak = Math.max(...far.timeline.map((p) => p.value));
    expect(far.contracted_eps).toBeGreaterThan(2 * peak);
    await epsFits(page);
    const chart = page.getByTestId('widget-eps-chart');
    await expect.poll(async () => Math.max(...axisValues(await shownTexts(chart)))).toBeLessThan(2 * peak);
    expect(Math.max(...axisValues(await shownTexts(chart)))).toBeGreaterThanOrEqual(peak);
    const above = page.getByTestId('eps-contract-above');
    expect((await above.innerText()).replace(/\s/g, '')).toContain(`EPSподоговору:${far.contracted_eps}`);

    // tenant 3: the contract (1,000) among the hours, drawn as a line with its label in the chart
    const near = await openEps(page, 3);
    expect(near.contracted_eps).toBeLessThan(2 * Math.max(...near.timeline.map((p) => p.value)));
    await epsFits(page);
    const label = async () =>
      (await shownTexts(chart)).find((t) => t.text.replace(/\s/g, '').startsWith('EPSподоговору'));
    await expect.poll(async () => (await label())?.text.replace(/\s/g, '')).toBe('EPSподоговору:1000');
    expect(inside((await label())!, (await chart.boundingBox())!)).toBe(true);
    expect(await page.getByTestId('eps-contract-above').count()).toBe(0);
    // the peak in Russian figures ("2 911,42")
    const summary = (await page.getByTestId('eps-summary').innerText()).replace(/\s/g, '');
    expect(summary).toContain(`пик${String(near.excess_max_value).replace('.', ',')}`);
    await context.close();
  });

  it('draws pie labels that never overlap', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'alice');
    await page.goto(`${baseUrl}/dashboard?${wholePeriod()}`);
    await page.locator('[data-testid="widget-category-chart"] svg').first().waitFor();
    await page.getByTestId('widget-category-menu').click();
    await menuItem(page, 'Pie chart').click();
    const chart = page.getByTestId('widget-category-chart');
    await expect.poll(() => page.getByTestId('widget-category').getAttribute('data-chart')).toBe('pie');
    // the labels beside the slices; the legend's entries are clipped (it scrolls) and below them
    const labels = async () => (await shownTexts(chart)).filter((t) => !t.clipped);
    await expect.poll(async () => (await labels()).length).toBeGreaterThan(3);
    // wait for the slices' animation to end: the labels stop moving
    let before = JSON.stringify(await labels());
    await expect
      .poll(async () => {
        const now = JSON.stringify(await labels());
        const still = now === before;
        before = now;
        return still;
      })
      .toBe(true);
    const shown = await labels();
    const overlaps = shown.flatMap((a, n) =>
      shown.slice(n + 1).flatMap((b) => (intersect(a, b) ? [`${a.text} / ${b.text}`] : [])),
    );
    expect(overlaps).toEqual([]);
    const legendTop = Math.min(...(await shownTexts(chart)).filter((t) => t.clipped).map((t) => t.y));
    expect(shown.filter((t) => !/^\d+\/\d+$/.test(t.text) && t.y + t.height > legendTop)).toEqual([]);
    await context.close();
  });

  it('names the SLA gauge’s figure and its period', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'carol');
    await page.goto(`${baseUrl}/dashboard?${wholePeriod()}`);
    const caption = page.getByTestId('sla-caption');
    await caption.waitFor();
    expect(await caption.innerText()).toMatch(/^SLA breach rate\s+Incidents registered \S.* – \S.*$/);
    await noInnerScroll(page, 'sla');
    await context.close();
  });

  it('undoes a deletion and a restored layout, re-adds into the first free place, closes gaps', async () => {
    const { context, page } = await openDashboard('alice');
    // where a widget is on the grid (boxes on the screen move when the page scrolls)
    const box = async (id: string) => {
      const grid = (await page.getByTestId('dashboard-grid').boundingBox())!;
      const { x, y, width, height } = (await page.getByTestId(`widget-${id}`).boundingBox())!;
      return { x: x - grid.x, y: Math.round(y - grid.y), width, height };
    };
    const status = await box('status');

    // delete, then undo: the widget is back where it was
    await deleteWidget(page, 'status');
    await page.getByTestId('dashboard-undo-toast').getByText('Widget “Status” deleted').waitFor();
    await page.getByTestId('dashboard-undo').click();
    await page.getByTestId('widget-status').waitFor();
    await expect.poll(() => box('status')).toEqual(status);

    // delete it again and add it back: it fills the place it left, not the bottom of the grid
    await deleteWidget(page, 'status');
    await page.getByTestId('dashboard-add-widget').hover();
    await menuItem(page, 'Status').click();
    await page.getByTestId('widget-status').waitFor();
    await expect.poll(() => box('status')).toEqual(status);

    // with priority and status gone, the timeline moves up to the top of the grid
    const top = (await box('priority')).y;
    for (const id of ['priority', 'status']) await deleteWidget(page, id);
    await expect.poll(async () => (await box('timeline')).y).toBe(top);

    // restore the default layout, then undo: the two deletions are still in place
    await page.getByTestId('dashboard-restore').click();
    await page.getByTestId('widget-priority').waitFor();
    await page.getByTestId('dashboard-undo-toast').getByText('Default layout restored').waitFor();
    await page.getByTestId('dashboard-undo').click();
    await page.getByTestId('widget-priority').waitFor({ state: 'detached' });
    expect(await page.getByTestId('widget-status').count()).toBe(0);
    await page.reload();
    await page.getByTestId('widget-timeline').waitFor();
    expect(await page.getByTestId('widget-priority').count()).toBe(0);
    await context.close();
  });
});
