import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { expectToast, pickOptions } from './support/antd.ts';
import { answerTo } from './support/api.ts';
import { launchBrowser, newPage } from './support/browser.ts';
import { signIn } from './support/session.ts';

const baseUrl = inject('baseUrl');
/** Polls wait as long as a busy CI machine needs (the default is one second). */
const POLL = { timeout: 15_000 };
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

describe('tasks', () => {
  it('opens a task from the Issues menu and chats with the SOC with an attachment', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'alice');
    await page.getByTestId('main-menu').getByText('Issues').hover();
    await page.getByRole('link', { name: 'Tasks' }).click();
    await page.getByTestId('tasks-page').waitFor();
    await page.getByTestId('task-card').first().waitFor();

    const subject = `VPN logons from abroad ${Date.now()}`;
    await page.getByTestId('tasks-create').click();
    await page.getByTestId('create-task-modal').waitFor();
    await pickOptions(page, 'create-task-type', ['Use Case Development'], false);
    // alice has one system: it is chosen for her
    await expect.poll(() => page.getByTestId('create-task-system').textContent(), POLL).toContain('IS-0001');
    await page.getByTestId('create-task-subject').fill(subject);
    await page.getByTestId('create-task-description').fill('Please alert on VPN logons from outside Russia.');
    await page.getByTestId('create-task-submit').click();
    await page.getByTestId('task-page').waitFor({ timeout: 30_000 });
    await expectToast(page, 'created');
    await expect.poll(() => page.getByTestId('task-subject').textContent(), POLL).toContain(subject);
    const url = new URL(page.url());
    expect(url.pathname).toBe('/issues/issues/task');
    expect(url.searchParams.get('model')).toBe('request');
    expect(url.searchParams.get('type')).toBe('use_case_development');
    const id = url.searchParams.get('id');
    expect(id).toMatch(/^\d+$/);
    await page.getByTestId('comments-empty').waitFor();

    // the chat: the incident composer, with a file; what looks like a tag is text as typed
    const text = 'The logs of <vpn-gw> are attached.';
    await page.getByTestId('comment-input').fill(text);
    await page.getByTestId('comment-file-input').setInputFiles([
      {
        name: 'vpn-журнал.log',
        mimeType: 'text/plain',
        buffer: Buffer.from('user=ivanov src=203.0.113.7'),
      },
    ]);
    await expect.poll(() => page.getByTestId('comment-file').count(), POLL).toBe(1);
    await page.getByTestId('comment-send').click();
    const message = page.getByTestId('comment').filter({ hasText: text });
    await message.waitFor({ timeout: 15_000 });
    await message.getByText('vpn-журнал.log').waitFor();
    expect(await message.getByTestId('comment-body').innerText()).toBe(text);
    await expect.poll(() => page.getByTestId('comment-input').inputValue(), POLL).toBe('');
    expect(await page.getByTestId('comment-file').count()).toBe(0);

    // a reload opens the same task with its chat
    await page.reload();
    await page.getByTestId('comment').filter({ hasText: text }).waitFor();
    await expect.poll(() => page.getByTestId('task-status').getAttribute('data-status'), POLL).toBe('open');

    // the list finds it, and its card links back to the task
    await page.goto(`${baseUrl}/issues/issues/task?${new URLSearchParams({ search: subject }).toString()}`);
    await expect.poll(() => page.getByTestId('task-card').count(), POLL).toBe(1);
    expect(await page.getByTestId('task-card').getAttribute('data-id')).toBe(id);
    await context.close();
  });
});

describe('security recommendations', () => {
  it('marks a recommendation as fixed with a comment from its side panel', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'alice');
    // unfiltered, one entry per recommendation, those with open findings first
    await page.goto(`${baseUrl}/misconfigs`);
    await page.getByTestId('misconfig-group').first().waitFor();
    const titles = await page
      .getByTestId('misconfig-group')
      .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-title')));
    expect(new Set(titles).size).toBe(titles.length);
    const openCounts = await page
      .getByTestId('misconfig-group-counts')
      .evaluateAll((counts) => counts.map((c) => /Open: \d/.test(c.textContent ?? '')));
    expect(
      openCounts.indexOf(false) === -1 || !openCounts.slice(openCounts.indexOf(false)).includes(true),
    ).toBe(true);

    await page.goto(`${baseUrl}/misconfigs?status__in=open`);
    await page.getByTestId('misconfigs-page').waitFor();
    const group = page.getByTestId('misconfig-group').first();
    await group.getByTestId('misconfig-group-toggle').click();
    const card = group.getByTestId('misconfig-card').first();
    await card.waitFor();
    const id = await card.getAttribute('data-id');
    await card.getByTestId('misconfig-title').click();
    const panel = page.getByTestId('misconfig-panel');
    await panel.waitFor();
    expect(await panel.getAttribute('data-id')).toBe(id);
    await panel.getByTestId('misconfig-recommendation').waitFor();

    await panel.getByTestId('misconfig-action-fix').click();
    await page.getByTestId('misconfig-action-dialog').waitFor();
    await page.getByTestId('misconfig-action-comment').fill('SMBv1 disabled through group policy.');
    const answer = await answerTo(page, 'POST', new RegExp(`/soc/misconfigs/${id}/[a-z_]+/$`), () =>
      page.getByTestId('misconfig-action-confirm').click(),
    );
    expect(answer.ok()).toBe(true);
    await expectToast(page, 'Marked as fixed');
    await expect
      .poll(() => panel.getByTestId('misconfig-status').getAttribute('data-status'), POLL)
      .toBe('fixed');
    await panel.getByTestId('misconfig-history').getByText('SMBv1 disabled through group policy.').waitFor();
    // with the "open" filter the fixed recommendation leaves the list
    await expect
      .poll(() => page.locator(`[data-testid="misconfig-card"][data-id="${id}"]`).count(), {
        timeout: 15_000,
      })
      .toBe(0);
    await context.close();
  });
});
