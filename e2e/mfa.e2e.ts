import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage } from './support/browser.ts';
import { DEMO_PASSWORD, signOut } from './support/session.ts';

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

async function typePin(page: Page, pin: string, testId = 'mfa-pin') {
  await page.getByTestId(testId).locator('input').first().click();
  await page.keyboard.type(pin);
}

/** The RFC 6238 code of a base32 secret (30-second steps, 6 digits), as an authenticator app shows it. */
function totp(base32: string, at = Date.now()): string {
  const bits = [...base32.replace(/=+$/, '')]
    .map((c) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'.indexOf(c).toString(2).padStart(5, '0'))
    .join('');
  const key = Buffer.from(bits.match(/.{8}/g)!.map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
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

  it('replaces dave’s SMS with an authenticator app only with his password and an SMS code', async () => {
    const { context, page } = await newPage(browser);
    let before = await lastOutboxId(page);
    await page.goto(`${baseUrl}/changepassword`);
    await page.getByTestId('login-username').fill('dave');
    await page.getByTestId('login-password').fill(DEMO_PASSWORD);
    await page.getByTestId('login-submit').click();
    await page.getByTestId('mfa-form').waitFor();
    await typePin(page, (await codeFromOutbox(page, before)).code);
    await page.getByTestId('shell-header').waitFor();

    const card = page.getByTestId('totp-card');
    await card.getByTestId('totp-setup-start').click();
    await card.getByTestId('totp-password').fill('not-my-password');
    before = await lastOutboxId(page);
    await card.getByTestId('mfa-send-code').click();
    const sms = await codeFromOutbox(page, before);
    await typePin(page, sms.code, 'totp-current-code');
    await card.getByTestId('mfa-proof-submit').click();
    await expect
      .poll(() => card.getByTestId('mfa-proof-error').textContent())
      .toContain('Wrong password. The second factor was not changed.');

    await card.getByTestId('totp-password').fill(DEMO_PASSWORD);
    await card.getByTestId('mfa-proof-submit').click();
    const secret = (await card.getByTestId('totp-secret').textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]+$/);
    await typePin(page, totp(secret), 'totp-setup');
    await card.getByTestId('totp-on').waitFor();
    await signOut(page);

    // the app now replaces the SMS at sign-in
    await page.getByTestId('login-username').fill('dave');
    await page.getByTestId('login-password').fill(DEMO_PASSWORD);
    await page.getByTestId('login-submit').click();
    await page.getByTestId('mfa-form').waitFor();
    // a code of the next step: the confirmation spent the current one
    await typePin(page, totp(secret, Date.now() + 30_000));
    await page.getByTestId('shell-header').waitFor();

    // turning it off needs the password and the app's code; SMS applies again
    await page.goto(`${baseUrl}/changepassword`);
    await card.getByTestId('totp-disable').click();
    await card.getByTestId('totp-password').fill(DEMO_PASSWORD);
    await typePin(page, totp(secret, Date.now() - 30_000), 'totp-current-code');
    await card.getByTestId('mfa-proof-submit').click();
    await expect
      .poll(() => card.getByTestId('mfa-proof-error').textContent())
      .toContain('Wrong or expired second-factor code');
    await card.getByRole('button', { name: 'Cancel' }).click();
    await card.getByTestId('totp-on').waitFor();
    await context.close();
  });

  it('shows the outbox page of the demo', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${baseUrl}/dev/sms-outbox`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('SMS outbox');
    await context.close();
  });
});
