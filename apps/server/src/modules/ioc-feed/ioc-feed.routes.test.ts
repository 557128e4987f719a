import { Ajv } from 'ajv';
import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { validate as isUuid, version as uuidVersion } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiTokenCreated, IncidentStatus } from '@soc/contracts';
import { incidents } from '../../db/schema/index.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import type { BuiltSystem } from '../../test/builders.ts';
import {
  BUILT_PASSWORD,
  buildAnalyst,
  buildCustomer,
  buildIncident,
  buildSystem,
} from '../../test/builders.ts';

/**
 * The STIX 2.1 indicator (STIX 2.1 specification §4.7, with the common properties of §3.2 and the
 * timestamp and identifier rules of §2.9 and §2.10) and bundle (§8) as JSON Schema, written from
 * the specification's property tables: the properties an indicator requires, their types and
 * formats, and the rule that custom properties are lower-case names of 3 to 250 characters.
 */
const TIMESTAMP = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$';
const TIMESTAMP_MILLIS = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$';
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}';
const STIX_INDICATOR_SCHEMA = {
  type: 'object',
  required: ['type', 'spec_version', 'id', 'created', 'modified', 'pattern', 'pattern_type', 'valid_from'],
  properties: {
    type: { const: 'indicator' },
    spec_version: { const: '2.1' },
    id: { type: 'string', pattern: `^indicator--${UUID}$` },
    created_by_ref: { type: 'string', pattern: `^identity--${UUID}$` },
    created: { type: 'string', pattern: TIMESTAMP_MILLIS },
    modified: { type: 'string', pattern: TIMESTAMP_MILLIS },
    revoked: { type: 'boolean' },
    labels: { type: 'array', items: { type: 'string' }, minItems: 1 },
    confidence: { type: 'integer', minimum: 0, maximum: 100 },
    lang: { type: 'string' },
    name: { type: 'string' },
    description: { type: 'string' },
    indicator_types: {
      type: 'array',
      minItems: 1,
      items: {
        enum: [
          'anomalous-activity',
          'anonymization',
          'benign',
          'compromised',
          'malicious-activity',
          'attribution',
          'unknown',
        ],
      },
    },
    pattern: { type: 'string', minLength: 1 },
    pattern_type: { type: 'string', enum: ['stix', 'pcre', 'sigma', 'snort', 'suricata', 'yara'] },
    pattern_version: { type: 'string' },
    valid_from: { type: 'string', pattern: TIMESTAMP },
    valid_until: { type: 'string', pattern: TIMESTAMP },
    kill_chain_phases: { type: 'array', minItems: 1 },
    external_references: { type: 'array', minItems: 1 },
    object_marking_refs: { type: 'array', minItems: 1 },
    granular_markings: { type: 'array', minItems: 1 },
    extensions: { type: 'object' },
  },
  patternProperties: { '^[a-z0-9_]{3,250}$': {} },
  additionalProperties: false,
} as const;
const STIX_BUNDLE_SCHEMA = {
  type: 'object',
  required: ['type', 'id', 'objects'],
  properties: {
    type: { const: 'bundle' },
    id: { type: 'string', pattern: `^bundle--${UUID}$` },
    objects: { type: 'array', items: STIX_INDICATOR_SCHEMA },
  },
  additionalProperties: false,
} as const;
const validateBundle = new Ajv({ allErrors: true, strict: true }).compile(STIX_BUNDLE_SCHEMA);

interface Indicator {
  id: string;
  pattern: string;
  labels: string[];
  name: string;
  created: string;
  modified: string;
  valid_from: string;
  x_soc_system_id: number;
  x_soc_incident_count: number;
}
interface Bundle {
  type: 'bundle';
  id: string;
  objects: Indicator[];
}

let ctx: TestContext;
const sys: Record<'a' | 'b' | 'c', BuiltSystem> = {} as Record<'a' | 'b' | 'c', BuiltSystem>;
/** Personal API tokens (`socp_…`) and portal sessions. */
const tokens: Record<string, string> = {};
const keys: Record<string, number> = {};

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 9, 1);

const feed = (token: string, query = '', headers: Record<string, string> = {}) =>
  ctx.app.inject({
    method: 'GET',
    url: `/api/v0/soc/iocs/feed/${query}`,
    headers: { ...bearer(token), ...headers },
  });

const ioc = (value: string, type: string, category: string[] = []) => ({
  ioc: value,
  ioc_type: type,
  category,
});

async function personalToken(session: string): Promise<string> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v0/auth/tokens/',
    headers: bearer(session),
    payload: { name: 'firewall', password: BUILT_PASSWORD },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<ApiTokenCreated>().token;
}

async function incident(
  name: string,
  system: BuiltSystem,
  iocs: ReturnType<typeof ioc>[],
  status: IncidentStatus = 'work_in_progress',
  createdDaysAfterT0 = 0,
) {
  const built = await buildIncident(ctx, system.id, {
    status,
    observedIocs: iocs,
    created: new Date(T0 + createdDaysAfterT0 * DAY),
  });
  keys[name] = built.key;
  return built;
}

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  for (const k of ['a', 'b', 'c'] as const) sys[k] = await buildSystem(ctx);
  const customer = await buildCustomer(ctx, [sys.a.id, sys.c.id]);
  const stranger = await buildCustomer(ctx, [sys.b.id]);
  const analyst = await buildAnalyst(ctx);
  tokens.customerSession = await customer.login();
  tokens.customer = await personalToken(tokens.customerSession);
  tokens.stranger = await personalToken(await stranger.login());
  tokens.analyst = await analyst.login();

  await incident('phish', sys.a, [
    ioc('203.0.113.7', 'ipv4', ['C2']),
    ioc('evil.example', 'fqdn', ['phishing']),
    ioc('http://evil.example/login?a=1', 'url'),
    ioc('44d88612fea8a8f36de82e1299a0e3a1', 'file'),
    ioc("it's\\odd.exe", 'file'),
    ioc('=HYPERLINK("x")', 'custom'),
  ]);
  await incident(
    'c2',
    sys.a,
    [ioc('203.0.113.7', 'ipv4', ['beacon']), ioc('2001:db8::1', 'ipv6')],
    'closed',
    3,
  );
  await incident(
    'other',
    sys.c,
    [ioc('203.0.113.7', 'ipv4'), ioc('198.51.100.9', 'ipv4')],
    'waiting_for_customer',
    5,
  );
  await incident('foreign', sys.b, [ioc('192.0.2.66', 'ipv4'), ioc('foreign.example', 'fqdn')]);
  await incident('quiet', sys.a, []);
});
afterAll(() => ctx?.close());

describe('IOC feed', () => {
  it('answers a STIX 2.1 bundle of the caller’s systems’ IOCs to a personal API token', async () => {
    const res = await feed(tokens.customer!);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/stix\+json; ?version="?2\.1"?/);
    const bundle = res.json<Bundle>();
    expect(validateBundle(bundle), JSON.stringify(validateBundle.errors)).toBe(true);
    const patterns = bundle.objects.map((o) => o.pattern);
    expect(patterns).toEqual(
      expect.arrayContaining([
        "[ipv4-addr:value = '203.0.113.7']",
        "[ipv6-addr:value = '2001:db8::1']",
        "[domain-name:value = 'evil.example']",
        "[url:value = 'http://evil.example/login?a=1']",
        "[file:hashes.MD5 = '44d88612fea8a8f36de82e1299a0e3a1']",
        "[file:name = 'it\\'s\\\\odd.exe']",
        "[ipv4-addr:value = '198.51.100.9']",
      ]),
    );
    // nothing of the stranger's system
    expect(JSON.stringify(bundle)).not.toContain('192.0.2.66');
    expect(JSON.stringify(bundle)).not.toContain('foreign.example');
    // one indicator per system and value: 203.0.113.7 of system A (two incidents) and of C
    const shared = bundle.objects.filter((o) => o.pattern === "[ipv4-addr:value = '203.0.113.7']");
    expect(shared.map((o) => o.x_soc_system_id).sort()).toEqual([sys.a.id, sys.c.id].sort());
    const inA = shared.find((o) => o.x_soc_system_id === sys.a.id)!;
    expect(inA.x_soc_incident_count).toBe(2);
    expect(inA.labels).toEqual(['ipv4', 'C2', 'beacon']);
    expect(inA.valid_from).toBe(new Date(T0).toISOString());
    expect(inA.modified).toBe(new Date(T0 + 3 * DAY).toISOString());
    for (const o of bundle.objects) {
      const uuid = o.id.slice('indicator--'.length);
      expect(isUuid(uuid) && uuidVersion(uuid)).toBe(5);
    }
  });

  it('gives every indicator and the bundle the same ids on every poll', async () => {
    const first = (await feed(tokens.customer!)).json<Bundle>();
    const second = (await feed(tokens.customer!)).json<Bundle>();
    expect(second).toEqual(first);
    // the session of the same user reads the same feed, with the same ids
    const bySession = (await feed(tokens.customerSession!)).json<Bundle>();
    expect(bySession.objects.map((o) => o.id)).toEqual(first.objects.map((o) => o.id));
  });

  it('filters by IOC type, system, incident status and creation time', async () => {
    const patterns = async (query: string) =>
      (await feed(tokens.customer!, query))
        .json<Bundle>()
        .objects.map((o) => `${o.x_soc_system_id}:${o.pattern}`);
    expect(await patterns('?ioc_type__in=ipv6,fqdn')).toEqual([
      `${sys.a.id}:[domain-name:value = 'evil.example']`,
      `${sys.a.id}:[ipv6-addr:value = '2001:db8::1']`,
    ]);
    expect(await patterns(`?system__in=${sys.c.id}`)).toEqual([
      `${sys.c.id}:[ipv4-addr:value = '198.51.100.9']`,
      `${sys.c.id}:[ipv4-addr:value = '203.0.113.7']`,
    ]);
    // another tenant's system is no part of the caller's feed
    expect(await patterns(`?system__in=${sys.b.id}`)).toEqual([]);
    expect(await patterns('?status__in=closed')).toEqual([
      `${sys.a.id}:[ipv4-addr:value = '203.0.113.7']`,
      `${sys.a.id}:[ipv6-addr:value = '2001:db8::1']`,
    ]);
    const since = new Date(T0 + 4 * DAY).toISOString();
    expect(await patterns(`?since=${encodeURIComponent(since)}`)).toEqual(
      await patterns(`?system__in=${sys.c.id}`),
    );
    expect(await patterns(`?since=${T0 + 2 * DAY}&ioc_type__in=ipv6`)).toEqual([
      `${sys.a.id}:[ipv6-addr:value = '2001:db8::1']`,
    ]);
  });

  it('answers CSV with a header, one row per indicator and formulas neutralised', async () => {
    const res = await feed(tokens.customer!, `?format=csv&system__in=${sys.a.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const [header, ...rows]: string[][] = parse(res.body);
    expect(header).toEqual([
      'value',
      'type',
      'system_id',
      'first_seen',
      'last_seen',
      'incidents',
      'categories',
      'stix_id',
    ]);
    const at = (t0: number, days = 0) => new Date(t0 + days * DAY).toISOString();
    expect(rows.find((r) => r[1] === 'custom')!.slice(0, 7)).toEqual([
      `'=HYPERLINK("x")`,
      'custom',
      String(sys.a.id),
      at(T0),
      at(T0),
      '1',
      '',
    ]);
    const row = rows.find((r) => r[0] === '203.0.113.7')!;
    expect(row.slice(1, 7)).toEqual(['ipv4', String(sys.a.id), at(T0), at(T0, 3), '2', 'C2;beacon']);
    expect(rows).toHaveLength(7);
    const stix = (await feed(tokens.customer!, `?system__in=${sys.a.id}`)).json<Bundle>();
    expect(stix.objects.map((o) => o.id)).toContain(row[7]);
  });

  it('answers plain text: one value per line, distinct over the caller’s systems', async () => {
    const res = await feed(tokens.customer!, '?format=txt&ioc_type__in=ipv4');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toBe('198.51.100.9\n203.0.113.7\n');
    // by type, then value
    expect((await feed(tokens.stranger!, '?format=txt')).body).toBe('foreign.example\n192.0.2.66\n');
  });

  it('pages in a stable order through the Link header, each indicator once', async () => {
    const whole = (await feed(tokens.customer!)).json<Bundle>().objects.map((o) => o.id);
    expect(whole.length).toBe(9);
    const seen: string[] = [];
    let url: string | null = '/api/v0/soc/iocs/feed/?limit=2';
    let pages = 0;
    while (url) {
      const res = await ctx.app.inject({ method: 'GET', url, headers: bearer(tokens.customer!) });
      expect(res.statusCode, res.body).toBe(200);
      seen.push(...res.json<Bundle>().objects.map((o) => o.id));
      const link = res.headers.link as string | undefined;
      url = link ? /^<([^>]+)>; rel="next"$/.exec(link)![1]! : null;
      pages += 1;
    }
    expect(pages).toBe(5);
    expect(seen).toEqual(whole);
    // plain text pages too, by value
    const text = await feed(tokens.customer!, '?format=txt&limit=3');
    const next = /^<([^>]+)>/.exec(text.headers.link as string)![1]!;
    const rest = await ctx.app.inject({ method: 'GET', url: next, headers: bearer(tokens.customer!) });
    expect(text.body.split('\n').length - 1).toBe(3);
    const all = (await feed(tokens.customer!, '?format=txt')).body;
    expect(rest.body.startsWith(all.split('\n').slice(3, 4)[0]!)).toBe(true);
    // the CSV header is on the first page only
    const csvNext = /^<([^>]+)>/.exec(
      (await feed(tokens.customer!, '?format=csv&limit=2')).headers.link as string,
    )![1]!;
    const csvPage2 = await ctx.app.inject({ method: 'GET', url: csvNext, headers: bearer(tokens.customer!) });
    expect(csvPage2.body.startsWith('value,')).toBe(false);
  });

  it('answers 304 to a poll whose copy is current, and 200 once the IOCs change', async () => {
    const first = await feed(tokens.customer!, '?format=txt');
    const etag = first.headers.etag as string;
    const lastModified = first.headers['last-modified'] as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(lastModified).toBeTruthy();
    // no cache keeps a signed-in answer (issue 37 item 10); the ETag still makes polls cheap
    expect(first.headers['cache-control']).toBe('no-store');

    const unchanged = await feed(tokens.customer!, '?format=txt', { 'if-none-match': etag });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.body).toBe('');
    expect(unchanged.headers.etag).toBe(etag);
    expect(unchanged.headers['cache-control']).toBe('no-store');
    // no Content-Length: a client would wait for bytes that a 304 never carries
    expect(unchanged.headers['content-length']).toBeUndefined();
    // fetch() sends Cache-Control: no-cache with every conditional request; the answer is still 304
    const byFetch = await feed(tokens.customer!, '?format=txt', {
      'if-none-match': etag,
      'cache-control': 'no-cache',
    });
    expect(byFetch.statusCode).toBe(304);
    expect(
      (await feed(tokens.customer!, '?format=txt', { 'if-modified-since': lastModified })).statusCode,
    ).toBe(304);
    const before = new Date(Date.parse(lastModified) - 1000).toUTCString();
    expect((await feed(tokens.customer!, '?format=txt', { 'if-modified-since': before })).statusCode).toBe(
      200,
    );
    // another format or filter is another answer
    expect((await feed(tokens.customer!, '?format=csv', { 'if-none-match': etag })).statusCode).toBe(200);

    // a change in the stranger's system leaves the customer's feed as it was
    await ctx.database.db
      .update(incidents)
      .set({ observedIocs: [ioc('192.0.2.67', 'ipv4')] })
      .where(eq(incidents.key, keys.foreign!));
    expect((await feed(tokens.customer!, '?format=txt', { 'if-none-match': etag })).statusCode).toBe(304);
    // a comment or an assignment (no IOC, status or creation change) does not either
    await ctx.database.db
      .update(incidents)
      .set({ updated: new Date() })
      .where(eq(incidents.key, keys.phish!));
    expect((await feed(tokens.customer!, '?format=txt', { 'if-none-match': etag })).statusCode).toBe(304);

    // an analyst adds an IOC through the API: the feed changes
    const put = await ctx.app.inject({
      method: 'PUT',
      url: `/api/v0/soc/incs/${keys.quiet}/iocs/`,
      headers: bearer(tokens.analyst!),
      payload: { iocs: [{ ioc: '198.51.100.200', ioc_type: 'ipv4', category: [] }] },
    });
    expect(put.statusCode, put.body).toBe(200);
    const changed = await feed(tokens.customer!, '?format=txt', { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.body).toContain('198.51.100.200\n');
    expect(changed.headers.etag).not.toBe(etag);

    // a status change matters to status filters, so it moves the version too
    const closedOnly = await feed(tokens.customer!, '?format=txt&status__in=closed');
    await ctx.database.db.update(incidents).set({ status: 'closed' }).where(eq(incidents.key, keys.other!));
    const after = await feed(tokens.customer!, '?format=txt&status__in=closed', {
      'if-none-match': closedOnly.headers.etag as string,
    });
    expect(after.statusCode).toBe(200);
    expect(after.body).toContain('198.51.100.9\n');

    // so does the deletion of an incident that listed IOCs
    const now = await feed(tokens.customer!, '?format=txt');
    await ctx.database.db.delete(incidents).where(eq(incidents.key, keys.other!));
    const gone = await feed(tokens.customer!, '?format=txt', { 'if-none-match': now.headers.etag as string });
    expect(gone.statusCode).toBe(200);
    expect(gone.body).not.toContain('198.51.100.9');
  });

  it('lets analysts read every system', async () => {
    const body = (await feed(tokens.analyst!, '?format=txt&ioc_type__in=ipv4')).body;
    expect(body).toContain('192.0.2.67\n');
    expect(body).toContain('203.0.113.7\n');
  });

  it('is in the OpenAPI document with its operation id, tag and parameters', async () => {
    const doc = (await ctx.app.inject('/api/v0/docs/json')).json<{
      paths: Record<
        string,
        { get?: { operationId: string; tags: string[]; parameters: { name: string }[] } }
      >;
    }>();
    const op = doc.paths['/api/v0/soc/iocs/feed/']?.get;
    expect(op?.operationId).toBe('getIocFeed');
    expect(op?.tags).toEqual(['iocs']);
    expect(op?.parameters.map((p) => p.name)).toEqual(
      expect.arrayContaining([
        'format',
        'ioc_type__in',
        'system__in',
        'status__in',
        'since',
        'limit',
        'cursor',
      ]),
    );
  });

  it('refuses unknown parameters, bad cursors and callers without credentials', async () => {
    const unknown = await feed(tokens.customer!, '?ioc=1.2.3.4');
    expect(unknown.statusCode).toBe(400);
    const badType = await feed(tokens.customer!, '?ioc_type__in=ipv5');
    expect(badType.statusCode).toBe(400);
    expect(badType.json()).toHaveProperty('ioc_type__in');
    const cursor = await feed(tokens.customer!, '?cursor=bm90LWpzb24', { 'accept-language': 'ru' });
    expect(cursor.statusCode).toBe(400);
    expect(cursor.json()).toEqual({ cursor: ['Неверный курсор: используйте ссылку с предыдущей страницы.'] });
    expect((await feed(tokens.customer!, '?cursor=bm90LWpzb24&language=en')).json()).toEqual({
      cursor: ['Invalid cursor: use the link of the previous page.'],
    });
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/api/v0/soc/iocs/feed/' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('quotes a CSV cell holding a separator of any locale and neutralises a formula after it', async () => {
    const split = await buildSystem(ctx);
    await incident('split', split, [ioc('atk2;=1+1;', 'custom', ['x', '-y'])]);
    const res = await feed(tokens.analyst!, `?format=csv&system__in=${split.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const line = res.body.split('\n')[1]!;
    expect(line.startsWith(`"atk2;'=1+1;",custom,`)).toBe(true);
    expect(line).toContain(`,"'-y;x",`);
    // a reader splitting on `;` (ru-RU Excel) sees no formula in any part
    for (const part of line.split(';')) expect(part).not.toMatch(/^[=+\-@]/);
  });
});
