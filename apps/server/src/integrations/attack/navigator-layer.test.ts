import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Analytics, AttackLayerExport, Rule, RuleCoverage, RuleListResponse } from '@soc/contracts';
import {
  ATTACK_LAYER_FORMAT,
  AttackLayerExportSchema,
  MITRE_BAND_LAYER_COLORS,
  layerScores,
  mitreBand,
  parseAttackLayer,
} from '@soc/contracts';
import type { BuiltSystem } from '../../test/builders.ts';
import {
  buildAnalyst,
  buildCustomer,
  buildIncident,
  buildService,
  buildSystem,
} from '../../test/builders.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';

const API = '/api/v0/soc';
const NOW = new Date('2026-11-20T12:00:00Z').getTime();
const DAY = 86_400_000;
let ctx: TestContext;
let a: BuiltSystem;
let b: BuiltSystem;
const tokens: Record<'analyst' | 'customer', string> = { analyst: '', customer: '' };

const get = (user: keyof typeof tokens, url: string, language = 'en') =>
  ctx.app.inject({ method: 'GET', url, headers: { ...bearer(tokens[user]), 'accept-language': language } });

/** Semantic version comparison (`4.10.0` > `4.9.0`). */
const atLeast = (version: string, minimum: string) => {
  const v = version.split('.').map(Number);
  const m = minimum.split('.').map(Number);
  for (let i = 0; i < m.length; i += 1) if ((v[i] ?? 0) !== m[i]) return (v[i] ?? 0) > m[i]!;
  return true;
};

/**
 * The layer format 4.5's rules (attack-navigator layers/spec/v4.5/layerformat.md), checked one by
 * one on a layer as JSON: required properties, their types and the constraints the text gives.
 */
function formatProblems(layer: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const need = (ok: boolean, what: string) => {
    if (!ok) problems.push(what);
  };
  const isString = (v: unknown) => typeof v === 'string';
  const isBool = (v: unknown) => typeof v === 'boolean';
  const optional = (v: unknown, check: (v: unknown) => boolean) => v === undefined || check(v);
  need(isString(layer.name), 'name: a string, required');
  const versions = layer.versions as Record<string, unknown> | undefined;
  need(typeof versions === 'object' && versions !== null, 'versions: an object');
  need(versions?.layer === '4.5', 'versions.layer: must be "4.5"');
  need(isString(versions?.navigator) && atLeast(versions.navigator, '4.9.0'), 'versions.navigator ≥ 4.9.0');
  need(optional(versions?.attack, isString), 'versions.attack: a string');
  need(['enterprise-attack', 'mobile-attack', 'ics-attack'].includes(layer.domain as string), 'domain');
  need(optional(layer.description, isString), 'description: a string');
  const filters = layer.filters as { platforms?: unknown } | undefined;
  need(
    optional(filters?.platforms, (p) => Array.isArray(p) && p.every(isString)),
    'filters.platforms: strings',
  );
  need(
    optional(layer.sorting, (s) => [0, 1, 2, 3].includes(s as number)),
    'sorting: 0–3',
  );
  const layout = layer.layout as Record<string, unknown> | undefined;
  need(
    optional(layout?.layout, (v) => ['side', 'flat', 'mini'].includes(v as string)),
    'layout.layout',
  );
  for (const key of ['showID', 'showName', 'showAggregateScores', 'countUnscored'])
    need(optional(layout?.[key], isBool), `layout.${key}: a boolean`);
  need(
    optional(layout?.aggregateFunction, (v) => ['average', 'min', 'max', 'sum'].includes(v as string)),
    'layout.aggregateFunction',
  );
  need(
    optional(layout?.expandedSubtechniques, (v) => ['none', 'all', 'annotated'].includes(v as string)),
    'layout.expandedSubtechniques',
  );
  for (const key of [
    'hideDisabled',
    'showTacticRowBackground',
    'selectTechniquesAcrossTactics',
    'selectSubtechniquesWithParent',
    'selectVisibleTechniques',
  ])
    need(optional(layer[key], isBool), `${key}: a boolean`);
  need(optional(layer.tacticRowBackground, isString), 'tacticRowBackground: a string');
  const techniques = layer.techniques as Record<string, unknown>[] | undefined;
  need(optional(techniques, Array.isArray), 'techniques: an array');
  for (const t of techniques ?? []) {
    need(
      isString(t.techniqueID) && /^T\d{4}(\.\d{3})?$/.test(t.techniqueID),
      'techniqueID: T#### or T####.###',
    );
    need(optional(t.tactic, isString), 'technique tactic: a string');
    need(optional(t.comment, isString), 'technique comment: a string');
    need(optional(t.enabled, isBool), 'technique enabled: a boolean');
    need(
      optional(t.score, (s) => typeof s === 'number' && Number.isFinite(s)),
      'technique score: a number',
    );
    need(optional(t.color, isString), 'technique color: a string');
    need(optional(t.showSubtechniques, isBool), 'technique showSubtechniques: a boolean');
    for (const list of ['metadata', 'links'])
      need(optional(t[list], Array.isArray), `technique ${list}: an array`);
  }
  const gradient = layer.gradient as { colors?: unknown; minValue?: unknown; maxValue?: unknown } | undefined;
  if (gradient !== undefined) {
    need(
      Array.isArray(gradient.colors) &&
        gradient.colors.length >= 2 &&
        gradient.colors.every((c) => /^#[0-9a-f]{6}$/i.test(String(c))),
      'gradient.colors: two or more hexadecimal RGB colours',
    );
    need(typeof gradient.minValue === 'number' && typeof gradient.maxValue === 'number', 'gradient bounds');
    need((gradient.maxValue as number) > (gradient.minValue as number), 'gradient.maxValue > minValue');
  }
  for (const item of (layer.legendItems as Record<string, unknown>[] | undefined) ?? [])
    need(isString(item.label) && isString(item.color), 'legend item: label and color');
  for (const m of (layer.metadata as Record<string, unknown>[] | undefined) ?? [])
    need(
      (isString(m.name) && isString(m.value)) || isBool(m.divider),
      'metadata: name and value, or a divider',
    );
  for (const l of (layer.links as Record<string, unknown>[] | undefined) ?? [])
    need(
      (isString(l.label) && /^[a-z]+:\/\//i.test(String(l.url))) || isBool(l.divider),
      'link: label and url with a protocol, or a divider',
    );
  return problems;
}

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0, now: () => new Date(NOW) });
  a = await buildSystem(ctx);
  b = await buildSystem(ctx);
  await buildService(ctx, a.id, { name: 'Focus' });
  await buildService(ctx, b.id, { name: 'Panorama' });
  const incident = (systemId: number, technique: string, tactic: string, daysAgo: number) =>
    buildIncident(ctx, systemId, {
      created: new Date(NOW - daysAgo * DAY),
      mitreCov: { [tactic]: [technique] },
      tactics: [tactic],
      techniques: technique.includes('.') ? [technique.split('.')[0]!, technique] : [technique],
    });
  await incident(a.id, 'T1110', 'credential-access', 1);
  await incident(a.id, 'T1110', 'credential-access', 1);
  await incident(a.id, 'T1059.001', 'execution', 1);
  await incident(a.id, 'T1486', 'impact', 10); // outside the period
  await incident(b.id, 'T1110', 'credential-access', 1);
  tokens.customer = await (await buildCustomer(ctx, [a.id])).login();
  tokens.analyst = await (await buildAnalyst(ctx)).login();
}, 120_000);

afterAll(async () => {
  await ctx?.close();
});

describe('the layer format check', () => {
  it('refuses layers that break the format 4.5 rules', () => {
    const good = {
      name: 'x',
      versions: { navigator: '5.2.0', layer: '4.5' },
      domain: 'enterprise-attack',
      techniques: [{ techniqueID: 'T1110', score: 1 }],
      gradient: { colors: ['#ffffff', '#ff0000'], minValue: 0, maxValue: 1 },
    };
    expect(formatProblems(good)).toEqual([]);
    expect(AttackLayerExportSchema.safeParse(good).success).toBe(true);
    const broken: Record<string, unknown>[] = [
      { ...good, name: undefined },
      { ...good, versions: { navigator: '4.8.0', layer: '4.5' } },
      { ...good, versions: { navigator: '5.2.0', layer: '4.4' } },
      { ...good, domain: 'enterprise' },
      { ...good, techniques: [{ techniqueID: '1110', score: 1 }] },
      { ...good, techniques: [{ techniqueID: 'T1110', score: '1' }] },
      { ...good, gradient: { colors: ['#ffffff'], minValue: 0, maxValue: 1 } },
      { ...good, gradient: { colors: ['#ffffff', '#ff0000'], minValue: 1, maxValue: 1 } },
      { ...good, links: [{ label: 'x', url: 'attack.mitre.org' }] },
    ];
    for (const layer of broken) expect(formatProblems(layer), JSON.stringify(layer)).not.toEqual([]);
    // the schema the web app reads layers with refuses the same ones (navigator's minimum aside)
    for (const layer of broken.filter((_, i) => i !== 1))
      expect(AttackLayerExportSchema.safeParse(layer).success, JSON.stringify(layer)).toBe(false);
  });
});

describe('GET /soc/rules/coverage/layer/', () => {
  it('is the coverage as a format 4.5 layer: score = rules, band colours, rule ids, ATT&CK version', async () => {
    const res = await get('analyst', `${API}/rules/coverage/layer/`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="rules-attack-coverage-layer.json"',
    );
    const layer = res.json<AttackLayerExport>();
    expect(formatProblems(layer)).toEqual([]);
    expect(AttackLayerExportSchema.parse(layer)).toEqual(layer);
    const coverage = (await get('analyst', `${API}/rules/coverage/`)).json<RuleCoverage>();
    expect(layer).toMatchObject({
      domain: 'enterprise-attack',
      // a bundle without its collection object (the shared one) has no release: no `attack` then
      versions: {
        layer: ATTACK_LAYER_FORMAT,
        ...(coverage.attack_version ? { attack: coverage.attack_version } : {}),
      },
      gradient: { minValue: 0, maxValue: 18, colors: Object.values(MITRE_BAND_LAYER_COLORS) },
    });
    expect(layer.versions?.attack ?? null).toBe(coverage.attack_version);
    expect(layer.legendItems).toHaveLength(5);
    const covered = new Map(
      coverage.techniques.filter((t) => t.count > 0).map((t) => [t.technique_id, t.count]),
    );
    expect(covered.size).toBeGreaterThan(20);
    expect(new Map(layer.techniques!.map((t) => [t.techniqueID, t.score]))).toEqual(covered);
    for (const t of layer.techniques!) expect(t.color).toBe(MITRE_BAND_LAYER_COLORS[mitreBand(t.score!)]);
    // the comment lists the codes of the rules of the technique
    const t1059 = layer.techniques!.find((t) => t.techniqueID === 'T1059.001')!;
    const rules = (
      await get('analyst', `${API}/rules/?page_size=2000&mitre_technique__in=T1059.001`)
    ).json<RuleListResponse>().results;
    expect(t1059.comment).toBe(
      `Rules: ${rules
        .map((r: Rule) => r.rule_id)
        .sort()
        .join(', ')}`,
    );
  });

  it('names the filters applied, takes the platform filter to Navigator and speaks the caller’s language', async () => {
    const query = 'mitre_platform__in=Linux&severity__in=High';
    const layer = (
      await get('analyst', `${API}/rules/coverage/layer/?${query}`, 'ru')
    ).json<AttackLayerExport>();
    expect(layer.name).toBe('Правила обнаружения SOC: покрытие ATT&CK');
    expect(layer.filters).toEqual({ platforms: ['Linux'] });
    expect(layer.metadata).toEqual(
      expect.arrayContaining([
        { name: 'Фильтр: mitre_platform__in', value: 'Linux' },
        { name: 'Фильтр: severity__in', value: 'High' },
      ]),
    );
    const coverage = (await get('analyst', `${API}/rules/coverage/?${query}`)).json<RuleCoverage>();
    expect(layerScores(layer)).toEqual(
      new Map(coverage.techniques.filter((t) => t.count > 0).map((t) => [t.technique_id, t.count])),
    );
  });

  it('exported then imported, the layer gives the same techniques and scores', async () => {
    for (const user of ['analyst', 'customer'] as const) {
      const res = await get(user, `${API}/rules/coverage/layer/`);
      const exported = res.json<AttackLayerExport>();
      const read = parseAttackLayer(res.body);
      expect(read.ok).toBe(true);
      if (!read.ok) return;
      expect(read.layer.techniques!.map((t) => t.techniqueID)).toEqual(
        exported.techniques!.map((t) => t.techniqueID),
      );
      expect(layerScores(read.layer)).toEqual(
        new Map(exported.techniques!.map((t) => [t.techniqueID, t.score])),
      );
    }
    // a customer's layer counts only the rules of its service levels
    const mine = (await get('customer', `${API}/rules/coverage/`)).json<RuleCoverage>();
    const layer = (await get('customer', `${API}/rules/coverage/layer/`)).json<AttackLayerExport>();
    expect(layerScores(layer)).toEqual(
      new Map(mine.techniques.filter((t) => t.count > 0).map((t) => [t.technique_id, t.count])),
    );
    expect((await ctx.app.inject({ method: 'GET', url: `${API}/rules/coverage/layer/` })).statusCode).toBe(
      401,
    );
  });
});

describe('GET /soc/incs/analytics/mitre_layer/', () => {
  const period = `created__gte=${NOW - 2 * DAY}&created__lte=${NOW}`;

  it('is the MITRE widget’s incidents per technique for the period and systems', async () => {
    const res = await get('analyst', `${API}/incs/analytics/mitre_layer/?${period}&system__in=${a.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="incidents-attack-layer-2026-11-20.json"',
    );
    const layer = res.json<AttackLayerExport>();
    expect(formatProblems(layer)).toEqual([]);
    expect(AttackLayerExportSchema.parse(layer)).toEqual(layer);
    expect(layerScores(layer)).toEqual(
      new Map([
        ['T1059', 1],
        ['T1059.001', 1],
        ['T1110', 2],
      ]),
    );
    expect(layer.techniques!.find((t) => t.techniqueID === 'T1110')?.comment).toBe('Incidents: 2');
    expect(layer.gradient).toMatchObject({ minValue: 0, maxValue: 2 });
    expect(layer.name).toBe('Incidents by ATT&CK technique, 2026-11-18 – 2026-11-20');
    expect(layer.metadata).toEqual(
      expect.arrayContaining([
        {
          name: 'Period',
          value: `${new Date(NOW - 2 * DAY).toISOString()} – ${new Date(NOW).toISOString()}`,
        },
        { name: 'Systems', value: String(a.id) },
      ]),
    );
    // the same counts as the dashboard's widget
    const analytics = (
      await get('analyst', `${API}/incs/analytics/?${period}&system__in=${a.id}`)
    ).json<Analytics>();
    expect(layerScores(layer)).toEqual(new Map(analytics.mitre.map((m) => [m.item, m.value])));
  });

  it('counts only the caller’s systems, and reads back the same', async () => {
    const all = (
      await get('analyst', `${API}/incs/analytics/mitre_layer/?${period}`)
    ).json<AttackLayerExport>();
    expect(layerScores(all).get('T1110')).toBe(3);
    const res = await get('customer', `${API}/incs/analytics/mitre_layer/?${period}`);
    const mine = res.json<AttackLayerExport>();
    expect(layerScores(mine).get('T1110')).toBe(2);
    const read = parseAttackLayer(res.body);
    expect(read.ok && layerScores(read.layer)).toEqual(layerScores(mine));
    expect((await get('customer', `${API}/incs/analytics/mitre_layer/?get_prev=True`)).statusCode).toBe(400);
  });
});
