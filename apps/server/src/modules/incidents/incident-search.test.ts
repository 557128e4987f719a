import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INCIDENT_PRIORITIES, INCIDENT_STATUSES, TOTAL_COUNT_CAP } from '@soc/contracts';
import { queryRows } from '../../db/client.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import { buildAnalyst, buildCustomer, buildIncidents, buildSystem } from '../../test/builders.ts';

type Caller = 'analyst' | 'customer';

let ctx: TestContext;
const tokens: Record<string, string> = {};
let keys: number[];
/** The customer's account: it sees two of the three built systems. */
let customerId: number;

const exec = (query: SQL) => ctx.database.db.execute(query);

type TextFilter = 'search' | 'summary__icontains' | 'host__icontains';

interface ListAnswer {
  total: number;
  total_exact: boolean;
  next: string | null;
  results: { key: number }[];
}

/** The list as a client asks for it. */
async function list(user: Caller, query: Record<string, string>): Promise<ListAnswer> {
  const res = await ctx.app.inject({
    url: `/api/v0/soc/incs/?${new URLSearchParams(query).toString()}`,
    headers: bearer(tokens[user]!),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ListAnswer>();
}

const offsetOf = (link: string | null) => link && new URL(link, 'http://portal').searchParams.get('offset');

/**
 * The keys that a text filter matches, checked row by row (written here, apart from the code): a
 * LIKE pattern escaped in SQL, and for the search an incident whose key the term is.
 */
async function referenceKeys(name: TextFilter, term: string, user: Caller, beside: SQL): Promise<number[]> {
  const pattern = sql`'%' || replace(replace(replace(${term}::text, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'`;
  const match = {
    search: sql`(i.summary || ' ' || i.description ILIKE ${pattern}
                 OR i.key = ${/^[0-9]{1,15}$/.test(term) ? Number(term) : -1})`,
    summary__icontains: sql`i.summary ILIKE ${pattern}`,
    host__icontains: sql`EXISTS (SELECT 1 FROM unnest(i.affected_systems) h WHERE h ILIKE ${pattern})`,
  }[name];
  const scope =
    user === 'analyst'
      ? sql`TRUE`
      : sql`i.system_id IN (SELECT us.system_id FROM user_systems us WHERE us.user_id = ${customerId})`;
  const rows = await queryRows<{ key: number }>(
    ctx.database.db,
    sql`SELECT i.key::int AS key FROM incidents i WHERE ${scope} AND ${match} AND ${beside}`,
  );
  return rows.map((r) => r.key);
}

const LONG = `${'Zq'.repeat(150)}needle${'Wx'.repeat(60)}`;

/** Texts with wildcards, escapes, mixed case, scripts and whitespace, written over existing incidents. */
const TEXTS: [string, string][] = [
  ['Crypto mining on DC01', '## What happened\n\nCrypto  mining on `dc01`.\n\n- Host: dc01.corp.local'],
  ['crypto\tmining report', 'Crypto\nmining, then crypto mining again; 50% done_ok back\\slash'],
  ['Перехват DNS домена corp-mail.online', 'Узел: `DC01`\n\nПЕРЕХВАТ dns домена'],
  ['Blob attached', `payload ${LONG} trailing words`],
  ['   spaced   summary   ', '\n\n'],
  ['Phishing e-mail delivered to j.doe', 'Phishing e-mail delivered to j.doe at 2026-11-25T10:00:00.000Z'],
  [`Long summary ${'Дл '.repeat(200)} needle at the end`, 'short'],
  ['Straße in Köln, ǅemal ΣΊΣΥΦΟΣ', 'naïve café 100% _under_score_ \\\\double'],
];

/** Affected hosts: matched whole, case aside, spaces, quotes and all. */
const HOSTS: string[][] = [
  ['DC01.corp.local', 'web-02'],
  ['Jump Host 7', 'dc01'],
  [`srv-${LONG}`],
  [],
  [1, 2, 3].map((n) => `Long-Host-${n}-${'h'.repeat(400)}`),
  ['a"b\\c', 'x,y{z}', 'NULL', ''],
  ['50%_host', 'ХОСТ-Ё'],
];

/** Characters that LIKE, array text or case folding treat specially, and some plain ones. */
const TRICKY = [
  '%',
  '_',
  '\\',
  '"',
  "'",
  ',',
  '{',
  '}',
  ' ',
  '\t',
  '\n',
  'a',
  'C',
  'ё',
  'Ё',
  'ß',
  'Σ',
  'ǅ',
  '0',
  '1',
  '-',
  '.',
];

const FILTERS: TextFilter[] = ['search', 'summary__icontains', 'host__icontains'];

/** The plainer texts of the other built incidents, in both languages. */
const SUMMARIES = [
  'Подозрительный вход в VPN',
  'Brute force on DC02',
  'Malware detected on WS-114',
  'Phishing e-mail to accounting',
  'Port scan from 10.0.0.7',
  'Утечка учётных данных',
  'LSASS memory access',
  'Suspicious PowerShell on srv-app-01',
  'DNS tunnelling pattern',
];

beforeAll(async () => {
  // the limit of the synchronous CSV lies between the two large selections of the capped totals
  ctx = await createTestContext({ incidents: 0, config: { csvSyncMaxRows: 10_040 } });
  const systems = [await buildSystem(ctx), await buildSystem(ctx), await buildSystem(ctx)];
  const customer = await buildCustomer(ctx, [systems[0]!.id, systems[2]!.id]);
  customerId = customer.id;
  tokens.customer = await customer.login();
  tokens.analyst = await (await buildAnalyst(ctx)).login();
  // 12 incidents per system over 90 days, in every priority and status
  for (const [s, system] of systems.entries()) {
    await buildIncidents(ctx, system.id, 12, (i) => {
      const n = s * 12 + i;
      return {
        summary: `${SUMMARIES[n % SUMMARIES.length]!} #${n}`,
        description: `Узел ws-${100 + n} сообщил: ${SUMMARIES[(n + 4) % SUMMARIES.length]!}.`,
        affectedSystems: [`ws-${100 + n}`, n % 3 ? 'DC02.corp.local' : 'srv-app-01'],
        priority: INCIDENT_PRIORITIES[n % 4],
        status: INCIDENT_STATUSES[n % INCIDENT_STATUSES.length],
        created: new Date(Date.now() - n * 2.5 * 86_400_000),
      };
    });
  }
  keys = (
    await queryRows<{ key: number }>(ctx.database.db, sql`SELECT key::int AS key FROM incidents ORDER BY key`)
  ).map((r) => r.key);
  // the texts and hosts below go to incidents of all three systems
  const target = (i: number) => keys[(i * 5) % keys.length]!;
  for (const [i, [summary, description]] of TEXTS.entries()) {
    await exec(
      sql`UPDATE incidents SET summary = ${summary}, description = ${description} WHERE key = ${target(i)}`,
    );
  }
  for (const [i, hosts] of HOSTS.entries()) {
    await exec(
      sql`UPDATE incidents SET affected_systems = ARRAY[${sql.join(
        hosts.map((h) => sql`${h}`),
        sql`, `,
      )}]::text[] WHERE key = ${target(i)}`,
    );
  }
});
afterAll(() => ctx.close());

describe('text filter totals below the cap', () => {
  it('equal an ILIKE count for any term, alone or beside another filter, in any scope', async () => {
    // pieces of the stored texts (so that terms match), in any case
    const corpus = (
      await queryRows<{ text: string }>(
        ctx.database.db,
        sql`SELECT summary || ' ' || description || ' ' || array_to_string(affected_systems, ' ') AS text
              FROM incidents`,
      )
    ).map((r) => r.text);
    const piece = fc
      .tuple(fc.constantFrom(...corpus), fc.nat(), fc.integer({ min: 1, max: 12 }), fc.boolean())
      .map(([text, at, length, upper]) => {
        const start = at % text.length;
        const slice = text.slice(start, start + length);
        return upper ? slice.toUpperCase() : slice;
      });
    const term = fc
      .oneof(
        piece,
        fc.string({ unit: fc.constantFrom(...TRICKY), minLength: 1, maxLength: 6 }),
        fc.tuple(piece, fc.constantFrom(...TRICKY), piece).map(([a, c, b]) => `${a}${c}${b}`),
        // the digits of an incident's key, whole or in part
        fc.constantFrom(...keys).chain((key) => fc.constantFrom(String(key), String(key).slice(1))),
      )
      // the API trims the term, and a summary or host filter needs something left
      .filter((t) => t.trim().length > 0);
    const since = Date.now() - 30 * 86_400_000;
    const beside: [Record<string, string>, SQL][] = [
      [{}, sql`TRUE`],
      [{ priority__in: 'high,critical' }, sql`i.priority IN ('high', 'critical')`],
      [{ status__in: 'closed' }, sql`i.status = 'closed'`],
      [{ created__gte: String(since) }, sql`i.created >= to_timestamp(${since / 1000})`],
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...FILTERS),
        term,
        fc.nat(beside.length - 1),
        fc.constantFrom<Caller>('analyst', 'customer'),
        async (name, raw, other, user) => {
          const [query, condition] = beside[other]!;
          const expected = await referenceKeys(name, raw.trim(), user, condition);
          const answer = await list(user, { limit: '5', [name]: raw, ...query });
          expect(answer.total).toBe(expected.length);
          expect(answer.total_exact).toBe(true);
          expect(answer.results.length).toBe(Math.min(5, expected.length));
          for (const { key } of answer.results) expect(expected).toContain(key);
        },
      ),
      {
        numRuns: 300,
        // the escapes and the key rule every time, whatever the random terms find
        examples: [
          ['search', '_', 0, 'analyst'],
          ['summary__icontains', '%', 0, 'customer'],
          ['search', 'back\\slash', 1, 'analyst'],
          ['host__icontains', 'a"b\\c', 0, 'analyst'],
          ['host__icontains', '50%_', 0, 'customer'],
          ['search', String(keys[10]), 0, 'analyst'],
          ['search', ' ПЕРЕХВАТ dns ', 3, 'customer'],
        ],
      },
    );
  });
});

describe(`text filter totals above ${TOTAL_COUNT_CAP.toLocaleString('en')} matches`, () => {
  const ADDED = 10_050;

  beforeAll(async () => {
    // Copies of one incident of the customer's systems, with the triggers as they are: 10,050 capybaras,
    // 10,030 of them at the riverbank (below the CSV limit, above the cap). In batches: each row
    // updates the same rows of the count tables, and a transaction that updates one row
    // thousands of times walks a longer chain of its versions each time.
    const BATCH = 250;
    for (let from = 1; from <= ADDED; from += BATCH) {
      await exec(sql`
        INSERT INTO incidents (system_id, issue_type_id, category_id, summary, description, priority, status,
                               affected_systems)
        SELECT i.system_id, i.issue_type_id, i.category_id, 'Capybara crossing',
               CASE WHEN g <= 10030 THEN 'Seen at the riverbank' ELSE 'Seen in the meadow' END, 'high', i.status,
               ARRAY['capybara-1']
          FROM (SELECT * FROM incidents
                 WHERE system_id IN (SELECT us.system_id FROM user_systems us WHERE us.user_id = ${customerId})
                 ORDER BY key LIMIT 1) i, generate_series(${from}::int, ${Math.min(from + BATCH - 1, ADDED)}::int) g`);
    }
  });

  it('answers 10,000 and "not exact" for a search and for text beside another filter', async () => {
    const queries: Record<string, string>[] = [
      { search: 'capybara' },
      { search: 'capybara', priority__in: 'high' },
      { host__icontains: 'capybara-', priority__in: 'high' },
      { search: 'riverbank', summary__icontains: 'crossing' },
    ];
    for (const user of ['analyst', 'customer'] as const) {
      for (const query of queries) {
        const answer = await list(user, { limit: '40', ...query });
        expect(answer, JSON.stringify({ user, query })).toMatchObject({
          total: TOTAL_COUNT_CAP,
          total_exact: false,
        });
        expect(answer.results).toHaveLength(40);
        expect(offsetOf(answer.next)).toBe('40');
      }
    }
  });

  it('counts a lone summary or host filter exactly from the count table, past the cap too', async () => {
    for (const user of ['analyst', 'customer'] as const) {
      const lone: Record<string, string>[] = [
        { summary__icontains: 'CAPYBARA' },
        { host__icontains: 'capybara-' },
      ];
      for (const query of lone) {
        const answer = await list(user, { limit: '40', ...query });
        expect(answer, JSON.stringify({ user, query })).toMatchObject({ total: ADDED, total_exact: true });
        expect(answer.results).toHaveLength(40);
      }
    }
  });

  it('pages on past the cap, and is exact again on the last page', async () => {
    const query = { search: 'capybara', limit: '40', ordering: 'created' };
    const atCap = await list('analyst', { ...query, offset: '9960' });
    expect(atCap).toMatchObject({ total: TOTAL_COUNT_CAP, total_exact: false });
    expect(atCap.results).toHaveLength(40);
    expect(offsetOf(atCap.next)).toBe('10000');
    const past = await list('analyst', { ...query, offset: '10000' });
    expect(past).toMatchObject({ total: TOTAL_COUNT_CAP, total_exact: false });
    expect(past.results).toHaveLength(40);
    expect(offsetOf(past.next)).toBe('10040');
    // the last page is not full: the total is known
    const last = await list('analyst', { ...query, offset: '10040' });
    expect(last).toMatchObject({ total: ADDED, total_exact: true, next: null });
    expect(last.results).toHaveLength(ADDED - 10_040);
    const seen = new Set([...atCap.results, ...past.results, ...last.results].map((r) => r.key));
    expect(seen.size).toBe(90);
  });

  it('stays exact where the count table answers or fewer incidents match', async () => {
    const [all] = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`SELECT count(*)::int AS n FROM incidents`,
    );
    expect(await list('analyst', {})).toMatchObject({ total: all!.n, total_exact: true });
    expect(all!.n).toBeGreaterThan(TOTAL_COUNT_CAP);
    const [high] = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`SELECT count(*)::int AS n FROM incidents WHERE priority = 'high'`,
    );
    expect(await list('analyst', { priority__in: 'high' })).toMatchObject({
      total: high!.n,
      total_exact: true,
    });
    expect(await list('customer', { search: 'meadow' })).toMatchObject({ total: 20, total_exact: true });
    expect(await list('customer', { search: 'meadow', priority__in: 'high' })).toMatchObject({
      total: 20,
      total_exact: true,
    });
  });

  it('exports every row of a capped selection, and refuses one above the CSV limit', async () => {
    const csv = (search: string) =>
      ctx.app.inject({
        url: `/api/v0/soc/incs/get_csv/?search=${search}`,
        headers: bearer(tokens.customer!),
      });
    const river = await csv('riverbank');
    expect(river.statusCode).toBe(200);
    const lines = river.body.split('\n').filter((line) => line.includes('Capybara crossing'));
    expect(lines).toHaveLength(10_030);
    // 10,050 capybaras: more than the limit, reported with the list's total
    const all = await csv('capybara');
    expect(all.statusCode).toBe(400);
    expect(all.json()).toMatchObject({
      code: 'max_records_exceeded',
      max_records: 10_040,
      total: TOTAL_COUNT_CAP,
    });
  });
});
