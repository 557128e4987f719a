import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { apiCall } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { launchBrowser, newPage } from './support/browser.ts';
import { signIn } from './support/session.ts';

/**
 * The phone layout on the secondary screens (below 1024 px, like phone.e2e.ts): every customer
 * screen opened by its address on a phone and a tablet held upright. On each the page never
 * scrolls sideways, the main heading is visible, the screen's primary control can be scrolled
 * into view, and axe finds nothing serious: every screen on the phone in the dark theme and on the
 * tablet in the light, a few of them in the other theme too. The list screens' filter bars are a
 * search and a "Filters" button on one line, the filters in a drawer. One browser, one sign-in;
 * every screen's problems are gathered and compared at the end, so one run names all of them.
 */
type Viewport = {
  name: string;
  width: number;
  height: number;
  theme: 'dark' | 'light';
  /** The paths of the screens tried at this viewport; all of them when absent. */
  only?: readonly string[];
};
const VIEWPORTS: readonly Viewport[] = [
  { name: 'phone', width: 390, height: 844, theme: 'dark' },
  { name: 'tablet', width: 768, height: 1024, theme: 'light' },
  // the other theme on the screens of the most colours and the filter drawers, keeping the run short
  {
    name: 'phone-light',
    width: 390,
    height: 844,
    theme: 'light',
    only: ['/dashboard', '/alerts', '/misconfigs', '/docs/instructions', '/profile/audit'],
  },
  {
    name: 'tablet-dark',
    width: 768,
    height: 1024,
    theme: 'dark',
    only: ['/dashboard', '/log-sources/total', '/cmdb/assets', '/reports/reportsList'],
  },
];

type Screen = {
  path: string;
  /** Shown once the screen has its data. */
  ready: (page: Page) => Locator;
  /** The control a visitor comes for. */
  control: (page: Page) => Locator;
  /** The main heading, if not the page's first h1. */
  heading?: (page: Page) => Locator;
  /** What the control opens, checked as it is open: its problems. */
  open?: (page: Page, width: number) => Promise<string[]>;
};

const baseUrl = inject('baseUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

const byTestId = (testId: string) => (page: Page) => page.getByTestId(testId).first();

/** With PHONE_SCREENSHOTS (a folder) set, a screenshot of the viewport there, to look at. */
async function shoot(page: Page, name: string): Promise<void> {
  const folder = process.env.PHONE_SCREENSHOTS;
  if (folder) await page.screenshot({ path: `${folder}/${page.viewportSize()!.width}-${name}.png` });
}

/** Where the element lies sideways, if it does not fit between 0 and `width`. */
async function outside(what: string, element: Locator, width: number): Promise<string[]> {
  const box = await element.boundingBox();
  if (!box) return [`${what} is not shown`];
  return box.x < -1 || box.x + box.width > width + 1 ? [`${what} sticks out: ${box.x}+${box.width}`] : [];
}

/** Waits until no animation runs (a drawer sliding in or out). */
const settle = (page: Page) =>
  page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));

/**
 * A list screen's filter bar (FilterBar, `prefix`-filter-bar): one line that fits the screen, the
 * search and a "Filters" button; the button opens the filters in a drawer within the screen,
 * its fields as wide as the drawer, and the drawer's close button closes it.
 */
const openFilterDrawer =
  (prefix: string) =>
  async (page: Page, width: number): Promise<string[]> => {
    const found: string[] = [];
    const bar = page.getByTestId(`${prefix}-filter-bar`);
    if ((await bar.getAttribute('data-filters')) !== 'drawer') found.push('the filters are not in a drawer');
    const line = await bar.evaluate((element) => ({
      tops: new Set(Array.from(element.children, (child) => Math.round(child.getBoundingClientRect().top)))
        .size,
      overflow: element.scrollWidth - element.clientWidth,
    }));
    if (line.tops !== 1) found.push(`the filter bar wraps onto ${line.tops} lines`);
    if (line.overflow !== 0) found.push(`the filter bar scrolls sideways by ${line.overflow} px`);
    found.push(...(await outside('the filter bar', bar, width)));
    await page.getByTestId(`${prefix}-filter-toggle`).click();
    const drawer = page
      .locator('.ant-drawer-content-wrapper')
      .filter({ has: page.getByTestId(`${prefix}-filters`) });
    await drawer.waitFor();
    await settle(page);
    await shoot(page, `${prefix}-filters`);
    found.push(...(await outside('the filter drawer', drawer, width)));
    const fields = await page
      .getByTestId(`${prefix}-filters`)
      .evaluate((element) => element.scrollWidth - element.clientWidth);
    if (fields !== 0) found.push(`the filter drawer's fields scroll sideways by ${fields} px`);
    const overflow = await sidewaysScroll(page);
    if (overflow !== 0) found.push(`the open filter drawer scrolls the page sideways by ${overflow} px`);
    found.push(...(await seriousViolations(page)).map((line) => `filter drawer: ${line}`));
    await drawer.getByRole('button', { name: 'Close the filters' }).click();
    await drawer.waitFor({ state: 'hidden' });
    return found;
  };

/** The dashboard's range picker opens its calendars within the screen. */
async function openRangePicker(page: Page, width: number): Promise<string[]> {
  await page.getByTestId('dashboard-range').first().click();
  const popup = page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)');
  await popup.waitFor();
  await settle(page);
  await shoot(page, 'range-picker');
  const found = await outside('the range picker', popup, width);
  const overflow = await sidewaysScroll(page);
  if (overflow !== 0) found.push(`the open range picker scrolls the page sideways by ${overflow} px`);
  await page.keyboard.press('Escape');
  await popup.waitFor({ state: 'hidden' });
  return found;
}

/** A dialog fills the screen. */
async function openDialog(page: Page, width: number): Promise<string[]> {
  await page.getByTestId('reports-create').click();
  const dialog = page.locator('.ant-modal').first();
  await dialog.waitFor();
  await settle(page);
  await shoot(page, 'dialog');
  const box = (await dialog.boundingBox())!;
  const found =
    Math.abs(box.width - width) > 1 || box.x !== 0
      ? [`the dialog is not full-screen: ${box.x}+${box.width}`]
      : [];
  found.push(...(await seriousViolations(page)).map((line) => `dialog: ${line}`));
  await page.getByTestId('report-form-cancel').click();
  await dialog.waitFor({ state: 'hidden' });
  return found;
}

/** The documentation's sections are a select above the list; a document's summary fills the screen. */
async function openDocument(page: Page, width: number): Promise<string[]> {
  const found: string[] = [];
  if ((await page.getByTestId('docs-side-nav').getByRole('combobox').count()) !== 1) {
    found.push('the documentation sections are not a select');
  }
  await page.getByTestId('document-card').first().click();
  const panel = page
    .locator('.ant-drawer-content-wrapper')
    .filter({ has: page.getByTestId('document-side-panel') });
  await panel.waitFor();
  await settle(page);
  await shoot(page, 'summary');
  const box = (await panel.boundingBox())!;
  if (Math.abs(box.width - width) > 1) found.push(`the summary is not full-width: ${box.width}`);
  const closers = await panel.getByRole('button', { name: /^Close/ }).count();
  if (closers !== 1) found.push(`the summary has ${closers} close buttons`);
  found.push(...(await seriousViolations(page)).map((line) => `summary: ${line}`));
  await page.getByRole('button', { name: 'Close the details' }).click();
  await panel.waitFor({ state: 'hidden' });
  return found;
}

/** The screens, with the ids of the demo objects the detail screens show. */
async function screens(page: Page): Promise<Screen[]> {
  type Results<T> = { results: T[] };
  const first = async <T>(path: string): Promise<T> =>
    (await apiCall<Results<T>>(baseUrl, page, path)).results[0]!;
  const system = await first<{ id: number }>('/soc/systems/?page_size=1');
  const asset = await first<{ cmdb_id: string }>('/cmdb/assets/?page_size=1');
  const instruction = await first<{ id: number }>('/soc/instructions/?language=en&page_size=1');
  const rule = await first<{ id: number }>('/soc/rules/?page_size=1');
  return [
    {
      path: '/dashboard',
      ready: byTestId('dashboard-stack'),
      control: byTestId('dashboard-range'),
      heading: (page) => page.getByRole('heading', { name: 'Dashboard', exact: true }),
      open: openRangePicker,
    },
    { path: '/tenants', ready: byTestId('tenants-link'), control: byTestId('tenants-link') },
    {
      path: `/tenants/${system.id}`,
      ready: byTestId('tenant-main-info'),
      control: byTestId('tenant-contacts'),
    },
    {
      path: '/reports/reportsList',
      ready: byTestId('reports-list-card'),
      control: byTestId('reports-create'),
      open: openDialog,
    },
    {
      path: '/reports/reportShedules',
      ready: byTestId('schedules-create'),
      control: byTestId('schedules-create'),
    },
    {
      path: '/log-sources/total',
      ready: byTestId('logsources-table'),
      control: byTestId('logsources-search-input'),
      open: openFilterDrawer('logsources'),
    },
    {
      path: '/cmdb/assets',
      ready: byTestId('asset-link'),
      control: byTestId('assets-search-input'),
      open: openFilterDrawer('assets'),
    },
    {
      path: `/cmdb/assets/${asset.cmdb_id}`,
      ready: byTestId('asset-header'),
      control: byTestId('asset-tab-software'),
    },
    {
      path: '/docs/instructions',
      ready: byTestId('document-card'),
      control: byTestId('docs-side-nav'),
      open: openDocument,
    },
    {
      path: '/docs/articles',
      ready: byTestId('documents-page'),
      control: byTestId('documents-search-input'),
    },
    { path: '/docs/rules', ready: byTestId('rules-view'), control: byTestId('rules-search-input') },
    {
      path: `/instruction/${instruction.id}`,
      ready: byTestId('document-title'),
      control: byTestId('document-comment-input'),
    },
    { path: `/rule/${rule.id}`, ready: byTestId('rule-panels'), control: byTestId('rule-tabs') },
    {
      path: '/misconfigs',
      ready: byTestId('misconfigs-page'),
      control: byTestId('misconfigs-filter-toggle'),
      open: openFilterDrawer('misconfigs'),
    },
    {
      path: '/alerts',
      ready: byTestId('alerts-page'),
      control: byTestId('alerts-filter-toggle'),
      open: openFilterDrawer('alerts'),
    },
    { path: '/changepassword', ready: byTestId('api-tokens-card'), control: byTestId('api-token-create') },
    {
      path: '/profile/audit',
      ready: byTestId('audit-table'),
      control: byTestId('audit-search'),
      open: openFilterDrawer('audit'),
    },
    { path: '/webhooks', ready: byTestId('webhooks-table'), control: byTestId('webhook-add') },
    { path: '/profile/ioc-feed', ready: byTestId('ioc-feed-preview'), control: byTestId('ioc-feed-curl') },
  ];
}

/** How far the page scrolls sideways (0: not at all). */
const sidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/**
 * Scrolls the control into view and reads where it is, again on the next frame while it is not
 * inside the viewport: content above it that is still arriving (a document's body) can push it
 * down after the scroll. Gives up after CONTROL_SETTLE_MS, with the last position.
 */
async function scrollToControl(page: Page, control: Locator, width: number, height: number) {
  const deadline = Date.now() + CONTROL_SETTLE_MS;
  for (;;) {
    const box = await control
      .scrollIntoViewIfNeeded({ timeout: 5_000 })
      .then(() => control.boundingBox())
      .catch(() => null);
    // sideways from the page's left edge: scrolling the page sideways does not make it reachable
    const left = (box?.x ?? 0) + (await page.evaluate(() => window.scrollX));
    const inside =
      box !== null &&
      left >= 0 &&
      left + box.width <= width &&
      box.y >= 0 &&
      box.y + Math.min(box.height, 40) <= height;
    if (inside || Date.now() > deadline) return { box, left, inside };
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  }
}

/** How long a control may take to stay where it was scrolled to. */
const CONTROL_SETTLE_MS = 10_000;

/** What is wrong with the screen now open, as readable lines. */
async function problems(page: Page, screen: Screen, width: number, height: number): Promise<string[]> {
  const found: string[] = [];
  const overflow = await sidewaysScroll(page);
  if (overflow !== 0) found.push(`scrolls sideways by ${overflow} px`);
  const heading = (screen.heading ?? ((p: Page) => p.getByRole('heading', { level: 1 })))(page).first();
  if (!(await heading.isVisible())) found.push('no visible main heading');
  else {
    const box = (await heading.boundingBox())!;
    if (box.x < 0 || box.x + box.width > width) found.push('the main heading is cut off');
  }
  const { box, left, inside } = await scrollToControl(page, screen.control(page), width, height);
  if (!box) found.push('the primary control is not shown');
  else if (!inside) {
    found.push(`the primary control lies outside the viewport (${JSON.stringify({ ...box, x: left })})`);
  }
  await page.waitForLoadState('networkidle');
  found.push(...(await seriousViolations(page)));
  if (screen.open) {
    const opened = await screen.open(page, width).catch((error: Error) => [error.message.split('\n')[0]!]);
    found.push(...opened);
  }
  return found;
}

describe('the secondary screens below 1024 px', () => {
  it('fit a phone and a tablet, in both themes, without sideways scrolling', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'alice');
    const list = await screens(page);
    const report: Record<string, string[]> = {};
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await page.evaluate((theme) => localStorage.setItem('currentTheme', theme), viewport.theme);
      for (const screen of list.filter((s) => !viewport.only || viewport.only.includes(s.path))) {
        await page.goto(`${baseUrl}${screen.path}`);
        await page.locator(`[data-layout="phone"]`).waitFor();
        await screen.ready(page).waitFor();
        const found = await problems(page, screen, viewport.width, viewport.height);
        if (process.env.PHONE_SCREENSHOTS) {
          const name = `${viewport.name}${screen.path.replaceAll('/', '_')}`;
          await page.screenshot({ path: `${process.env.PHONE_SCREENSHOTS}/${name}.png`, fullPage: true });
        }
        if (found.length > 0) report[`${viewport.name} ${screen.path}`] = found;
      }
    }
    expect(report).toEqual({});
    await context.close();
  }, 600_000);
});
