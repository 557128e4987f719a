import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Analytics, RuleCoverage } from '@soc/contracts';
import { AttackLayerExportSchema, layerScores, parseAttackLayer } from '@soc/contracts';
import { apiCall } from './support/api.ts';
import { launchBrowser, newPage } from './support/browser.ts';
import { signIn } from './support/session.ts';

const baseUrl = inject('baseUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

/** Clicks a download button and reads the saved file as a layer. */
async function downloadLayer(page: Page, testId: string) {
  const download = page.waitForEvent('download');
  await page.getByTestId(testId).click();
  const file = await download;
  const text = readFileSync(await file.path(), 'utf8');
  return { filename: file.suggestedFilename(), text, layer: AttackLayerExportSchema.parse(JSON.parse(text)) };
}

describe('ATT&CK Navigator layers', () => {
  it('Rules → MITRE downloads the coverage as a layer and compares with a layer, marking the gaps', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'analyst');
    await page.goto(`${baseUrl}/docs/rules`);
    await page.getByTestId('rules-mode').getByText('MITRE').click();
    await page.locator('[data-testid="mitre-matrix"][data-loaded="true"]').waitFor();
    expect(await page.getByTestId('mitre-version').innerText()).toContain('MITRE ATT&CK®');

    // the download: a format 4.5 layer whose scores are the matrix's rule counts
    const { filename, text, layer } = await downloadLayer(page, 'mitre-layer-download');
    expect(filename).toBe('rules-attack-coverage-layer.json');
    expect(layer).toMatchObject({ domain: 'enterprise-attack', versions: { layer: '4.5' } });
    const coverage = await apiCall<RuleCoverage>(baseUrl, page, '/soc/rules/coverage/');
    const counts = new Map(coverage.techniques.map((t) => [t.technique_id, t.count]));
    expect(layerScores(layer)).toEqual(new Map([...counts].filter(([, n]) => n > 0)));

    // compare with a layer: two techniques without a rule, one with rules, one unknown id
    const uncovered = coverage.techniques
      .filter((t) => t.count === 0 && !t.technique_id.includes('.'))
      .slice(0, 2)
      .map((t) => t.technique_id);
    const covered = coverage.techniques.find((t) => t.count > 0 && !t.technique_id.includes('.'))!;
    expect(uncovered).toHaveLength(2);
    const dir = mkdtempSync(path.join(tmpdir(), 'layers-'));
    const threat = path.join(dir, 'threat.json');
    writeFileSync(
      threat,
      JSON.stringify({
        name: 'Threat group',
        versions: { navigator: '5.2.0', layer: '4.5' },
        domain: 'enterprise-attack',
        techniques: [...uncovered, covered.technique_id, 'T9999'].map((id) => ({
          techniqueID: id,
          score: 1,
        })),
      }),
    );
    const input = () => page.getByTestId('mitre-layer-bar').locator('input[type="file"]');
    await input().setInputFiles(threat);
    const overlay = page.getByTestId('mitre-layer-overlay');
    await overlay.waitFor();
    expect(await overlay.getAttribute('data-gaps')).toBe('2');
    expect(await overlay.innerText()).toContain('Layer “Threat group”: 4 techniques, 2 without a rule');
    expect((await page.getByTestId('mitre-layer-gap').allInnerTexts()).sort()).toEqual([...uncovered].sort());
    for (const id of uncovered)
      expect(
        await page
          .locator(`[data-testid="mitre-technique"][data-id="${id}"]`)
          .first()
          .getAttribute('data-gap'),
      ).toBe('true');
    expect(
      await page
        .locator(`[data-testid="mitre-technique"][data-id="${covered.technique_id}"]`)
        .first()
        .getAttribute('data-gap'),
    ).toBeNull();
    await page.screenshot({ path: path.join(dir, 'gaps.png') });

    // the downloaded layer read back: the same techniques, none of them a gap
    expect(parseAttackLayer(text).ok).toBe(true);
    const own = path.join(dir, 'own.json');
    writeFileSync(own, text);
    await input().setInputFiles(own);
    await expect.poll(() => overlay.getAttribute('data-gaps')).toBe('0');
    await page.getByTestId('mitre-layer-clear').click();
    await overlay.waitFor({ state: 'detached' });
    expect(await page.locator('[data-gap="true"]').count()).toBe(0);
    await context.close();
  });

  it('the dashboard’s MITRE widget downloads the period’s incidents per technique', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, baseUrl, 'carol');
    const end = new Date();
    end.setHours(23, 59, 59, 999);
    const period = `created__gte=${end.getTime() + 1 - 181 * 86_400_000}&created__lte=${end.getTime()}`;
    await page.goto(`${baseUrl}/dashboard?${period}`);
    await page.getByTestId('mitre-tactic-initial-access').waitFor();
    const { filename, layer } = await downloadLayer(page, 'mitre-layer-download');
    expect(filename).toMatch(/^incidents-attack-layer-\d{4}-\d{2}-\d{2}\.json$/);
    expect(layer.domain).toBe('enterprise-attack');
    const analytics = await apiCall<Analytics>(baseUrl, page, `/soc/incs/analytics/?${period}`);
    expect(analytics.mitre.length).toBeGreaterThan(0);
    expect(layerScores(layer)).toEqual(new Map(analytics.mitre.map((m) => [m.item, m.value])));
    await context.close();
  });
});
