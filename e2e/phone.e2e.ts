import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { expectToast } from './support/antd.ts';
import { answerTo, apiCall } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { launchBrowser, newPage } from './support/browser.ts';
import { signIn } from './support/session.ts';

/**
 * The phone layout (issue 40, product §A2: below 1024 px): a phone and a tablet held upright.
 * On every screen the page never scrolls sideways, the header's controls are in the drawer that
 * the menu button opens, and axe finds nothing serious.
 */
const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'tablet', width: 768, height: 1024 },
] as const;
type Viewport = (typeof VIEWPORTS)[number];

const baseUrl = inject('baseUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

async function phonePage(viewport: Viewport) {
  const opened = await newPage(browser);
  await opened.page.setViewportSize({ width: viewport.width, height: viewport.height });
  return opened;
}

/** The page is no wider than the viewport: nothing scrolls it sideways. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    )
    .toBe(0);
}

/** The element lies inside the viewport horizontally (reachable without scrolling sideways). */
async function expectWithinWidth(page: Page, testId: string, width: number): Promise<void> {
  const box = await page.getByTestId(testId).first().boundingBox();
  expect(box).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(width);
}

const drawer = (page: Page) => page.locator('#phone-menu');

async function openMenu(page: Page): Promise<void> {
  const button = page.getByTestId('phone-menu-button');
  await button.click();
  await drawer(page).waitFor();
  await expect.poll(() => button.getAttribute('aria-expanded')).toBe('true');
}

/** A phone has no Escape key: the drawer's close button. */
async function closeMenu(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Close the menu' }).click();
  await drawer(page).waitFor({ state: 'hidden' });
}

/**
 * The header holds the brand and the menu button only; the drawer has every menu entry, the
 * language and theme switches (both work there) and the profile menu with sign-out.
 */
async function checkHeaderControls(page: Page): Promise<void> {
  const header = page.getByTestId('shell-header');
  expect(await header.getByTestId('lang-switch').count()).toBe(0);
  expect(await header.getByTestId('profile-menu').count()).toBe(0);
  await openMenu(page);
  const menu = drawer(page);
  for (const entry of ['Dashboard', 'Incidents', 'Tasks', 'Systems', 'Reports', 'Documentation']) {
    await menu.getByTestId('main-menu').getByRole('link', { name: entry, exact: true }).waitFor();
  }
  await menu.getByTestId('profile-logout').waitFor();

  const language = menu.getByTestId('lang-switch');
  await language.click();
  await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('ru');
  await menu.getByRole('link', { name: 'Инциденты', exact: true }).waitFor();
  await language.click();
  await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('en');

  const themeSwitch = menu.getByTestId('theme-switch');
  await themeSwitch.click();
  await expect.poll(() => themeSwitch.getAttribute('data-theme-mode')).toBe('dark');
  await themeSwitch.click();
  await expect.poll(() => themeSwitch.getAttribute('data-theme-mode')).toBe('light');
  await closeMenu(page);
}

async function signOutFromMenu(page: Page): Promise<void> {
  await openMenu(page);
  await drawer(page).getByTestId('profile-logout').click();
  await page.getByTestId('login-form').waitFor();
}

async function expectAxeClean(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  expect(await seriousViolations(page)).toEqual([]);
}

/** The first incident (with these filters) whose available actions include `action`. */
async function findIncident(page: Page, filters: string, action: string): Promise<number> {
  const list = await apiCall<{ results: { key: number }[] }>(baseUrl, page, `/soc/incs/?limit=40&${filters}`);
  for (const { key } of list.results) {
    const actions = await apiCall<{ results: string[] }>(
      baseUrl,
      page,
      `/soc/incs/${key}/available_actions/`,
    );
    if (actions.results.includes(action)) return key;
  }
  throw new Error(`no incident with ${filters} allowing ${action}`);
}

describe.each(VIEWPORTS)('the $name layout at $width px', (viewport) => {
  it('signs in without sideways scrolling', async () => {
    const { context, page } = await phonePage(viewport);
    await page.goto(baseUrl);
    await page.getByTestId('login-form').waitFor();
    await expectNoSidewaysScroll(page);
    await expectAxeClean(page);
    await signIn(page, baseUrl, 'carol');
    await page.getByTestId('dashboard-page').waitFor();
    await expectNoSidewaysScroll(page);
    await context.close();
  });

  it('stacks the dashboard widgets full width, with the header in the drawer', async () => {
    const { context, page } = await phonePage(viewport);
    await signIn(page, baseUrl, 'carol');
    const stack = page.getByTestId('dashboard-stack');
    await stack.waitFor();
    await page.getByTestId('mitre-tactic-initial-access').waitFor();
    expect(await page.getByTestId('dashboard-grid').count()).toBe(0);
    // every widget as wide as the column: one below the other
    const column = (await stack.boundingBox())!;
    const widgets = stack.locator(':scope > div');
    const count = await widgets.count();
    expect(count).toBeGreaterThan(3);
    let bottom = -Infinity;
    for (let index = 0; index < count; index++) {
      const box = (await widgets.nth(index).boundingBox())!;
      expect(Math.round(box.width)).toBe(Math.round(column.width));
      expect(box.y).toBeGreaterThanOrEqual(bottom);
      bottom = box.y + box.height;
    }
    await expectNoSidewaysScroll(page);
    await checkHeaderControls(page);
    await expectNoSidewaysScroll(page);
    await expectAxeClean(page);
    // the notification centre opens within the screen, full width, from the top bar's bell
    await page.getByTestId('inbox-bell').click();
    const inbox = page.getByTestId('inbox-panel');
    await inbox.waitFor();
    const box = (await inbox.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    expect(box.width).toBeGreaterThan(viewport.width * 0.8);
    await page.keyboard.press('Escape');
    await inbox.waitFor({ state: 'hidden' });
    await signOutFromMenu(page);
    await context.close();
  });

  it('lists incidents as cards with the filters in a drawer; a tap opens the incident', async () => {
    const { context, page } = await phonePage(viewport);
    await signIn(page, baseUrl, 'carol');
    await openMenu(page);
    await drawer(page).getByRole('link', { name: 'Incidents', exact: true }).click();
    await drawer(page).waitFor({ state: 'hidden' });
    const card = page.getByTestId('incident-card').first();
    await card.waitFor();
    // no side panel beside the cards
    expect(await page.getByTestId('incidents-side').count()).toBe(0);
    await expectNoSidewaysScroll(page);

    await page.getByTestId('incidents-filter-toggle').click();
    const filters = page.getByTestId('incidents-filter-row');
    await filters.waitFor();
    await expectNoSidewaysScroll(page);
    await page.getByRole('button', { name: 'Close the filters' }).click();
    await filters.waitFor({ state: 'hidden' });

    // the next page still loads as the list scrolls to its end
    const feed = page.getByTestId('incidents-list');
    const firstCount = await page.getByTestId('incident-card').count();
    const nextPage = answerTo(page, 'GET', /\/soc\/incs\/$/, () =>
      feed.evaluate((element) => element.scrollTo({ top: element.scrollHeight })),
    );
    expect((await nextPage).status()).toBe(200);
    await feed.evaluate((element) => element.scrollTo({ top: 0 }));
    expect(firstCount).toBeGreaterThan(0);

    await checkHeaderControls(page);
    await expectAxeClean(page);

    const key = await card.getAttribute('data-key');
    await card.getByTestId('incident-card-summary').click();
    await page.waitForURL(`${baseUrl}/inc/${key}`);
    await page.getByTestId('incident-main-info').waitFor();
    await context.close();
  });

  it('shows the incident page as one column: confirm it, comment with a file', async () => {
    const { context, page } = await phonePage(viewport);
    await signIn(page, baseUrl, 'alice');
    const key = await findIncident(page, 'status__in=waiting_for_customer', 'confirm');
    await page.goto(`${baseUrl}/inc/${key}`);
    await page.getByTestId('incident-main-info').waitFor();
    await page.getByTestId('comments-list').waitFor();
    await expectNoSidewaysScroll(page);
    // info, tabs and comments one below the other
    const direction = await page
      .getByTestId('incident-columns')
      .evaluate((element) => getComputedStyle(element).flexDirection);
    expect(direction).toBe('column');
    await page.getByTestId('action-confirm').waitFor();
    await expectWithinWidth(page, 'action-confirm', viewport.width);
    await expectWithinWidth(page, 'comment-send', viewport.width);
    await checkHeaderControls(page);
    await expectAxeClean(page);

    await page.getByTestId('action-confirm').click();
    await page.getByTestId('action-dialog').waitFor();
    await page.getByTestId('action-comment').fill('Confirmed from a phone.');
    const answer = await answerTo(page, 'POST', new RegExp(`/soc/incs/${key}/confirm/$`), () =>
      page.getByTestId('action-submit').click(),
    );
    expect(answer.status()).toBe(200);
    await expectToast(page, 'Incident confirmed');
    await expect.poll(() => page.getByTestId('incident-status').textContent()).toBe('Work in progress');

    const text = `Phone note ${viewport.width} ${Date.now()}`;
    await page.getByTestId('comment-input').fill(text);
    await page
      .getByTestId('comment-file-input')
      .setInputFiles([
        { name: 'phone-журнал.log', mimeType: 'text/plain', buffer: Buffer.from('sshd: accepted key') },
      ]);
    await expect.poll(() => page.getByTestId('comment-file').count()).toBe(1);
    await page.getByTestId('comment-send').click();
    const comment = page.getByTestId('comment').filter({ hasText: text });
    await comment.waitFor({ timeout: 15_000 });
    await comment.getByText('phone-журнал.log').waitFor();
    await expectNoSidewaysScroll(page);
    await context.close();
  });

  it('lists and opens tasks without sideways scrolling', async () => {
    const { context, page } = await phonePage(viewport);
    await signIn(page, baseUrl, 'alice');
    await openMenu(page);
    await drawer(page).getByRole('link', { name: 'Tasks', exact: true }).click();
    await page.getByTestId('tasks-page').waitFor();
    await page.getByTestId('task-card').first().waitFor();
    await expectNoSidewaysScroll(page);
    await checkHeaderControls(page);
    await expectAxeClean(page);

    await page.getByTestId('task-link').first().click();
    await page.getByTestId('task-page').waitFor();
    await page.getByTestId('comments-list').waitFor();
    await expectNoSidewaysScroll(page);
    await expectAxeClean(page);
    await signOutFromMenu(page);
    await context.close();
  });
});
