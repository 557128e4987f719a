import { readFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  IncidentListResponse,
  Rule,
  RuleCounters,
  RuleCoverage,
  RuleListResponse,
  RuleServicesResponse,
  RuleSuggestionsResponse,
} from '@soc/contracts';
import { RULE_SERVICE_LEVELS } from '@soc/contracts';
import { incidents, rules, services } from '../../db/schema/index.ts';
import type { BuiltIncident, BuiltSystem } from '../../test/builders.ts';
import {
  buildAnalyst,
  buildCustomer,
  buildIncident,
  buildService,
  buildSystem,
} from '../../test/builders.ts';
import { repositoryCompactPath } from '../../integrations/attack/attack.compact.ts';
import { parseAttackBundle } from '../../integrations/attack/attack.ts';
import type { AuthContext } from '../../core/auth.ts';
import type { TestContext } from '../../test/harness.ts';
import { createRulesService } from './rules.service.ts';
import { bearer, createTestContext } from '../../test/harness.ts';

// The filters and counts are checked against the demo's rule catalogue (a few hundred rules),
// which the empty template holds too; the customer, its services and the incidents are built here.
let ctx: TestContext;
const tokens: Record<string, string> = {};
const API = '/api/v0/soc';
/** Every rule, read straight from the API as an analyst (the reference for the checks). */
let all: Rule[];
/** The service levels of the customer's system (built here). */
const customerLevels = ['Focus', 'Vision'];
let system: BuiltSystem;
const NOW = new Date('2026-11-20T12:00:00Z');

const get = (user: string, url: string) =>
  ctx.app.inject({ method: 'GET', url, headers: bearer(tokens[user]!) });
async function list(user: string, query: string): Promise<RuleListResponse> {
  const res = await get(user, `${API}/rules/?page_size=2000${query ? `&${query}` : ''}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<RuleListResponse>();
}
const ids = (rules: Rule[]) => rules.map((r) => r.id).sort((a, b) => a - b);

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0, now: () => NOW });
  system = await buildSystem(ctx);
  for (const level of customerLevels) await buildService(ctx, system.id, { name: level });
  // a system of someone else, at a level the customer does not have
  const other = await buildSystem(ctx);
  await buildService(ctx, other.id, { name: 'Panorama' });
  tokens.customer = await (await buildCustomer(ctx, [system.id])).login();
  tokens.analyst = await (await buildAnalyst(ctx)).login();
  all = (await list('analyst', '')).results;
}, 120_000);

afterAll(async () => {
  await ctx?.close();
});

describe('rules list', () => {
  it('serves a few hundred demo rules with the fields of product §B3', () => {
    expect(all.length).toBeGreaterThanOrEqual(200);
    const rule = all.find((r) => r.name === 'Suspicious PowerShell EncodedCommand')!;
    expect(rule).toMatchObject({
      rule_caption_eng: 'Suspicious PowerShell EncodedCommand',
      rule_caption_rus: 'Подозрительный PowerShell с EncodedCommand',
      mitre_cov: { execution: ['T1059.001'], 'defense-evasion': ['T1027'] },
      mitre_tactic: ['execution', 'defense-evasion'],
      mitre_technique: ['T1027', 'T1059', 'T1059.001'],
    });
    expect(rule.sensor_tuples[0]).toHaveProperty('sensor_module');
  });

  it('pages with page/page_size, page_size=1 gives the total, and orders by created both ways', async () => {
    const one = (await get('analyst', `${API}/rules/?page_size=1`)).json<RuleListResponse>();
    expect(one.total).toBe(all.length);
    expect(one.results).toHaveLength(1);
    const res = await get('analyst', `${API}/rules/?page_size=20&page=2&ordering=created`);
    const page = res.json<RuleListResponse>();
    const asc = [...all].sort((a, b) => a.created.localeCompare(b.created) || a.id - b.id);
    expect(page.results.map((r) => r.id)).toEqual(asc.slice(20, 40).map((r) => r.id));
    expect(page.next).toContain('page=3');
    expect(page.previous).toContain('page=1');
    const desc = (await list('analyst', 'ordering=-created')).results.map((r) => r.created);
    expect(desc).toEqual([...desc].sort().reverse());
  });

  const overlap = (a: string[], b: string[]) => a.some((v) => b.includes(v));
  const cases: [string, (r: Rule) => boolean][] = [
    ['severity__in=Critical,Low', (r) => ['Critical', 'Low'].includes(r.severity)],
    ['confidence__in=High', (r) => r.confidence === 'High'],
    ['category__in=Malware,Ransomware', (r) => overlap(r.category, ['Malware', 'Ransomware'])],
    ['mitre_tactic__in=impact', (r) => Object.keys(r.mitre_cov).includes('impact')],
    [
      'mitre_technique__in=T1003',
      (r) => Object.values(r.mitre_cov).some((l) => l.some((t) => t === 'T1003' || t.startsWith('T1003.'))),
    ],
    ['mitre_technique__in=T1059.001', (r) => Object.values(r.mitre_cov).some((l) => l.includes('T1059.001'))],
    ['mitre_platform__in=Linux', (r) => r.mitre_platform.includes('Linux')],
    ['available_for_services__in=Focus', (r) => r.available_for_services.includes('Focus')],
    ['is_requested=true', (r) => r.is_requested],
    ['is_requested=false', (r) => !r.is_requested],
    ['activation_mode__in=manual', (r) => r.activation_mode === 'manual'],
    ['sensor__in=Sysmon', (r) => r.sensor_tuples.some((s) => s.sensor === 'Sysmon')],
    ['sensor_type__in=NDR', (r) => r.sensor_tuples.some((s) => s.sensor_type === 'NDR')],
    ['sensor_module__in=DNS', (r) => r.sensor_tuples.some((s) => s.sensor_module === 'DNS')],
    ['name__in=DNS tunnelling pattern', (r) => r.name === 'DNS tunnelling pattern'],
    [
      'search=powershell',
      (r) => /powershell/i.test(`${r.rule_id} ${r.name} ${r.rule_caption_rus} ${r.rule_caption_eng}`),
    ],
    ['search=SOC-R-000', (r) => r.rule_id.startsWith('SOC-R-000')],
    [
      'created__gte=2026-10-21&created__lte=2026-11-20',
      (r) => r.created >= '2026-10-21T00:00:00.000Z' && r.created <= '2026-11-20T23:59:59.999Z',
    ],
    [
      'severity__in=High&mitre_tactic__in=execution,persistence',
      (r) => r.severity === 'High' && overlap(r.mitre_tactic, ['execution', 'persistence']),
    ],
  ];
  it.each(cases)('filter %s matches the rules an independent scan finds', async (query, predicate) => {
    const expected = ids(all.filter(predicate));
    expect(expected.length).toBeGreaterThan(0);
    const got = await list('analyst', encodeURI(query));
    expect(ids(got.results)).toEqual(expected);
    expect(got.total).toBe(expected.length);
  });

  it('filters by rule ids (the rules filter)', async () => {
    const pick = [all[3]!.id, all[7]!.id];
    expect(ids((await list('analyst', `id__in=${pick.join(',')}`)).results)).toEqual(
      [...pick].sort((a, b) => a - b),
    );
  });

  it('refuses unknown filters and bad values with 400', async () => {
    for (const q of ['colour=red', 'severity__in=Huge', 'mitre_technique__in=X1', 'created__gte=yesterday']) {
      const res = await get('analyst', `${API}/rules/?${q}`);
      expect(res.statusCode, q).toBe(400);
    }
  });
});

describe('service-level visibility', () => {
  it('a customer sees exactly the rules available for their systems’ service levels', async () => {
    expect(customerLevels.length).toBeGreaterThan(0);
    const expected = ids(all.filter((r) => r.available_for_services.some((l) => customerLevels.includes(l))));
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(all.length);
    const got = await list('customer', '');
    expect(ids(got.results)).toEqual(expected);
    const counters = (await get('customer', `${API}/rules/analytics_counters/`)).json<RuleCounters>();
    expect(counters.count).toBe(expected.length);
    const services = (await get('customer', `${API}/rules/services/`)).json<RuleServicesResponse>();
    expect([...services.results].sort()).toEqual([...customerLevels].sort());
  });

  it('a rule outside the customer’s levels is a 404 for them and readable by analysts', async () => {
    const hidden = all.find((r) => !r.available_for_services.some((l) => customerLevels.includes(l)))!;
    expect((await get('customer', `${API}/rules/${hidden.id}/`)).statusCode).toBe(404);
    const res = await get('analyst', `${API}/rules/${hidden.id}/`);
    expect(res.statusCode).toBe(200);
    // the page adds the imported YAML to the list's shape (none for a provider rule)
    expect(res.json<Rule>()).toEqual({ ...hidden, source_yaml: null });
    expect((await get('analyst', `${API}/rules/999999/`)).statusCode).toBe(404);
  });
});

describe('counters and coverage', () => {
  const query = 'severity__in=High,Medium';
  const matching = () => all.filter((r) => ['High', 'Medium'].includes(r.severity));

  it('counts the matching rules, those of the last 30 days and the custom ones', async () => {
    const res = await get('analyst', `${API}/rules/analytics_counters/?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    const c = res.json<RuleCounters>();
    const since = new Date(NOW.getTime() - 30 * 86_400_000).toISOString();
    expect(c.count).toBe(matching().length);
    expect(c.count_last_month).toBe(matching().filter((r) => r.created >= since).length);
    expect(c.count_last_month).toBeGreaterThan(0);
    expect(c.count_is_requested).toBe(matching().filter((r) => r.is_requested).length);
  });

  it('counts rules per technique, parents including their sub-techniques', async () => {
    const res = await get('analyst', `${API}/rules/coverage/?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    const coverage = res.json<RuleCoverage>();
    const expected = new Map<string, number>();
    for (const r of matching()) {
      const set = new Set<string>();
      for (const t of Object.values(r.mitre_cov).flat()) {
        set.add(t);
        set.add(t.split('.')[0]!);
      }
      for (const t of set) expected.set(t, (expected.get(t) ?? 0) + 1);
    }
    const got = new Map(coverage.techniques.filter((t) => t.count > 0).map((t) => [t.technique_id, t.count]));
    expect(got).toEqual(expected);
  });
});

/**
 * Active techniques and their platforms, read straight from the file the server loads (not
 * through the loader): the configured STIX bundle, else the repository's compact file.
 */
function referenceTechniques(file: string | undefined): Map<string, string[]> {
  interface Stix {
    type: string;
    revoked?: boolean;
    x_mitre_deprecated?: boolean;
    x_mitre_platforms?: string[];
    external_references?: { source_name: string; external_id?: string }[];
  }
  const out = new Map<string, string[]>();
  if (!file) {
    const compact = JSON.parse(readFileSync(repositoryCompactPath()!, 'utf8')) as {
      techniques: { id: string; platforms: string[]; revoked?: true; deprecated?: true }[];
    };
    for (const t of compact.techniques) if (!t.revoked && !t.deprecated) out.set(t.id, t.platforms);
    return out;
  }
  const bundle = JSON.parse(readFileSync(file, 'utf8')) as { objects: Stix[] };
  for (const o of bundle.objects) {
    if (o.type !== 'attack-pattern' || o.revoked || o.x_mitre_deprecated) continue;
    const id = o.external_references?.find((r) => r.source_name === 'mitre-attack')?.external_id;
    if (id) out.set(id, o.x_mitre_platforms ?? []);
  }
  return out;
}

describe('MITRE coverage numbers', () => {
  it('coverage percent and per-platform shares match a count over the bundle', async () => {
    const techniques = referenceTechniques(ctx.config.attackStixPath);
    expect(techniques.size).toBeGreaterThan(500);
    const query = 'mitre_platform__in=Windows';
    const matching = all.filter((r) => r.mitre_platform.includes('Windows'));
    const covered = new Set(matching.flatMap((r) => r.mitre_technique).filter((id) => techniques.has(id)));
    const round = (part: number, whole: number) => Math.round((part / whole) * 1000) / 10;
    const c = (await get('analyst', `${API}/rules/analytics_counters/?${query}`)).json<RuleCounters>();
    expect(c.mitre_coverage_percent).toBe(round(covered.size, techniques.size));
    expect(c.mitre_coverage_percent).toBeGreaterThan(0);
    const totals: Record<string, number> = {};
    const hits: Record<string, number> = {};
    for (const [id, platforms] of techniques) {
      for (const p of platforms) {
        totals[p] = (totals[p] ?? 0) + 1;
        if (covered.has(id)) hits[p] = (hits[p] ?? 0) + 1;
      }
    }
    expect(c.mitre_total_techniques_by_platforms).toEqual(totals);
    expect(c.mitre_coverage_by_platform).toEqual(
      Object.fromEntries(Object.keys(totals).map((p) => [p, round(hits[p] ?? 0, totals[p]!)])),
    );
    expect(c.mitre_coverage_by_platform.Windows).toBeGreaterThan(0);
  });

  it('the matrix lists the 14 tactics in matrix order and every active technique with names', async () => {
    const coverage = (await get('analyst', `${API}/rules/coverage/`)).json<RuleCoverage>();
    expect(coverage.attack_loaded).toBe(true);
    expect(coverage.tactics.map((t) => t.short_name)).toEqual([
      'reconnaissance',
      'resource-development',
      'initial-access',
      'execution',
      'persistence',
      'privilege-escalation',
      'defense-evasion',
      'credential-access',
      'discovery',
      'lateral-movement',
      'collection',
      'command-and-control',
      'exfiltration',
      'impact',
    ]);
    expect(coverage.techniques).toHaveLength(referenceTechniques(ctx.config.attackStixPath).size);
    const t1059 = coverage.techniques.find((t) => t.technique_id === 'T1059')!;
    expect(t1059.name).toBe('Command and Scripting Interpreter');
    expect(t1059.sub_techniques).toContain('T1059.001');
    const sub = coverage.techniques.find((t) => t.technique_id === 'T1059.001')!;
    expect(sub.fullName).toBe('Command and Scripting Interpreter: PowerShell');
    const detail = await get('analyst', `${API}/rules/techniques/T1059.001/`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json<{ description: string; count: number }>()).toMatchObject({ count: sub.count });
    expect((await get('analyst', `${API}/rules/techniques/T9999/`)).statusCode).toBe(404);
  });

  it('a technique description is rendered from Markdown without citation markers', async () => {
    // descriptions come from a bundle (configured or imported); the compact file has none
    const bundle = {
      type: 'bundle',
      objects: [
        {
          type: 'attack-pattern',
          id: 'attack-pattern--1',
          name: 'Brute Force',
          description:
            'Adversaries may use brute force techniques to gain access to accounts when passwords are unknown or when password hashes are obtained.(Citation: TrendMicro Pawn Storm Dec 2020) Without knowledge of the password, see [Valid Accounts](https://attack.mitre.org/techniques/T1078).',
          external_references: [
            {
              source_name: 'mitre-attack',
              external_id: 'T1110',
              url: 'https://attack.mitre.org/techniques/T1110',
            },
          ],
        },
      ],
    };
    const service = createRulesService({
      db: ctx.database.db,
      attack: async () => parseAttackBundle(bundle),
    });
    const analyst: AuthContext = {
      userId: 1,
      username: 'analyst',
      role: 'analyst',
      sessionId: null,
      systemIds: [],
    };
    const bruteForce = await service.technique('T1110', {}, analyst);
    expect(bruteForce.description).toContain('Adversaries may use brute force techniques');
    expect(bruteForce.description).not.toContain('(Citation:');
    expect(bruteForce.rendered_description).not.toContain('Citation');
    expect(bruteForce.rendered_description).toMatch(/^<p>Adversaries may use brute force techniques/);
    expect(bruteForce.rendered_description).toContain(
      '<a href="https://attack.mitre.org/techniques/T1078" rel="noopener noreferrer nofollow" target="_blank">Valid Accounts</a>',
    );
    expect(bruteForce.rendered_description).toContain('password hashes are obtained. Without');
  });
});

describe('filter suggestions', () => {
  it('suggest categories, sensors, sensor types and modules, 7 at most, by substring', async () => {
    const categories = (
      await get('analyst', `${API}/rules/categories/?search=theft`)
    ).json<RuleSuggestionsResponse>();
    expect(categories.results).toEqual(['Credential theft']);
    const sensors = (await get('analyst', `${API}/rules/sensors/`)).json<RuleSuggestionsResponse>();
    expect(sensors.results).toHaveLength(7);
    const allSensors = [...new Set(all.flatMap((r) => r.sensor_tuples.map((s) => s.sensor)))].sort();
    expect(sensors.results).toEqual(allSensors.slice(0, 7));
    const types = (
      await get('analyst', `${API}/rules/sensor_types/?name__icontains=dr`)
    ).json<RuleSuggestionsResponse>();
    expect(types.results).toEqual(['EDR', 'NDR']);
    const modules = (
      await get('analyst', `${API}/rules/sensor_modules/?name__icontains=dns&page_size=3`)
    ).json<RuleSuggestionsResponse>();
    expect(modules.results).toEqual(['DNS']);
  });
});

describe('incidents of a rule', () => {
  it('rule_id__in lists the incidents that carry the rule’s name, paged by limit/offset', async () => {
    const rule = all.find((r) => r.name === 'DNS tunnelling pattern')!;
    const other = all.find((r) => r.name !== rule.name)!;
    const carrying: BuiltIncident[] = [];
    for (let i = 0; i < 3; i++) {
      carrying.push(await buildIncident(ctx, system.id, { detectionRules: [other.name, rule.name] }));
    }
    await buildIncident(ctx, system.id, { detectionRules: [other.name] });
    await buildIncident(ctx, system.id);
    const expected = carrying.map((i) => i.key);
    const first = await get('analyst', `${API}/incs/?rule_id__in=${rule.id}&limit=1&offset=0`);
    expect(first.statusCode, first.body).toBe(200);
    const page = first.json<IncidentListResponse>();
    expect(page.total).toBe(expected.length);
    expect(page.results).toHaveLength(1);
    const whole = (
      await get('analyst', `${API}/incs/?rule_id__in=${rule.id}&limit=100&offset=0`)
    ).json<IncidentListResponse>();
    expect(whole.results.map((i) => i.key).sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b));
    const second = (
      await get('analyst', `${API}/incs/?rule_id__in=${rule.id}&limit=10&offset=1`)
    ).json<IncidentListResponse>();
    expect(second.results.map((i) => i.key)).toEqual(whole.results.slice(1, 11).map((i) => i.key));
  });
});

describe('cached answers', () => {
  const db = () => ctx.database.db;
  const firstPage = async (user: string) =>
    (await get(user, `${API}/rules/?page=1&page_size=5&ordering=-created`)).json<RuleListResponse>();
  const coverageOf = async (id: string) =>
    (await get('analyst', `${API}/rules/coverage/`))
      .json<RuleCoverage>()
      .techniques.find((t) => t.technique_id === id)?.count ?? 0;

  it('answer a repeated page from the cache and see every change of the rules and of a customer’s services', async () => {
    const before = await firstPage('analyst');
    const rule = before.results[0]!;
    await db().execute(sql`ALTER TABLE rules DISABLE TRIGGER USER`);
    try {
      await db().update(rules).set({ name: 'Renamed unseen' }).where(eq(rules.id, rule.id));
    } finally {
      await db().execute(sql`ALTER TABLE rules ENABLE TRIGGER USER`);
    }
    // the write raised no version: the page comes from the cache
    expect((await firstPage('analyst')).results[0]!.name).toBe(rule.name);

    // a change with the triggers on: the page, the coverage and the incidents of a rule follow it
    const [technique] = (await get('analyst', `${API}/rules/coverage/`))
      .json<RuleCoverage>()
      .techniques.filter((t) => t.count > 0 && !rule.mitre_technique.includes(t.technique_id));
    const count = technique!.count;
    await buildIncident(ctx, system.id, { detectionRules: [rule.name] });
    const carrying = (await db().select({ rules: incidents.detectionRules }).from(incidents)).filter((i) =>
      i.rules.includes(rule.name),
    ).length;
    await db()
      .update(rules)
      .set({ name: 'Renamed seen', techniques: [...rule.mitre_technique, technique!.technique_id] })
      .where(eq(rules.id, rule.id));
    expect((await firstPage('analyst')).results[0]!.name).toBe('Renamed seen');
    expect(await coverageOf(technique!.technique_id)).toBe(count + 1);
    const renamed = (
      await get('analyst', `${API}/incs/?rule_id__in=${rule.id}&limit=1`)
    ).json<IncidentListResponse>();
    // no incident carries the new name; the one built above carries the restored one
    expect(renamed.total).toBe(0);
    await db()
      .update(rules)
      .set({ name: rule.name, techniques: rule.mitre_technique })
      .where(eq(rules.id, rule.id));
    expect(
      (await get('analyst', `${API}/incs/?rule_id__in=${rule.id}&limit=1`)).json<IncidentListResponse>()
        .total,
    ).toBe(carrying);

    // a service level added to the customer's system widens their rules
    const missing = RULE_SERVICE_LEVELS.find(
      (level) => !customerLevels.includes(level) && all.some((r) => r.available_for_services.includes(level)),
    );
    if (!missing) throw new Error('the customer has every service level');
    const total = (await firstPage('customer')).total;
    const added = await buildService(ctx, system.id, { name: missing });
    try {
      const widened: string[] = [...customerLevels, missing];
      const expected = all.filter((r) => r.available_for_services.some((s) => widened.includes(s))).length;
      expect((await firstPage('customer')).total).toBe(expected);
      expect(expected).toBeGreaterThan(total);
    } finally {
      await db().delete(services).where(eq(services.id, added.id));
    }
    expect((await firstPage('customer')).total).toBe(total);
  });
});
