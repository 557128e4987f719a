import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { chooseOption } from './support/antd.ts';
import { launchBrowser, newPage } from './support/browser.ts';
import { signIn } from './support/session.ts';

const baseUrl = inject('baseUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

describe('reports', () => {
  it('orders a one-off report, sees it in the list once built and downloads it', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'alice');
    await page.getByTestId('main-menu').getByRole('link', { name: 'Reports' }).click();
    await page.waitForURL(`${baseUrl}/reports/reportsList`);
    await page.locator('[data-testid="reports-page"][data-tab="reportsList"]').waitFor();
    // the demo data has a report of alice's system
    await page.getByTestId('report-row').first().waitFor();

    const name = `E2E one-off ${Date.now()}`;
    await page.getByTestId('reports-create').click();
    const form = page.getByTestId('report-form');
    await form.waitFor();
    await page.getByTestId('report-form-name').fill(name);
    // an address outside alice's system is refused on the field, naming it (issue 25 item 12)
    await page.getByTestId('report-form-emails').fill('alice@customer1.example, leak@evil.example');
    // a preset clicked while the picker's panel is still opening can be lost (seen once in CI):
    // pick the period again until the form shows it
    const info = page.getByTestId('report-form-info');
    await expect
      .poll(async () => {
        if (!(await info.innerText()).includes('one-off report')) {
          await page.getByTestId('report-form-range').first().click();
          await page.locator('.ant-picker-presets li', { hasText: 'Last 30 days' }).click();
        }
        return info.innerText();
      })
      .toContain('one-off report');
    expect(await page.getByTestId('report-form-submit').innerText()).toBe('Create report');
    await page.getByTestId('report-form-submit').click();
    await form
      .locator('.ant-form-item-explain-error', { hasText: 'leak@evil.example is neither a user' })
      .waitFor();
    await page.getByTestId('report-form-emails').fill('alice@customer1.example');
    await page.getByTestId('report-form-submit').click();
    await page
      .getByTestId('notification-success')
      .filter({ hasText: 'The report will be generated' })
      .waitFor();
    await form.waitFor({ state: 'hidden' });

    // the list looks for the report until the job runner has built it
    const fileStem = name.replace(/\s+/g, ' ');
    const row = page.getByTestId('report-row').filter({ hasText: fileStem });
    await row.waitFor({ timeout: 60_000 });

    const download = page.waitForEvent('download');
    await row.getByTestId('report-download').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^E2E one-off \d+_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.pdf$/);
    const bytes = readFileSync(await file.path());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    // delete it with its confirmation
    await row.getByTestId('report-delete').click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'Delete' }).click();
    await page.getByTestId('notification-success').filter({ hasText: 'The report is deleted' }).waitFor();
    await row.waitFor({ state: 'detached' });
    await context.close();
  });

  it('shows a period as its calendar days, takes typed dates and starts with the own address', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'alice');
    await page.goto(`${baseUrl}/reports/reportsList`);
    // the demo file names its period's first and last day in the report zone; the Period column
    // shows the same days whatever the browser's zone (a Moscow midnight is the day before in UTC)
    const demo = page
      .getByTestId('report-row')
      .filter({ hasText: /_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.pdf/ });
    await demo.first().waitFor();
    const text = await demo.first().innerText();
    const [, first, last] = /_(\d{4}-\d{2}-\d{2})_(\d{4}-\d{2}-\d{2})\.pdf/.exec(text)!;
    const written = (ymd: string) =>
      new Intl.DateTimeFormat('en-GB', {
        day: 'numeric',
        month: 'short',
        year: 'numeric',
        timeZone: 'UTC',
      }).format(new Date(`${ymd}T00:00:00Z`));
    expect(text).toContain(`${written(first!)} — ${written(last!)}`);

    await page.getByTestId('reports-create').click();
    await page.getByTestId('report-form').waitFor();
    await expect
      .poll(() => page.getByTestId('report-form-emails').inputValue())
      .toBe('alice@customer1.example');
    // the field says who may receive the report before it is sent
    await expect
      .poll(() => page.getByTestId('report-form-recipients-rule').innerText())
      .toMatch(/users of the chosen systems/i);
    // typed as the interface writes dates elsewhere or as ISO: both are read
    await page.getByTestId('report-form-range').first().click();
    await page.keyboard.type('01.11.2026');
    await page.keyboard.press('Enter');
    await page.keyboard.type('2026-11-15');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.getByTestId('report-form-info').innerText())
      .toContain('1 Nov 2026 — 15 Nov 2026');
    await context.close();
  });

  it('creates, edits and deletes a schedule', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'bob');
    await page.goto(`${baseUrl}/reports/reportsList`);
    const name = `E2E weekly ${Date.now()}`;
    await page.getByTestId('reports-create').click();
    await page.getByTestId('report-form').waitFor();
    await page.getByTestId('report-form-name').fill(name);
    // a click that the dropdown's opening animation swallowed is tried again: the start field
    // shows only once the period is chosen
    await chooseOption(page, 'report-form-period', 'Every week');
    // 30.11.2026 is a Monday
    const start = page.getByTestId('report-form-start');
    await start.click();
    await page.keyboard.type('30.11.2026 09:30');
    await page.keyboard.press('Enter');
    await page.getByTestId('report-form-emails').fill('bob@customer2.example');
    await expect
      .poll(() => page.getByTestId('report-form-info').innerText())
      .toContain('Every week on Monday at 09:30');
    expect(await page.getByTestId('report-form-submit').innerText()).toBe('Save schedule');
    await page.getByTestId('report-form-submit').click();
    await page.getByTestId('notification-success').filter({ hasText: 'The settings are saved' }).waitFor();

    await page.getByRole('tab', { name: 'Schedules' }).click();
    await page.waitForURL(`${baseUrl}/reports/reportShedules`);
    const card = page.getByTestId('schedule-card').filter({ hasText: name });
    await card.waitFor();
    expect(await card.innerText()).toContain('Every week');
    // written as every date of the interface: the day, the month's name, four-digit year, 24 h
    expect(await card.innerText()).toContain('30 Nov 2026, 09:30');

    // select the card, then edit its name
    await card.click();
    await card.getByTestId('schedule-edit').click();
    await page.getByTestId('report-form').waitFor();
    const renamed = `${name} (edited)`;
    await page.getByTestId('report-form-name').fill(renamed);
    expect(await page.getByTestId('report-form-submit').innerText()).toBe('Save');
    await page.getByTestId('report-form-submit').click();
    await page
      .getByTestId('notification-success')
      .filter({ hasText: 'The settings are saved' })
      .last()
      .waitFor();
    const edited = page.getByTestId('schedule-card').filter({ hasText: renamed });
    await edited.waitFor();
    expect(await edited.innerText()).toContain('Every week');

    await edited.click();
    await edited.getByTestId('schedule-delete').click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'Delete' }).click();
    await page.getByTestId('notification-success').filter({ hasText: 'The schedule is deleted' }).waitFor();
    await edited.waitFor({ state: 'detached' });

    // an unknown tab opens the dashboard
    await page.goto(`${baseUrl}/reports/nope`);
    await page.waitForURL(`${baseUrl}/dashboard`);
    await context.close();
  });
});
