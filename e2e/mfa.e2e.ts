import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage } from './support/browser.ts';
import { DEMO_PASSWORD } from './support/session.ts';

const baseUrl = inject('baseUrl');
const DAVE_PHONE = '+79000000004';
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

/** The code of the newest message to dave, read from the demo's SMS outbox page. */
async function codeFromOutbox(page: Page, newerThan: number): Promise<{ code: string; id: number }> {
  let found: { code: string; id: number } | null = null;
  await expect
    .poll(async () => {
      const res = await page.request.get(`${baseUrl}/api/v0/dev/sms_outbox/`);
      const { results } = (await res.json()) as {
        results: Array<{ id: number; phone: string; body: string }>;
      };
      const message = results.find((m) => m.phone === DAVE_PHONE && m.id > newerThan);
      const code = message && /\b(\d{6})\b/.exec(message.body)?.[1];
      found = message && code ? { code, id: message.id } : null;
      return found !== null;
    })
    .toBe(true);
  return found!;
}

async function lastOutboxId(page: Page): Promise<number> {
  const res = await page.request.get(`${baseUrl}/api/v0/dev/sms_outbox/`);
  const { results } = (await res.json()) as { results: Array<{ id: number }> };
  return results[0]?.id ?? 0;
}

async function typePin(page: Page, pin: string) {
  await page.getByTestId('mfa-pin').locator('input').first().click();
  await page.keyboard.type(pin);
}

describe('SMS second factor', () => {
  it('signs dave in with the code from the outbox after a wrong one', async () => {
    const { context, page } = await newPage(browser);
    const before = await lastOutboxId(page);
    await page.goto(`${baseUrl}/dashboard`);
    await page.getByTestId('login-username').fill('dave');
    await page.getByTestId('login-password').fill(DEMO_PASSWORD);
    await page.getByTestId('login-submit').click();
    await page.getByTestId('mfa-form').waitFor();
    expect(await page.getByTestId('mfa-resend').isDisabled()).toBe(true);
    expect(await page.getByTestId('mfa-resend').textContent()).toMatch(/New code in [01]:\d\d/);

    const { code } = await codeFromOutbox(page, before);
    const wrong = code === '000000' ? '111111' : '000000';
    await typePin(page, wrong);
    const tooltip = page.getByRole('tooltip');
    await tooltip.waitFor();
    expect(await tooltip.textContent()).toContain('Invalid code');

    await typePin(page, code);
    await page.getByTestId('shell-header').waitFor();
    await page.getByTestId('profile-menu').click();
    expect(await page.getByTestId('profile-fullname').textContent()).toBeTruthy();
    await context.close();
  });

  it('shows the outbox page of the demo', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${baseUrl}/dev/sms-outbox`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('SMS outbox');
    await context.close();
  });
});
