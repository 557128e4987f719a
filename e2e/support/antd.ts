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
