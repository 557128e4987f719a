import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage } from './support/browser.ts';
import { signIn } from './support/session.ts';

const baseUrl = inject('baseUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

interface Variant {
  language: 'ru' | 'en';
  id: number;
}
interface ListItem {
  id: number;
  title: string;
  languages: Variant[];
}
interface Card extends ListItem {
  versions_count: number;
  description_html: string;
}

/** Calls the API with the page's session (the access token the app keeps in storage). */
async function api<T>(page: Page, path: string, init: RequestInit = {}): Promise<T> {
  const token = await page.evaluate(
    () => (JSON.parse(localStorage.getItem('auth') ?? '{}') as { access?: string }).access,
  );
  const response = await fetch(`${baseUrl}/api/v0${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** An English article of the demo data whose Russian variant has been edited (has versions). */
async function findArticle(page: Page): Promise<ListItem> {
  const list = await api<{ results: ListItem[] }>(page, '/soc/articles/?language=en&page_size=100');
  for (const item of list.results) {
    const russian = item.languages.find((variant) => variant.language === 'ru');
    if (!russian) continue;
    const card = await api<Card>(page, `/soc/articles/${russian.id}/`);
    if (card.versions_count > 1) return item;
  }
  throw new Error('no English article with an edited Russian variant in the demo data');
}

describe('documentation hub', () => {
  it('opens a document from its list, switches language, shows the history, takes a comment and downloads the PDF', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'alice');

    // the menu entry opens the instructions tab
    await page.getByTestId('main-menu').getByRole('link', { name: 'Documentation' }).click();
    await page.getByTestId('documents-page').waitFor();
    expect(new URL(page.url()).pathname).toBe('/docs/instructions');
    await page.getByTestId('document-card').first().waitFor();

    // open an article found through the list's search
    const article = await findArticle(page);
    await page.getByTestId('docs-tab-articles').click();
    await page.locator('[data-testid="documents-page"][data-kind="article"]').waitFor();
    await page.getByTestId('documents-search-input').fill(article.title);
    await page.getByTestId('documents-search-input').press('Enter');
    const card = page.locator(`[data-testid="document-card"][data-id="${article.id}"]`);
    await card.getByTestId('document-card-link').click();
    await page.waitForURL(`${baseUrl}/article/${article.id}`);
    await expect.poll(() => page.getByTestId('document-title').innerText()).toBe(article.title);
    await page.getByTestId('document-main-info').waitFor();

    // the other language
    const russian = article.languages.find((variant) => variant.language === 'ru')!;
    await page.getByTestId('document-other-language').click();
    await page.waitForURL(`${baseUrl}/article/${russian.id}`);
    const russianCard = await api<Card>(page, `/soc/articles/${russian.id}/`);
    await expect.poll(() => page.getByTestId('document-title').innerText()).toBe(russianCard.title);
    expect(await page.getByTestId('document-other-language').getAttribute('data-language')).toBe('en');

    // the history of the Russian variant, and one version in detail
    await page.getByTestId('document-history-open').click();
    const history = page.getByTestId('document-history-modal');
    await history.getByTestId('document-version-open').first().waitFor();
    expect(await history.getByTestId('document-version-open').count()).toBe(russianCard.versions_count);
    await history.getByTestId('document-version-open').last().click();
    const detail = page.getByTestId('document-version-modal');
    await detail.getByTestId('document-version-comment').waitFor();
    expect((await detail.innerText()).length).toBeGreaterThan(0);
    // the test id sits on antd's zero-size modal root, hidden even while the dialog shows: wait
    // for the closed dialog to be removed (destroyOnHidden, at the end of its animation), else
    // its footer can still cover the history's Close button
    await detail.getByTestId('document-version-close').click();
    await detail.waitFor({ state: 'detached', timeout: 10_000 });
    await history.getByTestId('document-history-close').click();
    await history.locator('.ant-modal-wrap').waitFor({ state: 'hidden' });

    // a comment
    const text = `Проверено на стенде ${Date.now()}`;
    await page.getByTestId('document-comment-input').fill(text);
    await page.getByTestId('document-comment-submit').click();
    await page.getByTestId('document-comment').filter({ hasText: text }).waitFor();
    const comments = await api<{ results: Array<{ body: string; author: string }> }>(
      page,
      `/soc/articles/${russian.id}/comments/?page_size=200`,
    );
    expect(comments.results.some((comment) => comment.body.includes(text))).toBe(true);

    // the PDF, named after the title
    const download = page.waitForEvent('download');
    await page.getByTestId('document-pdf').click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`${russianCard.title}.pdf`);
    const bytes = readFileSync(await file.path());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await context.close();
  });

  it("keeps a body's paragraphs and list items apart in the card's summary", async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'analyst');
    const title = `Isolation steps ${Date.now()}`;
    const created = await api<ListItem>(page, '/soc/instructions/', {
      method: 'POST',
      body: JSON.stringify({
        title,
        language: 'en',
        description: 'Isolate the host.\n\n- collect **memory**\n- collect logs',
      }),
    });
    await page.goto(`${baseUrl}/docs/instructions`);
    await page.getByTestId('documents-search-input').fill(title);
    await page.getByTestId('documents-search-input').press('Enter');
    const summary = page
      .locator(`[data-testid="document-card"][data-id="${created.id}"]`)
      .getByTestId('document-card-summary');
    await summary.waitFor();
    // the rendered lines, as the reader sees them (innerText follows the layout)
    expect(await summary.innerText()).toBe('Isolate the host.\n• collect memory\n• collect logs');
    await context.close();
  });

  it('shows HTML typed into the comment form as the text typed, with the source as on incidents', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'alice');
    const list = await api<{ results: ListItem[] }>(page, '/soc/instructions/?language=en&page_size=1');
    const id = list.results[0]!.id;
    await page.goto(`${baseUrl}/instruction/${id}`);
    const stamp = String(Date.now());
    const text = `<b>x</b> **bold** ${stamp}`;
    await page.getByTestId('document-comment-input').fill(text);
    await page.getByTestId('document-comment-submit').click();
    const comment = page.getByTestId('document-comment').filter({ hasText: stamp });
    await comment.waitFor();
    const body = comment.getByTestId('document-comment-body');
    expect(await body.innerText()).toBe(text.replace('**bold**', 'bold'));
    expect(await body.locator('b').count()).toBe(0);
    expect(await body.locator('strong').innerText()).toBe('bold');
    expect(await comment.getByTestId('comment-source').getAttribute('aria-label')).toBe('Web or API');
    await context.close();
  });

  it('shows an inline image of a document body through an authorised object URL', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'bob');
    let found: Card | null = null;
    for (const language of ['ru', 'en']) {
      const list = await api<{ results: ListItem[] }>(
        page,
        `/soc/instructions/?language=${language}&page_size=100`,
      );
      for (const item of list.results) {
        const candidate = await api<Card>(page, `/soc/instructions/${item.id}/`);
        if (candidate.description_html.includes('<img')) {
          found = candidate;
          break;
        }
      }
      if (found) break;
    }
    expect(found, 'a demo instruction with an inline image').not.toBeNull();
    await page.goto(`${baseUrl}/instruction/${found!.id}`);
    const image = page.getByTestId('document-body').locator('img').first();
    await expect.poll(() => image.getAttribute('src')).toMatch(/^blob:/);
    await expect
      .poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth))
      .toBeGreaterThan(0);
    await context.close();
  });

  it('returns to the list with an error toast for a missing document', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'alice');
    await page.goto(`${baseUrl}/responseInstruction/999999`);
    await page.waitForURL(`${baseUrl}/docs/responseInstructions`);
    await page
      .locator('.ant-notification-notice')
      .filter({ hasText: 'Fetching response instruction: error' })
      .waitFor();
    await context.close();
  });
});
