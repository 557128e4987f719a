import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { mitreBand, RULE_INCIDENTS_FIRST_PAGE, RULE_INCIDENTS_PAGE } from '@soc/contracts';
import type { IncidentListResponse, RuleCoverage, RuleListResponse } from '@soc/contracts';
import { pickOptions } from './support/antd.ts';
import { seriousViolations } from './support/axe.ts';
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

const cardIds = (page: Page) =>
  page
    .getByTestId('rule-card')
    .evaluateAll((cards) => cards.map((card) => Number(card.getAttribute('data-id'))));

describe('detection rules', () => {
  it('filters by tactic, shows the MITRE matrix with sub-techniques, and opens a rule page with its incidents', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'analyst');

    // the rules tab of the documentation hub: the first rule is selected automatically
    await page.goto(`${baseUrl}/docs/rules`);
    await page.locator('[data-testid="rules-view"][data-mode="rules"]').waitFor();
    await page.getByTestId('rule-card').first().waitFor();
    await page.getByTestId('rule-counters').waitFor();
    const firstId = await page.getByTestId('rule-card').first().getAttribute('data-id');
    expect(await page.getByTestId('rule-side-panel').getAttribute('data-id')).toBe(firstId);
    const all = await api<RuleListResponse>(page, '/soc/rules/?page_size=1');
    expect(await page.getByTestId('rule-counter-count').innerText()).toContain(String(all.total));

    // filter by the tactic Impact
    await page.getByTestId('rules-filter-toggle').click();
    await page.getByTestId('rules-filter-bar').waitFor();
    await pickOptions(page, 'rule-filter-tactic', ['Impact'], true, 'exact', true);
    await page.waitForURL((url) => url.searchParams.get('mitre_tactic__in') === 'impact');
    const impact = await api<RuleListResponse>(page, '/soc/rules/?mitre_tactic__in=impact&ordering=-created');
    expect(impact.total).toBeGreaterThan(0);
    expect(impact.total).toBeLessThan(all.total);
    await expect
      .poll(() => page.getByTestId('rules-total').innerText())
      .toBe(`1-${impact.results.length} of ${impact.total}`);
    await expect
      .poll(async () => {
        const ids = await cardIds(page);
        return ids.length > 0 && ids.every((id, index) => id === impact.results[index]?.id);
      })
      .toBe(true);
    expect(impact.results.every((rule) => rule.mitre_tactic.includes('impact'))).toBe(true);
    await expect
      .poll(() => page.getByTestId('rule-counter-count').innerText())
      .toContain(String(impact.total));

    // toggling the filter bar off resets the filters
    await page.getByTestId('rules-filter-toggle').click();
    await page.waitForURL((url) => !url.searchParams.has('mitre_tactic__in'));
    await expect.poll(() => page.getByTestId('rules-filter-bar').count()).toBe(0);

    // MITRE mode: tactics as columns, techniques coloured by their rule count
    await page.getByTestId('rules-mode').getByText('MITRE').click();
    await page.locator('[data-testid="mitre-matrix"][data-loaded="true"]').waitFor();
    const coverage = await api<RuleCoverage>(page, '/soc/rules/coverage/');
    expect(await page.getByTestId('mitre-tactic').count()).toBe(coverage.tactics.length);
    const t1059 = coverage.techniques.find((t) => t.technique_id === 'T1059')!;
    const cell = page.locator('[data-tactic="execution"] [data-testid="mitre-technique"][data-id="T1059"]');
    expect(await cell.getAttribute('data-band')).toBe(mitreBand(t1059.count));
    expect(await cell.getAttribute('data-count')).toBe(String(t1059.count));

    // open the technique: its sub-techniques become extra rows in an extra column beside it
    const subs = page.locator('[data-tactic="execution"] [data-testid="mitre-subtechnique"]');
    expect(await subs.count()).toBe(0);
    await cell.getByTestId('mitre-technique-toggle').click();
    await expect.poll(() => subs.count()).toBe(t1059.sub_techniques.length);
    const parentBox = (await cell.boundingBox())!;
    for (const box of await subs.evaluateAll((nodes) =>
      nodes.map((node) => node.getBoundingClientRect().toJSON() as DOMRect),
    )) {
      expect(box.left).toBeGreaterThanOrEqual(parentBox.x + parentBox.width);
      expect(box.top).toBeGreaterThanOrEqual(parentBox.y - 1);
    }
    const powershell = coverage.techniques.find((t) => t.technique_id === 'T1059.001')!;
    expect(
      await page
        .locator('[data-tactic="execution"] [data-testid="mitre-subtechnique"][data-id="T1059.001"]')
        .getAttribute('data-count'),
    ).toBe(String(powershell.count));

    // a click selects the technique for the detail panel
    await cell.locator('button[aria-pressed]').click();
    await page.locator('[data-testid="mitre-detail"][data-id="T1059"]').waitFor();
    expect(await page.getByTestId('mitre-detail-count').innerText()).toBe(String(t1059.count));
    await page.getByTestId('mitre-detail-subtechniques').getByText('T1059.001 PowerShell').click();
    await page.locator('[data-testid="mitre-detail"][data-id="T1059.001"]').waitFor();
    // MITRE's Markdown as markup: links to other techniques, code, no citation markers
    const description = page.getByTestId('mitre-detail-description');
    await description.waitFor();
    expect(await description.innerText()).not.toContain('(Citation:');
    expect(await description.locator('a[href^="https://attack.mitre.org/"]').count()).toBeGreaterThan(0);
    expect(await description.locator('a').first().getAttribute('rel')).toBe('noopener noreferrer nofollow');
    expect(await description.locator('code').count()).toBeGreaterThan(0);

    // the rule with the most incidents among the demo's detections
    const candidates = await api<RuleListResponse>(
      page,
      '/soc/rules/?page_size=20&name__in=DNS tunnelling pattern,Web shell request pattern,Mass file rename (ransomware)',
    );
    let best = { id: 0, name: '', detection: '', total: -1 };
    for (const rule of candidates.results) {
      const incs = await api<IncidentListResponse>(page, `/soc/incs/?rule_id__in=${rule.id}&limit=1`);
      if (incs.total > best.total)
        best = { id: rule.id, name: rule.rule_caption_eng, detection: rule.name, total: incs.total };
    }
    expect(best.total).toBeGreaterThan(RULE_INCIDENTS_FIRST_PAGE);

    // back to the rules: search it, and launch its page in a new tab
    await page.getByTestId('rules-mode').getByText('Rules').click();
    await page.getByTestId('rules-search-input').fill(best.name);
    await page.getByTestId('rules-search-input').press('Enter');
    await page.locator(`[data-testid="rule-side-panel"][data-id="${best.id}"]`).waitFor();
    const [rulePage] = await Promise.all([
      context.waitForEvent('page'),
      page.getByTestId('rule-launch').click(),
    ]);
    await rulePage.waitForURL(`${baseUrl}/rule/${best.id}`);
    await rulePage.locator(`[data-testid="rule-page"][data-id="${best.id}"]`).waitFor();
    expect(await rulePage.getByTestId('rule-breadcrumbs').innerText()).toContain('Rules');
    expect(await rulePage.getByTestId('rule-breadcrumb-title').innerText()).toBe(
      best.name.length > 35 ? `${best.name.slice(0, 35).trimEnd()}…` : best.name,
    );
    // the three panels are open, and collapse all at once
    expect(await rulePage.locator('[data-testid="rule-panels"] .ant-collapse-item-active').count()).toBe(3);
    await rulePage.getByTestId('rule-toggle-all').click();
    await expect
      .poll(() => rulePage.locator('[data-testid="rule-panels"] .ant-collapse-item-active').count())
      .toBe(0);

    // related incidents: the first page, then further pages as the feed scrolls (no button)
    await rulePage.getByRole('tab', { name: 'Related incidents' }).click();
    await rulePage.getByTestId('rule-incidents').waitFor();
    const loaded = async () =>
      Number(/^1-(\d+) of/.exec(await rulePage.getByTestId('rule-incidents-total').innerText())?.[1]);
    const firstPage = Math.min(best.total, RULE_INCIDENTS_FIRST_PAGE);
    await expect.poll(loaded).toBeGreaterThanOrEqual(firstPage);
    expect(await rulePage.getByTestId('rule-incidents-more').count()).toBe(0);
    const feed = rulePage.getByTestId('rule-incidents-feed');
    for (let round = 0; round < 3; round += 1) {
      await feed.evaluate((element) => element.scrollTo(0, element.scrollHeight));
      await rulePage.waitForTimeout(200);
    }
    await expect.poll(loaded).toBeGreaterThanOrEqual(Math.min(best.total, firstPage + RULE_INCIDENTS_PAGE));
    await feed.evaluate((element) => element.scrollTo(0, 0));
    const expected = await api<IncidentListResponse>(page, `/soc/incs/?rule_id__in=${best.id}&limit=100`);
    // the feed renders only the rows in view: once back at the top they are the list's first ones
    const renderedKeys = () =>
      rulePage
        .getByTestId('rule-incident')
        .evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('data-key'))));
    await expect.poll(async () => (await renderedKeys())[0]).toBe(expected.results[0]!.key);
    const keys = await renderedKeys();
    expect(keys).toEqual(expected.results.slice(0, keys.length).map((i) => i.key));
    await rulePage.getByTestId('rule-incident').first().getByRole('link').click();
    await rulePage.waitForURL(`${baseUrl}/inc/${keys[0]}`);

    // the incident names the rule among its detection rules: its popup opens the rule page in a new tab
    await rulePage
      .getByTestId('incident-detection-rules')
      .getByRole('button', { name: best.detection, exact: true })
      .click();
    await rulePage.getByTestId('rule-popup').waitFor();
    const [fromIncident] = await Promise.all([
      context.waitForEvent('page'),
      rulePage.getByTestId('rule-popup-open').click(),
    ]);
    await fromIncident.waitForURL(`${baseUrl}/rule/${best.id}`);
    await fromIncident.getByTestId('rule-panels').waitFor();
    await context.close();
  });
});

/**
 * What is cut in the matrix's technique cells and tactic headers: a word split over two lines
 * (a break at a hyphen or slash, "Adversary-in-the-Middle", "Virtualization/Sandbox", is
 * between words), a word outside its cell, or text clipped by its box. Also how many boxes
 * were checked.
 */
async function cutTexts(page: Page): Promise<{ checked: number; cut: string[] }> {
  return page.getByTestId('mitre-matrix').evaluate((matrix) => {
    const cut: string[] = [];
    const boxes = Array.from(
      matrix.querySelectorAll<HTMLElement>(
        '[data-testid="mitre-technique"], [data-testid="mitre-subtechnique"], [data-testid="mitre-tactic"] > :first-child',
      ),
    );
    for (const box of boxes) {
      const outer = box.getBoundingClientRect();
      // an element of text whose box clips it (an ellipsis, a clamp to N lines)
      for (const element of [box, ...Array.from(box.querySelectorAll<HTMLElement>('*'))]) {
        const hasText = Array.from(element.childNodes).some(
          (child) => child.nodeType === Node.TEXT_NODE && child.textContent?.trim(),
        );
        const clipped =
          element.scrollWidth > element.clientWidth || element.scrollHeight > element.clientHeight;
        if (hasText && element.clientWidth > 0 && clipped) cut.push(`${box.textContent}: clipped`);
      }
      const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const word of (node.textContent ?? '').matchAll(/[\p{L}\p{N}]+/gu)) {
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          const rects = Array.from(range.getClientRects()).filter((rect) => rect.width > 0);
          if (new Set(rects.map((rect) => Math.round(rect.top))).size > 1) cut.push(`${word[0]}: split`);
          if (rects.some((rect) => rect.right > outer.right + 0.5 || rect.left < outer.left - 0.5))
            cut.push(`${word[0]}: outside its cell`);
        }
      }
    }
    return { checked: boxes.length, cut: Array.from(new Set(cut)) };
  });
}

/** Opens techniques of the matrix on screen: their sub-techniques have the longest names. */
async function openTechniques(page: Page, ids: [tactic: string, id: string][]): Promise<void> {
  for (const [tactic, id] of ids) {
    const cell = page.locator(`[data-tactic="${tactic}"] [data-testid="mitre-technique"][data-id="${id}"]`);
    await cell.getByTestId('mitre-technique-toggle').click();
    await page.locator(`[data-tactic="${tactic}"] [data-testid="mitre-subtechnique"]`).first().waitFor();
  }
}

describe.each(['light', 'dark'] as const)('the MITRE matrices in the %s theme', (theme) => {
  it('cut no word and keep the counts in their cells at 1440 and 1600 px', async () => {
    const { context, page } = await newPage(browser, { colorScheme: theme });
    await page.addInitScript((t) => localStorage.setItem('currentTheme', t), theme);
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, baseUrl, 'carol');
    const wholeWords = async () => {
      for (const width of [1440, 1600]) {
        await page.setViewportSize({ width, height: 900 });
        const { checked, cut } = await cutTexts(page);
        expect(checked).toBeGreaterThan(100);
        expect(cut, `${width} px`).toEqual([]);
      }
      await page.setViewportSize({ width: 1440, height: 900 });
    };

    // Rules → MITRE: every technique, some opened into their sub-techniques
    await page.goto(`${baseUrl}/docs/rules`);
    await page.getByTestId('rules-mode').getByText('MITRE').click();
    await page.locator('[data-testid="mitre-matrix"][data-loaded="true"]').waitFor();
    await openTechniques(page, [
      ['defense-evasion', 'T1216'],
      ['defense-evasion', 'T1562'],
      ['credential-access', 'T1110'],
    ]);
    // "Brute Force 12": the count beside the name, inside the cell
    const counted = await page
      .locator('[data-testid="mitre-technique"]:not([data-count="0"])')
      .evaluateAll((cells) =>
        cells.map((cell) => [
          (cell as HTMLElement).dataset.count,
          cell.querySelector('[data-testid="mitre-count"]')?.textContent,
        ]),
      );
    expect(counted.length).toBeGreaterThan(0);
    expect(counted.filter(([count, shown]) => count !== shown)).toEqual([]);
    await wholeWords();

    // the dashboard's matrix, every technique shown
    await page.goto(`${baseUrl}/dashboard`);
    await page.getByTestId('mitre-tactic-initial-access').waitFor();
    await page.getByText('Show techniques without incidents').click();
    await openTechniques(page, [
      ['defense-evasion', 'T1216'],
      ['execution', 'T1059'],
    ]);
    await wholeWords();
    await context.close();
  }, 180_000);
});

describe.each(['light', 'dark'] as const)('rules accessibility in the %s theme', (theme) => {
  const open = async (path: string) => {
    const { context, page } = await newPage(browser);
    await page.addInitScript((t) => localStorage.setItem('currentTheme', t), theme);
    await signIn(page, baseUrl, 'carol');
    await page.goto(`${baseUrl}${path}`);
    return { context, page };
  };

  it('the rule list with its filter bar has no serious or critical violation', async () => {
    const { context, page } = await open('/docs/rules');
    await page.getByTestId('rule-side-panel').waitFor();
    await page.getByTestId('rule-counters').waitFor();
    await page.getByTestId('rules-filter-toggle').click();
    await page.getByTestId('rules-filter-bar').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  // axe checks every cell of the matrix: slower than a screen of cards
  it('the MITRE matrix with a technique panel has no serious or critical violation', async () => {
    const { context, page } = await open('/docs/rules');
    await page.getByTestId('rules-mode').getByText('MITRE').click();
    await page.locator('[data-testid="mitre-matrix"][data-loaded="true"]').waitFor();
    const cell = page.locator('[data-tactic="execution"] [data-testid="mitre-technique"][data-id="T1059"]');
    await cell.getByTestId('mitre-technique-toggle').click();
    await cell.locator('button[aria-pressed]').click();
    await page.getByTestId('mitre-detail-description').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  }, 180_000);

  it('the rule page with its related incidents has no serious or critical violation', async () => {
    const { context, page } = await open('/docs/rules');
    await page.getByTestId('rule-side-panel').waitFor();
    const { results } = await api<RuleListResponse>(page, '/soc/rules/?page_size=1');
    await page.goto(`${baseUrl}/rule/${results[0]!.id}`);
    await page.getByTestId('rule-panels').waitFor();
    await page.getByRole('tab', { name: 'Related incidents' }).click();
    await page
      .locator('[data-testid="rule-incidents"], [data-testid="rule-incidents-empty"]')
      .first()
      .waitFor();
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });
});
