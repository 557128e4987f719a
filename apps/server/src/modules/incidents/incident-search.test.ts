import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { likePattern } from '../../lib/pagination.ts';
import type { TestContext } from '../../test/harness.ts';
import { createTestContext } from '../../test/harness.ts';
import type { IncidentsRepository, SystemScope } from './incidents.repository.ts';
import { createIncidentsRepository } from './incidents.repository.ts';
import { textOnly } from './incident-search.ts';

let ctx: TestContext;
let repo: IncidentsRepository;
let systems: number[];
let keys: number[];

const exec = (query: SQL) => ctx.database.db.execute(query);

type TextFilter = 'search' | 'summary__icontains' | 'host__icontains';

/** The total as each filter defines it, checked row by row (written here, apart from the code). */
async function reference(term: string, scope: SystemScope, name: TextFilter = 'search'): Promise<number> {
  const pattern = likePattern(term);
  const match = {
    search: sql`(i.key = ${/^\d{1,15}$/.test(term) ? Number(term) : -1}
                 OR (i.summary || ' ' || i.description) ILIKE ${pattern})`,
    summary__icontains: sql`i.summary ILIKE ${pattern}`,
    host__icontains: sql`EXISTS (SELECT 1 FROM unnest(i.affected_systems) h WHERE h ILIKE ${pattern})`,
  }[name];
  const inScope = scope
    ? scope.length
      ? sql`i.system_id IN (${sql.join(scope, sql`, `)})`
      : sql`FALSE`
    : sql`TRUE`;
  const [row] = await queryRows<{ n: number }>(
    ctx.database.db,
    sql`SELECT count(*)::int AS n FROM incidents i WHERE ${inScope} AND ${match}`,
  );
  return row!.n;
}

const LONG = `${'Zq'.repeat(150)}needle${'Wx'.repeat(60)}`;

/** Texts that put the search's word boundaries to the test, written over existing incidents. */
const TEXTS: [string, string][] = [
  ['Crypto mining on DC01', '## What happened\n\nCrypto  mining on `dc01`.\n\n- Host: dc01.corp.local'],
  ['crypto\tmining report', 'Crypto\nmining, then crypto mining again; 50% done_ok back\\slash'],
  ['Перехват DNS домена corp-mail.online', 'Узел: `DC01`\n\nПЕРЕХВАТ dns домена'],
  ['Blob attached', `payload ${LONG} trailing words`],
  ['   spaced   summary   ', '\n\n'],
  ['Phishing e-mail delivered to j.doe', 'Phishing e-mail delivered to j.doe at 2026-11-25T10:00:00.000Z'],
  // over 1,000 bytes: no key of the count table
  [`Long summary ${'Дл '.repeat(200)} needle at the end`, 'short'],
];

const TERMS = [
  'dc01',
  'DC01',
  '`dc01`',
  'dc01.corp',
  'crypto mining',
  'Crypto  mining',
  'crypto\nmining',
  'mining on',
  'ing on d',
  'crypto mining on',
  'перехват',
  'ПЕРЕХВАТ DNS',
  'dns домена',
  'needle',
  'Zq'.repeat(120),
  'ZqWx',
  '50%',
  'done_ok',
  'back\\slash',
  '%',
  '_',
  'spaced summary',
  'spaced   summary',
  'e-mail delivered',
  '2026-11-25T10',
  'e',
  'a b c d',
  'no such words at all',
  'zzzzzz',
  'long summary',
  'дл дл',
];

/** Affected hosts: matched whole, case aside, spaces and all. */
const HOSTS: string[][] = [
  ['DC01.corp.local', 'web-02'],
  ['Jump Host 7', 'dc01'],
  [`srv-${LONG}`],
  [],
  // over 1,000 bytes as array text: no key of the count table
  [1, 2, 3].map((n) => `Long-Host-${n}-${'h'.repeat(400)}`),
  // quoted and escaped in array text
  ['a"b\\c', 'x,y{z}', 'NULL', ''],
];

const HOST_TERMS = [
  'dc01',
  'DC01.CORP',
  'jump host',
  'host 7',
  'p h',
  'needle',
  'web-0',
  '-',
  'nothing-like-it',
  'long-host-2',
  'h-3-hh',
  'a"b',
  'b\\c',
  '"',
  'x,y',
  '{z}',
  'null',
  ',',
];

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 120 });
  repo = createIncidentsRepository(ctx.database.db);
  systems = (await queryRows<{ id: number }>(ctx.database.db, sql`SELECT id FROM systems ORDER BY id`)).map(
    (r) => r.id,
  );
  keys = (
    await queryRows<{ key: number }>(ctx.database.db, sql`SELECT key FROM incidents ORDER BY key LIMIT 12`)
  ).map((r) => r.key);
  for (const [i, [summary, description]] of TEXTS.entries()) {
    await exec(
      sql`UPDATE incidents SET summary = ${summary}, description = ${description} WHERE key = ${keys[i]!}`,
    );
  }
  for (const [i, hosts] of HOSTS.entries()) {
    await exec(
      sql`UPDATE incidents SET affected_systems = ARRAY[${sql.join(
        hosts.map((h) => sql`${h}`),
        sql`, `,
      )}]::text[] WHERE key = ${keys[i]!}`,
    );
  }
});
afterAll(() => ctx.close());

async function expectExact(terms: string[], scopes: SystemScope[], name: TextFilter = 'search') {
  for (const scope of scopes) {
    for (const term of terms) {
      const label = JSON.stringify({ name, term, scope });
      expect(await repo.count({ [name]: term }, scope), label).toBe(await reference(term, scope, name));
    }
  }
}

describe('incident text filter totals from the index of words and the count table', () => {
  it('applies to a lone search (beside the systems filter) only', () => {
    expect(textOnly({ search: 'x' })).toEqual({ name: 'search', term: 'x' });
    expect(textOnly({ host__icontains: 'x', system__in: [1] })).toEqual({
      name: 'host__icontains',
      term: 'x',
    });
    expect(textOnly({ summary__icontains: 'x' })).toEqual({ name: 'summary__icontains', term: 'x' });
    expect(textOnly({ search: 'x', status__in: ['closed'] })).toBeUndefined();
    expect(textOnly({ search: 'x', host__icontains: 'y' })).toBeUndefined();
    expect(textOnly({})).toBeUndefined();
  });

  it('counts exactly what ILIKE finds, whatever the case, whitespace, markup, length or escapes', async () => {
    await expectExact(TERMS, [null, [systems[0]!], [systems[0]!, systems[2]!], []]);
  });

  it('counts summaries and hosts exactly too', async () => {
    const scopes = [null, [systems[0]!], [systems[1]!, systems[2]!]];
    await expectExact(TERMS, scopes, 'summary__icontains');
    await expectExact(HOST_TERMS, scopes, 'host__icontains');
  });

  it('counts an incident whose key is the term once, in the caller’s systems only', async () => {
    const [row] = await queryRows<{ key: number; system_id: number }>(
      ctx.database.db,
      sql`SELECT key, system_id FROM incidents WHERE key = ${keys[8]!}`,
    );
    const other = systems.find((id) => id !== row!.system_id)!;
    await expectExact([String(row!.key)], [null, [row!.system_id], [other]]);
    expect(await repo.count({ search: String(row!.key) }, [row!.system_id])).toBeGreaterThanOrEqual(1);
  });

  it('has summaries and host lists too long for the count table’s key', async () => {
    const rows = await queryRows<{ dim: string; n: number }>(
      ctx.database.db,
      sql`SELECT dim, sum(n)::int AS n FROM incident_counts WHERE dim IN ('summary_long', 'hosts_long') GROUP BY dim ORDER BY dim`,
    );
    expect(rows).toEqual([
      { dim: 'hosts_long', n: 1 },
      { dim: 'summary_long', n: 1 },
    ]);
  });

  it('reads summaries and hosts from the count table (no row-by-row count)', async () => {
    const filters = [{ summary__icontains: 'dc01' }, { host__icontains: 'dc01' }];
    const before = await Promise.all(filters.map((f) => repo.count(f, null)));
    expect(Math.min(...before)).toBeGreaterThan(0);
    await exec(sql`UPDATE incident_counts SET n = n + 1000
                    WHERE dim IN ('summary', 'hosts') AND lower(value) LIKE '%dc01%'`);
    try {
      const counted = await Promise.all(filters.map((f) => repo.count(f, null)));
      expect(counted[0]! - before[0]!).toBeGreaterThanOrEqual(1000);
      expect(counted[1]! - before[1]!).toBeGreaterThanOrEqual(1000);
    } finally {
      await exec(sql`UPDATE incident_counts SET n = n - 1000
                      WHERE dim IN ('summary', 'hosts') AND lower(value) LIKE '%dc01%'`);
    }
    expect(await Promise.all(filters.map((f) => repo.count(f, null)))).toEqual(before);
  });

  it('reads the vocabulary: a word taken out of it is no longer found (no row-by-row count)', async () => {
    const filters = [{ search: 'dc01' }];
    const before = await Promise.all(filters.map((f) => repo.count(f, null)));
    expect(Math.min(...before)).toBeGreaterThan(0);
    await exec(sql`CREATE TABLE saved_terms AS SELECT * FROM incident_search_terms WHERE term LIKE '%dc01%'`);
    try {
      await exec(sql`DELETE FROM incident_search_terms WHERE term LIKE '%dc01%'`);
      for (const f of filters) expect(await repo.count(f, null), JSON.stringify(f)).toBe(0);
      // three words are counted over the rows, vocabulary or not
      expect(await repo.count({ search: 'crypto mining on' }, null)).toBe(
        await reference('crypto mining on', null),
      );
    } finally {
      await exec(sql`INSERT INTO incident_search_terms SELECT * FROM saved_terms ON CONFLICT DO NOTHING`);
      await exec(sql`DROP TABLE saved_terms`);
    }
    expect(await Promise.all(filters.map((f) => repo.count(f, null)))).toEqual(before);
  });

  it('follows edits, moves between systems, new incidents and deletions', async () => {
    const [a, b] = [keys[9]!, keys[10]!];
    await exec(sql`UPDATE incidents SET description = 'Quokka sighted near the gateway' WHERE key = ${a}`);
    await expectExact(['quokka', 'quokka sighted', 'sighted near'], [null, [systems[0]!], [systems[1]!]]);
    expect(await repo.count({ search: 'quokka' }, null)).toBe(1);
    await exec(sql`UPDATE incidents SET description = 'Nothing to see' WHERE key = ${a}`);
    expect(await repo.count({ search: 'quokka' }, null)).toBe(0);
    await exec(sql`UPDATE incidents SET affected_systems = ARRAY['Echidna-Gateway'] WHERE key = ${a}`);
    expect(await repo.count({ host__icontains: 'echidna-g' }, null)).toBe(1);
    await exec(sql`UPDATE incidents SET affected_systems = '{}' WHERE key = ${a}`);
    expect(await repo.count({ host__icontains: 'echidna-g' }, null)).toBe(0);
    // a summary and a host list grown past the count table's key, then cut back
    const long = `Numbat ${'x'.repeat(1200)}`;
    await exec(
      sql`UPDATE incidents SET summary = ${long}, affected_systems = ARRAY[${long}] WHERE key = ${a}`,
    );
    expect(await repo.count({ summary__icontains: 'numbat' }, null)).toBe(1);
    expect(await repo.count({ host__icontains: 'numbat' }, null)).toBe(1);
    await exec(
      sql`UPDATE incidents SET summary = 'Numbat', affected_systems = ARRAY['numbat-1'] WHERE key = ${a}`,
    );
    await expectExact(['numbat'], [null, [systems[0]!], [systems[1]!]], 'summary__icontains');
    await expectExact(['numbat'], [null, [systems[0]!], [systems[1]!]], 'host__icontains');
    // several rows in one statement, one of them moved to another system
    await exec(sql`UPDATE incidents SET summary = 'Wombat burrow ' || key,
                     system_id = CASE WHEN key = ${b} THEN ${systems[1]!} ELSE system_id END
                    WHERE key IN (${a}, ${b})`);
    await expectExact(
      ['wombat', 'wombat burrow', `burrow ${b}`],
      [null, [systems[0]!], [systems[1]!], [systems[2]!]],
    );
    // a new incident, copied from an existing one with a new key and text
    const [{ max }] = (await queryRows<{ max: number }>(
      ctx.database.db,
      sql`SELECT max(key)::int AS max FROM incidents`,
    )) as [{ max: number }];
    await exec(sql`
      INSERT INTO incidents (key, system_id, issue_type_id, summary, description, priority, status)
      SELECT ${max + 1}, system_id, issue_type_id, 'Platypus alarm', 'Platypus  alarm raised', priority, status
        FROM incidents WHERE key = ${a}`);
    await expectExact(
      ['platypus', 'platypus alarm', 'platypus  alarm', 'alarm raised'],
      [null, [systems[0]!], [systems[1]!]],
    );
    expect(await repo.count({ search: 'platypus' }, null)).toBe(1);
    await exec(sql`DELETE FROM incidents WHERE key = ${max + 1}`);
    expect(await repo.count({ search: 'platypus' }, null)).toBe(0);
  });

  it('gives the list the same total and the page its matches', async () => {
    for (const term of ['dc01', 'crypto mining', 'needle']) {
      const total = await reference(term, null);
      const page = await repo.pageAndTotal({ search: term }, null, '-created', 40, 0, 'en');
      expect(page.total, term).toBe(total);
      expect(page.rows.length, term).toBe(Math.min(40, total));
    }
  });
});
