import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectToast } from './support/antd.ts';
import { launchBrowser, newPage } from './support/browser.ts';
import { signIn } from './support/session.ts';

const baseUrl = inject('baseUrl');
/** Polls wait as long as a busy CI machine needs (the default is one second). */
const POLL = { timeout: 30_000 };
let browser: Browser;
let receiverUrl: string;
let closeReceiver: () => Promise<void>;
const received: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  // the receiver runs on loopback, which the e2e server allows (support/server.ts)
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/soc-hook`;
  closeReceiver = () => new Promise((resolve) => server.close(() => resolve()));
});
afterAll(async () => {
  await browser.close();
  await closeReceiver();
});

describe('webhooks', () => {
  it('adds an endpoint in the browser, sends a test event and sees it in the log', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'alice');
    await page.getByTestId('profile-menu').click();
    await page.getByTestId('profile-webhooks').click();
    await page.getByTestId('webhooks-page').waitFor();

    await page.getByTestId('webhook-add').click();
    await page.getByTestId('webhook-url').fill(receiverUrl);
    await page.getByTestId('webhook-event-incident.status_changed').click();
    await page.getByTestId('webhook-description').fill('E2E receiver');
    await page.getByTestId('webhook-save').click();
    await expectToast(page, 'Endpoint saved');
    const secret = page.getByTestId('webhook-secret');
    await secret.waitFor();
    expect(await secret.innerText()).toMatch(/whsec_/);
    // the list shows the URL masked: its path may be a secret (a bot token, a webhook key)
    const row = page
      .getByTestId('webhooks-table')
      .locator('tr', { hasText: `${new URL(receiverUrl).origin}/…` });
    await row.waitFor();
    expect(await page.getByTestId('webhooks-table').innerText()).not.toContain('/soc-hook');
    // the secret is shown once: gone once dismissed, and never in the list
    await page.getByTestId('webhook-secret-done').click();
    expect(await page.getByTestId('webhooks-table').innerText()).not.toMatch(/whsec_/);

    await row.getByRole('button', { name: 'Delivery log' }).click();
    await page.getByTestId('webhook-log-drawer').waitFor();
    await page.getByTestId('webhook-send-test').click();
    await expectToast(page, 'Test event queued');
    // the log refreshes itself until the delivery is done
    const log = page.getByTestId('webhook-log');
    await expect.poll(() => log.innerText(), POLL).toContain('Delivered');
    expect(await log.innerText()).toContain('Test event');
    expect(await log.innerText()).toContain('200');
    expect(received).toHaveLength(1);
    expect(received[0]!.headers['webhook-id']).toMatch(/^msg_/);
    expect(JSON.parse(received[0]!.body)).toMatchObject({ type: 'webhook.test' });
    await context.close();
  });
});
