import type { ApiTokenCreated } from '@soc/contracts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { expectToast, pickOptions } from './support/antd.ts';
import { accessToken } from './support/api.ts';
import { launchBrowser, newPage } from './support/browser.ts';
import { DEMO_PASSWORD, signIn } from './support/session.ts';

const baseUrl = inject('baseUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

const IPV4 = /^(\d{1,3}\.){3}\d{1,3}$/;

describe('IOC feed page', () => {
  it('copies the plain-text feed URL, which a personal token then fetches and revalidates', async () => {
    const { context, page } = await newPage(browser);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    await signIn(page, baseUrl, 'alice');
    await page.getByTestId('profile-menu').click();
    await page.getByTestId('profile-ioc-feed').click();
    await page.getByTestId('ioc-feed-page').waitFor();
    expect(new URL(page.url()).pathname).toBe('/profile/ioc-feed');
    // the preview of alice's feed has indicators
    await page.getByTestId('ioc-feed-preview').locator('tbody tr').first().waitFor();

    await pickOptions(page, 'ioc-feed-types', ['IPv4 addresses']);
    const shown = page.getByTestId('ioc-feed-url-txt');
    await expect.poll(() => shown.innerText()).toContain('ioc_type__in=ipv4');
    const url = await shown.innerText();
    expect(url).toBe(`${baseUrl}/api/v0/soc/iocs/feed/?format=txt&ioc_type__in=ipv4`);
    expect(new URL(page.url()).searchParams.get('ioc_type__in')).toBe('ipv4');

    await page.getByTestId('ioc-feed-url-txt-copy').click();
    await expectToast(page, 'Copied to the clipboard');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    expect(await page.getByTestId('ioc-feed-curl').innerText()).toBe(
      `curl -sf -H "Authorization: Bearer <your token>" "${url}"`,
    );

    // a personal API token, as a firewall would hold it, reads the copied URL
    const created = await fetch(`${baseUrl}/api/v0/auth/tokens/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await accessToken(page)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'firewall', password: DEMO_PASSWORD }),
    });
    expect(created.status).toBe(201);
    const { token } = (await created.json()) as ApiTokenCreated;
    const feed = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    expect(feed.status).toBe(200);
    const values = (await feed.text()).split('\n').filter(Boolean);
    expect(values.length).toBeGreaterThan(0);
    for (const value of values) expect(value).toMatch(IPV4);
    const again = await fetch(url, {
      headers: { authorization: `Bearer ${token}`, 'if-none-match': feed.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
    await context.close();
  });

  it('reads in Russian and in the dark theme, with the STIX and CSV URLs', async () => {
    const { context, page } = await newPage(browser, { locale: 'ru-RU', colorScheme: 'dark' });
    await page.addInitScript(() => localStorage.setItem('currentTheme', 'dark'));
    await signIn(page, baseUrl, 'alice');
    await page.goto(`${baseUrl}/profile/ioc-feed`);
    await page.getByTestId('ioc-feed-page').waitFor();
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Фид IOC');
    expect(await page.getByTestId('ioc-feed-url-stix').innerText()).toContain('format=stix');
    expect(await page.getByTestId('ioc-feed-url-csv').innerText()).toContain('format=csv');
    const background = await page
      .getByTestId('ioc-feed-page')
      .locator('.ant-card')
      .first()
      .evaluate((card) => getComputedStyle(card).backgroundColor);
    const [r = 255, g = 255, b = 255] = (background.match(/\d+/g) ?? []).map(Number);
    expect(r + g + b).toBeLessThan(3 * 128);
    await context.close();
  });
});
