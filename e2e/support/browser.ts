import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Makes sure Debian's Chromium is there: installs it when running as root, else explains. */
export function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  if (process.getuid?.() === 0) {
    execFileSync('apt-get', ['install', '-y', 'chromium'], { stdio: 'inherit' });
    if (existsSync(CHROMIUM)) return;
  }
  throw new Error(
    `Chromium not found at ${CHROMIUM}: install Debian's package (apt-get install -y chromium) or set CHROMIUM_PATH.`,
  );
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export interface PageOptions {
  locale?: 'ru-RU' | 'en-US';
  colorScheme?: 'light' | 'dark';
  /**
   * The portal's service worker: blocked unless a test is about it, so that `page.route` sees
   * every request of a test (it does not see what a worker answers) and the worker's precaching
   * does not load the server under the other tests (transfer.e2e.ts covers the worker).
   */
  serviceWorkers?: 'allow' | 'block';
}

/** A fresh context (no storage) of at least the shell's minimum width. */
export async function newPage(
  browser: Browser,
  options: PageOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width: 1536, height: 900 },
    locale: options.locale ?? 'en-US',
    colorScheme: options.colorScheme ?? 'light',
    serviceWorkers: options.serviceWorkers ?? 'block',
  });
  const page = await context.newPage();
  return { context, page };
}
