import type { Page } from 'playwright-core';

/** The option list of the antd Select that is open now. */
const openDropdown = (page: Page) =>
  page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').last();

/**
 * Opens the antd Select with `testId`, picks the options with these titles, and closes it
 * (multiselect filters apply on closing).
 */
export async function pickOptions(
  page: Page,
  testId: string,
  titles: string[],
  close = true,
  match: 'exact' | 'prefix' = 'exact',
  /** Type each title into the select's search first (long, virtualised option lists). */
  search = false,
): Promise<void> {
  await page.getByTestId(testId).click();
  const dropdown = openDropdown(page);
  await dropdown.waitFor();
  for (const title of titles) {
    if (search) await page.keyboard.type(title);
    const selector = match === 'exact' ? `[title="${title}"]` : `[title^="${title}"]`;
    await dropdown.locator(`.ant-select-item-option${selector}`).first().click();
  }
  if (close) await page.keyboard.press('Escape');
}

/**
 * Picks the option `text` of the single antd Select with `testId` and waits until the select
 * shows it. A click that a dropdown's opening animation or a re-render swallowed is tried again
 * (at most `attempts` times), so the step waits for the selected state, not for time.
 */
export async function chooseOption(page: Page, testId: string, text: string, attempts = 4): Promise<void> {
  const select = page.getByTestId(testId);
  const shown = select
    .locator('.ant-select-content, .ant-select-selection-item')
    .filter({ hasText: text })
    .first();
  for (let attempt = 1; ; attempt++) {
    try {
      if (!(await openDropdown(page).isVisible())) await select.click();
      await openDropdown(page).locator('.ant-select-item-option').filter({ hasText: text }).first().click();
      await shown.waitFor({ timeout: 5_000 });
      return;
    } catch (err) {
      if (attempt >= attempts) throw err;
      if (await openDropdown(page).isVisible()) await page.keyboard.press('Escape');
    }
  }
}

/**
 * Waits for a toast (antd notification) with this text. The page itself watches for it (not a
 * poll from the test process, which a loaded machine can stall for longer than a toast shows);
 * a failure lists the toasts that did show. Call it once the request behind the toast has been
 * answered (`answerTo`): the timeout is for rendering, not for the server.
 */
export async function expectToast(page: Page, text: string, timeout = 10_000): Promise<void> {
  const toasts = page.locator('.ant-notification-notice');
  try {
    await toasts.filter({ hasText: text }).first().waitFor({ timeout });
  } catch (error) {
    const shown = await toasts.allInnerTexts();
    throw new Error(`no toast with "${text}" within ${timeout} ms; shown: ${JSON.stringify(shown)}`, {
      cause: error,
    });
  }
}
