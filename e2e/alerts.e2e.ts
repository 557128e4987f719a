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

/** Calls the API with the page's session (the access token the app keeps in storage). */
async function api<T>(page: Page, path: string): Promise<T> {
  const token = await page.evaluate(
    () => (JSON.parse(localStorage.getItem('auth') ?? '{}') as { access?: string }).access,
  );
  const response = await fetch(`${baseUrl}/api/v0${path}`, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

interface Page_<T> {
  total: number;
  results: T[];
}

/** An incident of the caller with at least two alerts and some IOCs (all tabs enabled). */
async function incidentWithAlertsAndIocs(page: Page): Promise<number> {
  const alerts = await api<Page_<{ incident: number | null }>>(
    page,
    '/soc/alerts/?page_size=200&grouped=true',
  );
  const keys = [...new Set(alerts.results.map((a) => a.incident).filter((k): k is number => k !== null))];
  for (const key of keys) {
    const card = await api<{ observed_iocs: unknown[] }>(page, `/soc/incs/${key}/`);
    const count = await api<Page_<unknown>>(page, `/soc/incs/${key}/alerts/?page_size=1`);
    if (card.observed_iocs.length > 0 && count.total >= 2) return key;
  }
  throw new Error('no incident with alerts and IOCs');
}

async function openTab(page: Page, key: string): Promise<void> {
  await page.getByTestId(`incident-tab-${key}`).click();
}

describe('alerts and the centre tabs of an incident', () => {
  it('walks every tab, selects an alert, sees its tree and adds a tag', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'alice');
    const key = await incidentWithAlertsAndIocs(page);
    await page.goto(`${baseUrl}/inc/${key}`);
    await page.getByTestId('incident-main-info').waitFor();

    // details
    await page.getByTestId('incident-details').waitFor();
    // CMDB assets
    await openTab(page, 'assets');
    await page.getByTestId('incident-assets').locator('tbody tr.ant-table-row').first().waitFor();
    // IOCs grouped by type, with copy buttons
    await openTab(page, 'iocs');
    const iocs = page.getByTestId('incident-iocs');
    await iocs.locator('[data-testid^="ioc-group-"]').first().waitFor();
    expect(await iocs.locator('.ant-typography-copy').count()).toBeGreaterThan(1);
    // relations
    await openTab(page, 'relations');
    await page
      .getByTestId('incident-relations')
      .or(page.getByText('No related incidents'))
      .or(page.locator('.ant-tabs-tabpane-active .ant-empty'))
      .first()
      .waitFor();

    // alerts: the first one is selected automatically
    await openTab(page, 'alerts');
    const table = page.getByTestId('alerts-table');
    await table.waitFor();
    const rows = table.locator('[data-testid^="alert-row-"]');
    await expect.poll(() => rows.count()).toBeGreaterThan(1);
    const firstUuid = (await rows.first().getAttribute('data-testid'))!.replace('alert-row-', '');
    await expect.poll(() => page.getByTestId('alert-detail').getAttribute('data-uuid')).toBe(firstUuid);

    // select the second alert and see its process tree
    const second = rows.nth(1);
    const secondUuid = (await second.getAttribute('data-testid'))!.replace('alert-row-', '');
    await second.click();
    await expect.poll(() => page.getByTestId('alert-detail').getAttribute('data-uuid')).toBe(secondUuid);
    await page.getByTestId('alert-tree').getByTestId('alert-tree-node').first().waitFor();
    expect(await page.getByTestId('alert-tree').getByTestId('alert-tree-node').count()).toBeGreaterThan(1);
    await page.getByTestId('alert-grouped').locator('.ant-tag').first().waitFor();
    // the alert's incident link opens in a new tab
    expect(await page.getByTestId('alert-incident-link').getAttribute('target')).toBe('_blank');

    // add a tag
    const tagName = `e2e-${Date.now() % 100000}`;
    await page.getByTestId('alert-tag-input').locator('input').fill(tagName);
    await page.getByTestId('alert-tag-add').click();
    await page.getByTestId('alert-detail-tags').getByText(tagName).waitFor();
    const saved = await api<{ tags: { name: string }[] }>(page, `/soc/incs/${key}/alerts/${secondUuid}/`);
    expect(saved.tags.map((t) => t.name)).toContain(tagName);
    // and the suggestions now offer it
    const suggestions = await api<{ results: { name: string }[] }>(page, `/soc/tags/?limit=5&q=${tagName}`);
    expect(suggestions.results.map((t) => t.name)).toEqual([tagName]);
    await context.close();
  });

  it('shows the misconfigurations of a Remediation incident', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'alice');
    const types = await api<{ results: { id: number; code?: string; title: string }[] }>(
      page,
      '/soc/issue_types/?limit=30',
    );
    const remediation = types.results.find((t) => t.code === 'remediation' || /remediation/i.test(t.title));
    expect(remediation).toBeDefined();
    const list = await api<Page_<{ key: number }>>(
      page,
      `/soc/incs/?limit=1&issuetype__in=${remediation!.id}`,
    );
    const key = list.results[0]!.key;
    await page.goto(`${baseUrl}/inc/${key}`);
    await page.getByTestId('incident-main-info').waitFor();
    await openTab(page, 'misconfigs');
    await page.getByTestId('incident-misconfigs').locator('tbody tr.ant-table-row').first().waitFor();
    await context.close();
  });
});

/** Opens the alerts tab of an incident with alerts at this window width, in this language. */
async function openAlertsTab(width: number, locale: 'en-US' | 'ru-RU' = 'en-US') {
  const { context, page } = await newPage(browser, { locale });
  await page.setViewportSize({ width, height: 900 });
  await signIn(page, baseUrl, 'alice');
  const key = await incidentWithAlertsAndIocs(page);
  await page.goto(`${baseUrl}/inc/${key}?tab=alerts`);
  await page.getByTestId('alerts-table').locator('[data-testid^="alert-row-"]').first().waitFor();
  await page.getByTestId('alert-detail').waitFor();
  return { context, page, key };
}

/** Lets the page render what it has received: a few animation frames, not a guessed delay. */
function renderedFrames(page: Page): Promise<void> {
  return page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        let frames = 0;
        const tick = () => (++frames >= 5 ? resolve() : requestAnimationFrame(tick));
        requestAnimationFrame(tick);
      }),
  );
}

/** The header cells of the alerts table that stick out of its visible box or cut their own title. */
function cutHeaderCells(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const table = document.querySelector<HTMLElement>('[data-testid="alerts-table"]')!;
    const box = table.querySelector('.ant-table-container')!.getBoundingClientRect();
    const cells = Array.from(table.querySelectorAll<HTMLElement>('.ant-table-thead th')).filter(
      (th) => !th.classList.contains('ant-table-cell-scrollbar'),
    );
    return cells
      .filter((th) => {
        const cell = th.getBoundingClientRect();
        return (
          cell.width < 1 ||
          cell.left < box.left - 0.5 ||
          cell.right > box.right + 0.5 ||
          th.scrollWidth > th.clientWidth
        );
      })
      .map((th) => th.textContent ?? '');
  });
}

describe('alerts tab: layout and tag suggestions', () => {
  for (const [width, locale] of [
    [1440, 'en-US'],
    [1440, 'ru-RU'],
    [1600, 'en-US'],
  ] as const) {
    it(`shows every column of the alerts table at ${width} px (${locale})`, async () => {
      const { context, page } = await openAlertsTab(width, locale);
      // severity, title, assets, created (the update time is in the detail panel)
      expect(
        await page
          .getByTestId('alerts-table')
          .locator('.ant-table-thead th:not(.ant-table-cell-scrollbar)')
          .count(),
      ).toBe(4);
      expect(await cutHeaderCells(page)).toEqual([]);
      await context.close();
    });
  }

  // Issue 40: at 1440 px the titles wrapped to three lines and the assets were cut ("k8s-node-3, v…");
  // on a phone the table scrolls inside its card with the same columns.
  for (const width of [390, 1440, 1920]) {
    it(`reads alert titles in at most two lines and asset names whole at ${width} px`, async () => {
      const { context, page } = await openAlertsTab(width);
      const fit = await page.evaluate(() => {
        /** Lines an element's text takes: distinct tops of its line boxes. */
        const lines = (el: Element) => {
          const range = document.createRange();
          range.selectNodeContents(el);
          return new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size;
        };
        const table = document.querySelector('[data-testid="alerts-table"]')!;
        const titles = Array.from(table.querySelectorAll('[data-testid="alert-title"]'));
        const names = Array.from(table.querySelectorAll<HTMLElement>('[data-testid="alert-assets"] > *'));
        return {
          titles: titles.length,
          longTitles: titles.filter((el) => lines(el) > 2).map((el) => el.textContent),
          names: names.length,
          cutNames: names.filter((el) => el.scrollWidth > el.clientWidth).map((el) => el.textContent),
          brokenNames: names.filter((el) => lines(el) > 1).map((el) => el.textContent),
        };
      });
      expect(fit.titles).toBeGreaterThan(1);
      expect(fit.names).toBeGreaterThan(0);
      expect(fit.longTitles).toEqual([]);
      expect(fit.cutNames).toEqual([]);
      expect(fit.brokenNames).toEqual([]);

      // the CMDB tab: host names, ids and addresses never split over lines
      await page.getByRole('tab', { name: /CMDB/ }).click();
      const assets = page.getByTestId('incident-assets');
      await assets.locator('tbody tr.ant-table-row').first().waitFor();
      const split = await assets.evaluate((table) =>
        Array.from(table.querySelectorAll('tbody tr.ant-table-row'))
          .flatMap((row) => [0, 1, 4].map((column) => row.children[column]!))
          .filter((cell) => {
            const range = document.createRange();
            range.selectNodeContents(cell);
            return new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size > 1;
          })
          .map((cell) => cell.textContent),
      );
      expect(split).toEqual([]);
      await context.close();
    });
  }

  it('closes the tag suggestions on Escape, on a click outside and on selection, for good', async () => {
    const { context, page } = await openAlertsTab(1440);
    // A tag of three characters or more, and two prefixes of it: each step asks for new text,
    // which React Query has not cached.
    const known = await api<{ results: { name: string }[] }>(page, '/soc/tags/?limit=5&q=');
    const first = known.results.find((tag) => tag.name.length >= 3)!.name.slice(0, 1);
    const offered = await api<{ results: { name: string }[] }>(page, `/soc/tags/?limit=5&q=${first}`);
    const name = offered.results.find((tag) => tag.name.length >= 3)!.name;
    const second = name.slice(0, 2);
    // Suggestions answer when the test lets them: a user may dismiss the list before they come.
    let gate: Promise<void> = Promise.resolve();
    await page.route(/\/api\/v0\/soc\/tags\//, async (route) => {
      await gate;
      await route.continue();
    });
    const isTags = (url: string, q: string) =>
      url.includes('/api/v0/soc/tags/') && new URL(url).searchParams.get('q') === q;
    const input = page.getByTestId('alert-tag-input').locator('input');
    const suggestions = page.locator('.ant-select-dropdown').filter({ visible: true });
    /** Types `prefix`, dismisses the list with `dismiss` before the suggestions come, lets them come. */
    const dismissEarly = async (prefix: string, dismiss: () => Promise<void>) => {
      let open!: () => void;
      gate = new Promise((resolve) => (open = resolve));
      await input.fill('');
      const asked = page.waitForRequest((request) => isTags(request.url(), prefix));
      await input.pressSequentially(prefix);
      await asked;
      await dismiss();
      const answered = page.waitForResponse((response) => isTags(response.url(), prefix));
      open();
      await answered;
      await renderedFrames(page);
      await expect.poll(() => suggestions.count()).toBe(0);
    };

    await dismissEarly(first, () => page.keyboard.press('Escape'));
    await input.click();
    await dismissEarly(second, () => page.getByTestId('alerts-count').click());

    // Typed and left alone, the list shows; a choice closes it, and the suggestions of the
    // chosen name that follow do not open it again.
    gate = Promise.resolve();
    await input.click();
    await input.fill('');
    await input.pressSequentially(first);
    const option = suggestions.locator('.ant-select-item-option').filter({ hasText: name }).first();
    await option.waitFor();
    const followUp = page.waitForResponse((response) => isTags(response.url(), name));
    await option.click();
    await expect.poll(() => input.inputValue()).toBe(name);
    await followUp;
    await renderedFrames(page);
    expect(await suggestions.count()).toBe(0);
    await context.close();
  });
});

describe('the alerts screen', () => {
  it('lists the alerts of the user’s systems, filters them by the URL and opens one and its incident', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'alice');
    // what the API gives alice: the screen shows the same total, her systems only
    const all = await api<Page_<{ incident: number | null; system: { is_id: string } }>>(
      page,
      '/soc/alerts/?page_size=200',
    );
    expect(all.total).toBeGreaterThan(0);
    // from the Issues menu
    await page.getByTestId('main-menu').getByText('Issues').hover();
    await page.getByRole('link', { name: 'Alerts', exact: true }).click();
    await page.waitForURL(`${baseUrl}/alerts`);
    await page.getByTestId('alert-card').first().waitFor();
    await expect.poll(() => page.getByTestId('alerts-total').innerText()).toContain(`of ${all.total}`);

    // filters live in the URL: a severity narrows the list as the API does
    const high = await api<Page_<unknown>>(page, '/soc/alerts/?severity__in=High');
    await page.goto(`${baseUrl}/alerts?severity__in=High`);
    await page.getByTestId('alerts-total').waitFor();
    await expect.poll(() => page.getByTestId('alerts-total').innerText()).toContain(`of ${high.total}`);

    // an alert of an incident shows its detail in the panel and links to the incident
    await page.goto(`${baseUrl}/alerts?grouped=true`);
    const card = page.getByTestId('alert-card').first();
    await card.waitFor();
    await card.getByTestId('alert-card-title').click();
    await page.getByTestId('alert-detail').waitFor();
    const link = card.getByTestId('alert-card-incident');
    const href = await link.getAttribute('href');
    await link.click();
    await page.waitForURL(`${baseUrl}${href}`);
    await page.getByTestId('incident-main-info').waitFor();
    await context.close();
  });
});
