import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { analystIncident, answerTo, apiAs } from './support/api.ts';
import { launchBrowser, newPage } from './support/browser.ts';
import { signIn } from './support/session.ts';

const baseUrl = inject('baseUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

interface Comment {
  body: string;
  from_soc: boolean;
}

describe('the SOC’s workspace', () => {
  it(
    'takes an incident from the queue to completion while the customer watches, never seeing the note',
    { timeout: 240_000 },
    async () => {
      const tag = Date.now() % 1_000_000;
      const note = `Internal: the sender matches campaign ${tag}`;
      const reply = `We blocked the sender of campaign ${tag}.`;
      const { key } = await analystIncident(
        baseUrl,
        `Phishing wave ${tag}`,
        'Several users reported the same mail with a link to a fake sign-in page.',
      );

      // the customer (alice, of IS-0001) keeps the incident open meanwhile
      const customer = await newPage(browser);
      await signIn(customer.page, baseUrl, 'alice');
      const streamOpened = customer.page.waitForResponse(
        (r) => r.url().includes('/api/v0/events/?ticket=') && r.status() === 200,
      );
      await customer.page.goto(`${baseUrl}/inc/${key}`);
      await customer.page.getByTestId('incident-main-info').waitFor();
      await streamOpened;
      expect(await customer.page.getByTestId('internal-notes').count()).toBe(0);

      // the analyst, in the browser only: the queue from the menu, newest first
      const staff = await newPage(browser);
      await signIn(staff.page, baseUrl, 'analyst');
      // the staff area is a submenu: its entries open on hover
      await staff.page.getByTestId('main-menu').getByRole('menuitem', { name: 'SOC' }).hover();
      await staff.page.getByRole('link', { name: 'Triage queue' }).click();
      await staff.page.getByTestId('soc-queue-table').waitFor();
      await staff.page.goto(`${baseUrl}/soc/queue?ordering=-created`);
      const row = staff.page.locator(`[data-testid="soc-queue-row"][data-key="${key}"]`);
      await row.waitFor({ timeout: 30_000 });
      await expect(row.getByTestId('soc-queue-reason').allTextContents()).resolves.toContain('Unassigned');
      await row.getByTestId('soc-queue-key').click();
      await staff.page.getByTestId('incident-main-info').waitFor();

      // assigns it to themself
      const assigned = await answerTo(staff.page, 'PATCH', new RegExp(`/analyst/incidents/${key}/$`), () =>
        staff.page.getByTestId('soc-assign-to-me').click(),
      );
      expect(assigned.status()).toBe(200);
      const card = (await assigned.json()) as { soc_assignee: { username: string } | null };
      expect(card.soc_assignee?.username).toBe('analyst');
      // once the analyst is the assignee, "Assign to me" goes
      await staff.page.getByTestId('soc-assign-to-me').waitFor({ state: 'detached' });

      // an internal note
      await staff.page.getByTestId('note-input').fill(note);
      const noted = await answerTo(staff.page, 'POST', new RegExp(`/analyst/incidents/${key}/notes/$`), () =>
        staff.page.getByTestId('note-send').click(),
      );
      expect(noted.status()).toBe(201);
      await staff.page.getByTestId('note-body').filter({ hasText: note }).waitFor();

      // a reply to the customer, as the SOC
      await staff.page.getByTestId('comment-input').fill(reply);
      const replied = await answerTo(staff.page, 'POST', new RegExp(`/soc/incs/${key}/comments/$`), () =>
        staff.page.getByTestId('comment-send').click(),
      );
      expect(replied.status()).toBe(201);

      // the customer sees the reply live, without a reload
      await customer.page.getByTestId('comment-body').filter({ hasText: reply }).waitFor({ timeout: 20_000 });

      // completes it with the required comment
      await staff.page.getByTestId('action-complete').click();
      await staff.page.getByTestId('staff-status-submit').click();
      await staff.page.getByTestId('staff-status-dialog').getByText('This field is required').waitFor();
      await staff.page.getByTestId('staff-status-comment').fill('Contained: the sender is blocked.');
      const completed = await answerTo(
        staff.page,
        'POST',
        new RegExp(`/analyst/incidents/${key}/status/$`),
        () => staff.page.getByTestId('staff-status-submit').click(),
      );
      expect(completed.status()).toBe(200);

      // the customer sees the completion live, and the note nowhere
      await customer.page
        .getByTestId('incident-status')
        .filter({ hasText: 'Completed' })
        .waitFor({ timeout: 20_000 });
      expect(await customer.page.content()).not.toContain(note);
      const chat = await apiAs<{ results: Comment[] }>(
        baseUrl,
        'alice',
        `/soc/incs/${key}/comments/?page_size=100`,
      );
      expect(chat.results.map((c) => c.body).join('\n')).not.toContain(note);
      expect(chat.results.some((c) => c.from_soc && c.body.includes(reply))).toBe(true);
      await customer.context.close();

      // publishes an article
      const title = `Spotting fake sign-in pages ${tag}`;
      await staff.page.goto(`${baseUrl}/docs/articles`);
      await staff.page.getByTestId('documents-create').click();
      await staff.page.getByTestId('document-editor-title').fill(title);
      await staff.page.getByTestId('document-editor-description-input').fill('1. Check the address bar.');
      await staff.page.getByRole('tab', { name: 'Preview' }).click();
      await staff.page.getByTestId('document-editor-description-preview').getByRole('listitem').waitFor();
      const published = await answerTo(staff.page, 'POST', /\/soc\/articles\/$/, () =>
        staff.page.getByTestId('document-editor-save').click(),
      );
      expect(published.status()).toBe(201);
      await staff.page.getByTestId('document-title').filter({ hasText: title }).waitFor();
      await staff.context.close();
    },
  );

  it('speaks Russian to staff, and is not there for customers', { timeout: 120_000 }, async () => {
    const staff = await newPage(browser, { locale: 'ru-RU' });
    await signIn(staff.page, baseUrl, 'analyst');
    await staff.page.getByTestId('main-menu').getByRole('menuitem', { name: 'SOC' }).hover();
    await staff.page.getByRole('link', { name: 'Очередь разбора' }).click();
    await staff.page.getByRole('heading', { name: 'Очередь SOC' }).waitFor();
    const row = staff.page.getByTestId('soc-queue-row').first();
    await row.waitFor();
    await row.getByTestId('soc-queue-key').click();
    await staff.page
      .getByTestId('notes-staff-only')
      .filter({ hasText: 'Видно только сотрудникам SOC' })
      .waitFor();
    await staff.context.close();

    const customer = await newPage(browser);
    await signIn(customer.page, baseUrl, 'alice');
    expect(await customer.page.getByTestId('main-menu').getByRole('menuitem', { name: 'SOC' }).count()).toBe(
      0,
    );
    let analystCalls = 0;
    customer.page.on('request', (request) => {
      if (request.url().includes('/api/v0/analyst/')) analystCalls += 1;
    });
    await customer.page.goto(`${baseUrl}/soc/queue`);
    await customer.page.getByTestId('soc-not-available').waitFor();
    expect(analystCalls).toBe(0);
    await customer.context.close();
  });
});
