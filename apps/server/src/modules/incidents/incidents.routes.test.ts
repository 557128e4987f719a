import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncidentListItem } from '@soc/contracts';
import { INCIDENT_PRIORITIES, INCIDENT_STATUSES, joinList } from '@soc/contracts';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/client.ts';
import { sparsePage } from './incidents.repository.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import type { BuiltSystem } from '../../test/builders.ts';
import { buildAnalyst, buildCustomer, buildSystem, buildVariedIncidents } from '../../test/builders.ts';
import type { MultipartFile } from '../../test/multipart.ts';
import { multipart } from '../../test/multipart.ts';

/**
 * Callers: `one` sees system A, `two` system B, `both` systems A and C; the analyst all of them.
 * The built incidents (`buildVariedIncidents`) fill every filtered column on some rows and leave
 * it empty on others.
 */
type Caller = 'one' | 'two' | 'both' | 'analyst';

let ctx: TestContext;
const tokens: Record<string, string> = {};
let all: IncidentListItem[] = [];
let A: BuiltSystem;
let B: BuiltSystem;
let C: BuiltSystem;
const usernames: Record<string, string> = {};
/** How many incidents each built system gets. */
const SIZES = [36, 24, 30];
const TOTAL = SIZES.reduce((a, b) => a + b);

const get = (user: Caller, url: string) =>
  ctx.app.inject({ method: 'GET', url, headers: { ...bearer(tokens[user]!), 'accept-language': 'en' } });

async function listAll(user: Caller, query = ''): Promise<IncidentListItem[]> {
  const out: IncidentListItem[] = [];
  for (let offset = 0; ; offset += 100) {
    const res = await get(user, `/api/v0/soc/incs/?limit=100&offset=${offset}${query ? `&${query}` : ''}`);
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<{ results: IncidentListItem[]; next: string | null }>();
    out.push(...page.results);
    if (!page.next) return out;
  }
}

const keys = (items: IncidentListItem[]) => items.map((i) => i.key).sort((a, b) => a - b);

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  // is_id sorts the lists of systems
  [A, B, C] = [
    await buildSystem(ctx, { isId: 'IS-9001' }),
    await buildSystem(ctx, { isId: 'IS-9002' }),
    await buildSystem(ctx, { isId: 'IS-9003' }),
  ];
  const customers = {
    one: await buildCustomer(ctx, [A.id]),
    two: await buildCustomer(ctx, [B.id]),
    both: await buildCustomer(ctx, [A.id, C.id]),
  };
  for (const [name, customer] of Object.entries(customers)) {
    tokens[name] = await customer.login();
    usernames[name] = customer.username;
  }
  tokens.analyst = await (await buildAnalyst(ctx)).login();
  await buildVariedIncidents(ctx, [
    { id: A.id, count: SIZES[0]!, assigneeId: customers.one.id },
    { id: B.id, count: SIZES[1]!, assigneeId: customers.two.id },
    { id: C.id, count: SIZES[2]!, assigneeId: customers.both.id },
  ]);
  all = await listAll('analyst');
});
afterAll(() => ctx.close());

describe('GET /soc/incs/ — paging and tenant scope', () => {
  it('pages by 40, newest first, with total and next/previous links', async () => {
    const res = await get('analyst', '/api/v0/soc/incs/');
    const page = res.json<{ total: number; next: string; previous: null; results: IncidentListItem[] }>();
    expect(page.total).toBe(TOTAL);
    expect(page.results).toHaveLength(40);
    expect(page.previous).toBeNull();
    expect(new URL(page.next, 'http://portal').searchParams.get('offset')).toBe('40');
    const created = page.results.map((i) => i.created);
    expect([...created].sort((a, b) => b - a)).toEqual(created);
  });

  it('has a next page exactly when more rows remain', async () => {
    const total = all.length;
    const last = await get('analyst', `/api/v0/soc/incs/?limit=40&offset=${total - 40}`);
    expect(last.json<{ next: string | null; results: unknown[] }>().next).toBeNull();
    expect(last.json<{ results: unknown[] }>().results).toHaveLength(40);
    const beforeLast = await get('analyst', `/api/v0/soc/incs/?limit=40&offset=${total - 41}`);
    expect(beforeLast.json<{ next: string | null }>().next).not.toBeNull();
  });

  it('shows customers only their systems', async () => {
    const one = await listAll('one');
    const both = await listAll('both');
    const two = await listAll('two');
    expect(new Set(one.map((i) => i.system.is_id))).toEqual(new Set([A.isId]));
    expect(new Set(two.map((i) => i.system.is_id))).toEqual(new Set([B.isId]));
    expect(new Set(both.map((i) => i.system.is_id))).toEqual(new Set([A.isId, C.isId]));
    expect(one.length).toBe(SIZES[0]);
    expect(both.length).toBe(SIZES[0]! + SIZES[2]!);
  });

  it('never returns another tenant’s incident, whatever the filter asks', async () => {
    const othersKey = all.find((i) => i.system.id === B.id)!.key;
    expect((await listAll('one', `key__in=${othersKey}`)).length).toBe(0);
    expect((await listAll('one', `system__in=${B.id}`)).length).toBe(0);
    expect((await listAll('one', `search=${othersKey}`)).every((i) => i.system.id === A.id)).toBe(true);
  });

  it('refuses unknown parameters and bad values with field errors', async () => {
    const unknown = await get('one', '/api/v0/soc/incs/?colour=red');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ colour: ['Unknown parameter.'] });
    const bad = await get('one', '/api/v0/soc/incs/?status__in=sleeping&limit=0&ordering=size');
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json<object>()).sort()).toEqual(['limit', 'ordering', 'status__in']);
  });

  it('requires sign-in', async () => {
    expect((await ctx.app.inject('/api/v0/soc/incs/')).statusCode).toBe(401);
  });
});

describe('GET /soc/incs/ — every filter', () => {
  const day = 86_400_000;
  const mid = () => all[Math.floor(all.length / 2)]!;
  const cases: [string, () => string, (i: IncidentListItem) => boolean][] = [
    [
      'status__in',
      () => 'status__in=closed,work_in_progress',
      (i) => ['closed', 'work_in_progress'].includes(i.status),
    ],
    ['priority__in', () => 'priority__in=critical,high', (i) => ['critical', 'high'].includes(i.priority)],
    ['system__in', () => `system__in=${all[0]!.system.id}`, (i) => i.system.id === all[0]!.system.id],
    [
      'category__in (main or additional)',
      () => `category__in=${all.find((i) => i.secondary_category_ref.length)!.secondary_category_ref[0]!.id}`,
      (i) => {
        const id = all.find((x) => x.secondary_category_ref.length)!.secondary_category_ref[0]!.id;
        return i.category_ref.some((c) => c.id === id) || i.secondary_category_ref.some((c) => c.id === id);
      },
    ],
    [
      'issuetype__in',
      () => `issuetype__in=${all[0]!.issuetype_ref.id}`,
      (i) => i.issuetype_ref.id === all[0]!.issuetype_ref.id,
    ],
    [
      'service__in',
      () => 'service__in=Vision,Focus',
      (i) => ['Vision', 'Focus'].includes(i.service?.name ?? ''),
    ],
    [
      'created range',
      () => `created__gte=${mid().created - 20 * day}&created__lte=${mid().created}`,
      (i) => i.created >= mid().created - 20 * day && i.created <= mid().created,
    ],
    ['updated__gte', () => `updated__gte=${mid().updated}`, (i) => i.updated >= mid().updated],
    ['sla_breached=true', () => 'sla_breached=true', (i) => i.sla_breached],
    ['sla_breached=false', () => 'sla_breached=false', (i) => !i.sla_breached],
    ['sla__lte', () => `sla__lte=${mid().sla}`, (i) => i.sla !== null && i.sla <= mid().sla!],
    [
      'notified__gte',
      () => `notified__gte=${mid().created}`,
      (i) => i.notified !== null && i.notified >= mid().created,
    ],
    [
      'resolutiondate__gte',
      () => `resolutiondate__gte=${mid().created}`,
      (i) => i.resolutiondate !== null && i.resolutiondate >= mid().created,
    ],
    ['gossopka_id__isnull=false (sent)', () => 'gossopka_id__isnull=false', (i) => i.gossopka_id !== null],
    ['gossopka_id__isnull=true (not sent)', () => 'gossopka_id__isnull=true', (i) => i.gossopka_id === null],
    ['resolution__in', () => 'resolution__in=FP', (i) => i.resolution === 'False Positive'],
    [
      'resolution_name__in',
      () => `resolution_name__in=${all.find((i) => i.resolution_name_ref)!.resolution_name_ref!.id}`,
      (i) => i.resolution_name_ref?.id === all.find((x) => x.resolution_name_ref)!.resolution_name_ref!.id,
    ],
    [
      'customer_assignee__in',
      () => `customer_assignee__in=${all.find((i) => i.customer_assignee)!.customer_assignee!.id}`,
      (i) => i.customer_assignee?.id === all.find((x) => x.customer_assignee)!.customer_assignee!.id,
    ],
    [
      'customer_assignee__isnull',
      () => 'customer_assignee__isnull=true',
      (i) => i.customer_assignee === null,
    ],
    ['tags__in', () => 'tags__in=vpn', (i) => i.tags.includes('vpn')],
    ['search by text', () => 'search=LSASS', (i) => i.summary.toLowerCase().includes('lsass')],
    [
      'search by key',
      () => `search=${mid().key}`,
      (i) => i.key === mid().key || i.summary.includes(String(mid().key)),
    ],
    ['summary__icontains', () => 'summary__icontains=dc01', (i) => i.summary.toLowerCase().includes('dc01')],
  ];

  it.each(cases)('%s matches exactly the incidents it names', async (_name, query, predicate) => {
    const got = await listAll('analyst', query());
    const expected = all.filter(predicate);
    expect(expected.length, 'the built data should exercise this filter').toBeGreaterThan(0);
    expect(expected.length, 'the built data should leave some incidents out').toBeLessThan(all.length);
    expect(keys(got)).toEqual(keys(expected));
  });

  it('pages a search the same whether a page is read from the matches or along an ordering index', async () => {
    // with TOTAL incidents, a page of 7 at offset o is read from the matches when total² < (o + 7) × TOTAL
    // (sparsePage): for a term of ~TOTAL/3 matches the first pages walk the index and the later ones do not
    const counted: number[] = [];
    for (const term of ['LSASS', 'dc0']) {
      for (const ordering of ['-created', 'priority', '-status', 'updated']) {
        const query = `search=${term}&ordering=${ordering}`;
        const whole = (await get('analyst', `/api/v0/soc/incs/?limit=100&${query}`)).json<{
          total: number;
          results: IncidentListItem[];
        }>();
        const pages: number[] = [];
        for (let offset = 0; offset < whole.total; offset += 7) {
          const page = (await get('analyst', `/api/v0/soc/incs/?limit=7&offset=${offset}&${query}`)).json<{
            total: number;
            results: IncidentListItem[];
          }>();
          expect(page.total).toBe(whole.total);
          pages.push(...page.results.map((i) => i.key));
        }
        expect(pages, query).toEqual(whole.results.map((i) => i.key).slice(0, whole.total));
        counted.push(whole.total);
      }
    }
    expect(Math.min(...counted)).toBeGreaterThan(0);
    // one term walks the index for its first pages
    expect(Math.max(...counted) ** 2).toBeGreaterThan(7 * TOTAL);
    expect(sparsePage(0, 1_000_000, 40, 0)).toBe(true);
    expect(sparsePage(100_000, 1_000_000, 40, 0)).toBe(false);
    expect(sparsePage(1_000, 1_000_000, 40, 0)).toBe(true);
  });

  it('filters by ATT&CK tactic, technique, rule and host', async () => {
    for (const query of [
      'tactic__in=initial-access',
      'technique__in=T1110,T1486',
      'rule__in=DNS tunnelling pattern',
      'host__icontains=DC0',
    ]) {
      const got = await listAll('analyst', query);
      expect(got.length, query).toBeGreaterThan(0);
      expect(got.length, query).toBeLessThan(all.length);
    }
  });

  it('filters by a rule whose name holds a comma, written as \\,', async () => {
    const rule = 'Logon, then privilege escalation';
    const [target] = all;
    await ctx.database.db.execute(
      sql`UPDATE incidents SET detection_rules = array_append(detection_rules, ${rule}) WHERE key = ${target!.key}`,
    );
    const got = await listAll('analyst', `rule__in=${encodeURIComponent(joinList([rule, 'No such rule']))}`);
    expect(keys(got)).toEqual([target!.key]);
  });

  it("filters by an observed indicator, exact but case-insensitive, within the caller's systems", async () => {
    const rows = await queryRows<{ key: number; ioc: string }>(
      ctx.database.db,
      sql`SELECT i.key, o->>'ioc' AS ioc FROM incidents i, jsonb_array_elements(i.observed_iocs) o
           WHERE o->>'ioc_type' IN ('fqdn', 'domain') ORDER BY i.key LIMIT 1`,
    );
    const ioc = rows[0]!.ioc;
    const expected = await queryRows<{ key: number }>(
      ctx.database.db,
      sql`SELECT i.key FROM incidents i WHERE EXISTS (
            SELECT 1 FROM jsonb_array_elements(i.observed_iocs) o WHERE lower(o->>'ioc') = lower(${ioc}))
          ORDER BY i.key`,
    );
    const want = expected.map((r) => Number(r.key));
    expect(want.length).toBeGreaterThan(0);
    const got = await listAll(
      'analyst',
      `ioc__in=${encodeURIComponent(joinList([ioc.toUpperCase(), 'no.such.example']))}`,
    );
    expect(keys(got)).toEqual(want);
    // a customer sees only the incidents of their own systems among them
    const own = new Set(keys(await listAll('one')));
    const ownGot = await listAll('one', `ioc__in=${encodeURIComponent(ioc)}`);
    expect(ownGot.length).toBeGreaterThan(0);
    expect(ownGot.length).toBeLessThan(want.length);
    expect(keys(ownGot)).toEqual(want.filter((k) => own.has(k)));
    // a substring is not a match
    expect(await listAll('analyst', `ioc__in=${encodeURIComponent(ioc.slice(1))}`)).toEqual([]);
  });

  it('combines filters with AND', async () => {
    const got = await listAll('analyst', 'status__in=closed&priority__in=medium');
    expect(keys(got)).toEqual(keys(all.filter((i) => i.status === 'closed' && i.priority === 'medium')));
  });
});

describe('GET /soc/incs/ — ordering and language', () => {
  const rank = (list: readonly string[], v: string) => list.indexOf(v);
  const checks: Record<string, (a: IncidentListItem, b: IncidentListItem) => boolean> = {
    created: (a, b) => a.created <= b.created,
    '-created': (a, b) => a.created >= b.created,
    updated: (a, b) => a.updated <= b.updated,
    '-updated': (a, b) => a.updated >= b.updated,
    // priority: low → critical; -priority: critical first
    priority: (a, b) => rank(INCIDENT_PRIORITIES, a.priority) >= rank(INCIDENT_PRIORITIES, b.priority),
    '-priority': (a, b) => rank(INCIDENT_PRIORITIES, a.priority) <= rank(INCIDENT_PRIORITIES, b.priority),
    status: (a, b) => rank(INCIDENT_STATUSES, a.status) <= rank(INCIDENT_STATUSES, b.status),
    '-status': (a, b) => rank(INCIDENT_STATUSES, a.status) >= rank(INCIDENT_STATUSES, b.status),
  };
  it.each(Object.keys(checks))('orders by %s across pages without gaps or repeats', async (ordering) => {
    const got = await listAll('analyst', `ordering=${ordering}`);
    expect(keys(got)).toEqual(keys(all));
    for (let i = 1; i < got.length; i++) expect(checks[ordering]!(got[i - 1]!, got[i]!)).toBe(true);
  });

  it.each(Object.keys(checks))(
    'merges the pages of a customer with two systems in %s order exactly as one list',
    async (ordering) => {
      const mine = await listAll('both', `ordering=${ordering}`);
      const systems = new Set(mine.map((i) => i.system.id));
      expect(systems.size).toBe(2);
      const expected = (await listAll('analyst', `ordering=${ordering}`)).filter((i) =>
        systems.has(i.system.id),
      );
      expect(mine.map((i) => i.key)).toEqual(expected.map((i) => i.key));
      // the same at an offset that is not a multiple of the page size
      const res = await get('both', `/api/v0/soc/incs/?limit=7&offset=33&ordering=${ordering}`);
      const page = res.json<{ results: IncidentListItem[] }>();
      expect(page.results.map((i) => i.key)).toEqual(expected.slice(33, 40).map((i) => i.key));
    },
  );

  it('gives titles in the requested language', async () => {
    const ru = (await get('one', '/api/v0/soc/incs/?limit=1&language=ru')).json<{
      results: IncidentListItem[];
    }>();
    const en = (await get('one', '/api/v0/soc/incs/?limit=1&language=en')).json<{
      results: IncidentListItem[];
    }>();
    expect(ru.results[0]!.issuetype_ref.title).not.toBe(en.results[0]!.issuetype_ref.title);
    expect(ru.results[0]!.issuetype_ref.title).toMatch(/[а-яё]/i);
  });
});

describe('lookups', () => {
  it('lists issue types, their categories and resolutions', async () => {
    const types = (await get('one', '/api/v0/soc/issue_types/?limit=30')).json<{
      results: { id: number; code: string }[];
    }>();
    const incident = types.results.find((t) => t.code === 'incident')!;
    const cats = (await get('one', `/api/v0/soc/issues/${incident.id}/categories/?limit=30`)).json<{
      total: number;
      results: { title: string }[];
    }>();
    expect(cats.total).toBe(19);
    expect(cats.results.map((c) => c.title)).toContain('DoS/DDoS');
    const found = (
      await get('one', `/api/v0/soc/issues/${incident.id}/categories/?limit=30&search=phish`)
    ).json<{
      results: { title: string }[];
    }>();
    expect(found.results.map((c) => c.title)).toEqual(['Phishing']);
    const res = (await get('one', `/api/v0/soc/issues/incident/resolutions/?limit=30`)).json<{
      results: { kind: string }[];
    }>();
    expect(new Set(res.results.map((r) => r.kind))).toEqual(new Set(['TP', 'FP']));
    expect((await get('one', '/api/v0/soc/issues/999/categories/')).statusCode).toBe(404);
  });

  it('lists the caller’s systems only, with search', async () => {
    const both = (await get('both', '/api/v0/soc/systems/?no_page=true&short=true&page_size=30')).json<{
      results: { is_id: string }[];
    }>();
    expect(both.results.map((s) => s.is_id)).toEqual([A.isId, C.isId]);
    const search = (await get('both', '/api/v0/soc/systems/?search=9003')).json<{
      results: { is_id: string }[];
    }>();
    expect(search.results.map((s) => s.is_id)).toEqual([C.isId]);
    const analyst = (await get('analyst', '/api/v0/soc/systems/?page_size=2')).json<{
      total: number;
      next: string;
    }>();
    // every system of the database, the built ones among them
    const [count] = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`SELECT count(*)::int AS n FROM systems`,
    );
    expect(count!.n).toBeGreaterThanOrEqual(3);
    expect(analyst.total).toBe(count!.n);
    expect(analyst.next).toContain('page=2');
  });

  it('gives filter choices limited to the caller’s systems', async () => {
    const choices = (await get('one', '/api/v0/soc/filters/')).json<{
      systems: { is_id: string }[];
      users: { username: string }[];
      statuses: string[];
      base_services: string[];
    }>();
    expect(choices.systems.map((s) => s.is_id)).toEqual([A.isId]);
    expect(choices.users.map((u) => u.username)).toContain(usernames.one);
    expect(choices.users.map((u) => u.username)).toContain(usernames.both);
    expect(choices.users.map((u) => u.username)).not.toContain(usernames.two);
    expect(choices.statuses).toHaveLength(7);
    expect(choices.base_services.length).toBeGreaterThan(0);
  });
});

describe('POST /soc/incs/', () => {
  async function refs(user: Caller) {
    const types = (await get(user, '/api/v0/soc/issue_types/')).json<{
      results: { id: number; code: string }[];
    }>().results;
    const incident = types.find((t) => t.code === 'incident')!;
    const remediation = types.find((t) => t.code === 'remediation')!;
    const cats = (await get(user, `/api/v0/soc/issues/${incident.id}/categories/?limit=30`)).json<{
      results: { id: number }[];
    }>().results;
    const otherCats = (await get(user, `/api/v0/soc/issues/${remediation.id}/categories/`)).json<{
      results: { id: number }[];
    }>().results;
    const system = (await get(user, '/api/v0/soc/systems/')).json<{ results: { id: number }[] }>()
      .results[0]!;
    return { incident, cats, otherCats, system };
  }
  const post = (user: Caller, payload: object) =>
    ctx.app.inject({ method: 'POST', url: '/api/v0/soc/incs/', headers: bearer(tokens[user]!), payload });

  it('registers an incident that then leads the caller’s list', async () => {
    const r = await refs('one');
    const res = await post('one', {
      system: r.system.id,
      summary: 'Подозрительный вход в VPN',
      issuetype: r.incident.id,
      priority: 'high',
      description: 'Вход пользователя из другой страны.',
      primary_category: r.cats[1]!.id,
      secondary_category: [r.cats[2]!.id],
    });
    expect(res.statusCode, res.body).toBe(201);
    const item = res.json<IncidentListItem>();
    expect(item).toMatchObject({
      summary: 'Подозрительный вход в VPN',
      priority: 'high',
      status: 'waiting_for_support',
    });
    expect(item.secondary_category_ref).toHaveLength(1);
    expect(item.sla).toBeGreaterThan(item.created);
    const first = (await get('one', '/api/v0/soc/incs/?limit=1')).json<{ results: IncidentListItem[] }>()
      .results[0]!;
    expect(first.key).toBe(item.key);
    const audit = await ctx.database.db.query.auditLog.findMany();
    expect(audit.some((a) => a.action === 'incident.create' && a.objectId === String(item.key))).toBe(true);
  });

  it('applies every rule: required fields, 255 characters, customer priorities', async () => {
    const missing = await post('one', {});
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json<object>()).sort()).toEqual(
      ['description', 'issuetype', 'primary_category', 'priority', 'summary', 'system'].sort(),
    );
    const r = await refs('one');
    const base = {
      system: r.system.id,
      issuetype: r.incident.id,
      priority: 'low',
      description: 'x',
      primary_category: r.cats[0]!.id,
    };
    const long = await post('one', { ...base, summary: 'a'.repeat(256) });
    expect(long.json()).toEqual({ summary: ['Ensure this field has no more than 255 characters.'] });
    expect((await post('one', { ...base, summary: 'a'.repeat(255) })).statusCode).toBe(201);
    const critical = await post('one', { ...base, summary: 's', priority: 'critical' });
    expect(Object.keys(critical.json<object>())).toEqual(['priority']);
    const blank = await post('one', { ...base, summary: '   ' });
    expect(Object.keys(blank.json<object>())).toEqual(['summary']);
  });

  it('refuses another tenant’s system and categories of another issue type', async () => {
    const r = await refs('one');
    const othersSystem = (await get('two', '/api/v0/soc/systems/')).json<{ results: { id: number }[] }>()
      .results[0]!.id;
    expect(othersSystem).toBe(B.id);
    const base = {
      summary: 's',
      description: 'd',
      priority: 'low',
      issuetype: r.incident.id,
      primary_category: r.cats[0]!.id,
    };
    const foreign = await post('one', { ...base, system: othersSystem });
    expect(foreign.statusCode).toBe(400);
    // no Accept-Language: the portal's default language, Russian
    expect(foreign.json()).toEqual({ system: [`Объект «${othersSystem}» не существует.`] });
    const wrongCategory = await post('one', {
      ...base,
      system: r.system.id,
      primary_category: r.otherCats[0]!.id,
    });
    expect(wrongCategory.json()).toEqual({
      primary_category: ['The category does not belong to the issue type.'],
    });
    const wrongType = await post('one', { ...base, system: r.system.id, issuetype: 9999 });
    expect(wrongType.json()).toEqual({ issuetype: ['Объект «9999» не существует.'] });
  });
});

describe('POST /soc/incs/{key}/add_file/', () => {
  const upload = (user: Caller, key: number, files: MultipartFile[]) => {
    const form = multipart({}, files);
    return ctx.app.inject({
      method: 'POST',
      url: `/api/v0/soc/incs/${key}/add_file/`,
      headers: { ...bearer(tokens[user]!), ...form.headers },
      payload: form.payload,
    });
  };
  const ownKey = () => all.find((i) => i.system.id === A.id)!.key;
  const storedObjects = () => {
    const dir = path.join(ctx.config.filesDir, 'objects', 'attachments');
    try {
      return readdirSync(dir).length;
    } catch {
      return 0;
    }
  };

  it('stores files and answers their names, sizes and links', async () => {
    const res = await upload('one', ownKey(), [
      { name: 'отчёт.txt', type: 'text/plain', body: Buffer.from('журнал событий') },
      {
        name: 'shot.png',
        type: 'image/png',
        body: Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(100)]),
      },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{
      attachments: { filename: string; size: number; link: string; content_type: string }[];
    }>();
    expect(body.attachments.map((a) => [a.filename, a.size, a.content_type])).toEqual([
      ['отчёт.txt', Buffer.byteLength('журнал событий'), 'text/plain; charset=utf-8'],
      ['shot.png', 104, 'image/png'],
    ]);
    expect(body.attachments[0]!.link).toMatch(/^\/api\/v0\/soc\/incs\/\d+\/attachments\/.+\/download\/$/);
  });

  it('refuses 11 files, keeping none of them', async () => {
    const before = storedObjects();
    const files = Array.from({ length: 11 }, (_, i) => ({
      name: `f${i}.txt`,
      type: 'text/plain',
      body: Buffer.from('x'),
    }));
    const res = await upload('one', ownKey(), files);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ attachments: ['Не больше 10 файлов.'] });
    expect(storedObjects()).toBe(before);
  });

  it('refuses a file over 50 MB with 413, keeping nothing', async () => {
    const before = storedObjects();
    const res = await upload('one', ownKey(), [
      { name: 'ok.txt', type: 'text/plain', body: Buffer.from('fine') },
      { name: 'big.bin', type: 'application/octet-stream', body: Buffer.alloc(51 * 1024 * 1024, 1) },
    ]);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ detail: 'Размер каждого файла — не больше 50 МБ.' });
    expect(storedObjects()).toBe(before);
    expect(readdirSync(path.join(ctx.config.filesDir, 'tmp'))).toEqual([]);
  });

  it('refuses an executable disguised as a PDF, and an empty file', async () => {
    const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 0x90)]);
    const disguised = await upload('one', ownKey(), [
      { name: 'invoice.pdf', type: 'application/pdf', body: exe },
    ]);
    expect(disguised.statusCode).toBe(400);
    expect(disguised.json<{ attachments: string[] }>().attachments[0]).toContain(
      '«invoice.pdf» — исполняемый файл',
    );
    const empty = await upload('one', ownKey(), [
      { name: 'empty.txt', type: 'text/plain', body: Buffer.alloc(0) },
    ]);
    expect(empty.json()).toEqual({ attachments: ['Отправленный файл «empty.txt» пуст.'] });
    const none = await upload('one', ownKey(), []);
    expect(none.json()).toEqual({ attachments: ['Файл не отправлен.'] });
  });

  it('answers 404 for another tenant’s incident', async () => {
    const othersKey = all.find((i) => i.system.id === B.id)!.key;
    const res = await upload('one', othersKey, [
      { name: 'a.txt', type: 'text/plain', body: Buffer.from('x') },
    ]);
    expect(res.statusCode).toBe(404);
  });
});
