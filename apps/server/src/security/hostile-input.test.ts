import { readdirSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client.ts';
import type { TestContext } from '../test/harness.ts';
import { bearer, createTestContext } from '../test/harness.ts';
import {
  buildAlert,
  buildAsset,
  buildComment,
  buildCustomer,
  buildIncident,
  buildSystem,
} from '../test/builders.ts';
import type { Answer, ApiOperation } from './openapi-operations.ts';
import { injectAnswer, loadOperations, multipart, sampleOf } from './openapi-operations.ts';

/*
 * Hostile input (issue 15): property-based requests over the query and body schemas from the
 * OpenAPI document, SQL-injection strings in every list filter, path traversal in file paths,
 * malformed multipart. Every answer is a clear 4xx or a success, never a 5xx, never another
 * tenant's data, and a refused write leaves nothing behind.
 */

let ctx: TestContext;
let ops: ApiOperation[];
const tokens: Record<string, string> = {};
let ownKey: number;
let ownAttachment: string;

/** Names in another tenant's (B's) data, built in beforeAll: they must never reach the customer. */
const B_MARKERS: string[] = [];

const SQL_INJECTIONS = [
  "' OR '1'='1",
  "1' OR 1=1 --",
  '1; DROP TABLE incidents; --',
  "') UNION SELECT id::text, summary FROM incidents --",
  '1 OR system_id <> 0',
  "%' AND pg_sleep(0) IS NOT NULL AND '%'='",
  '\\x00\\',
  "IS-T0002'--",
];

function send(
  user: string,
  method: ApiOperation['method'],
  url: string,
  payload?: object | Buffer,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return injectAnswer(ctx.app, {
    method,
    url,
    headers: { ...bearer(tokens[user]!), ...headers },
    ...(payload === undefined ? {} : { payload }),
  });
}

const countRows = async () =>
  (
    await queryRows<{ n: string }>(
      ctx.database.db,
      sql`SELECT (SELECT count(*) FROM comments) || '/' || (SELECT count(*) FROM attachments) || '/' ||
                 (SELECT count(*) FROM report_schedules) || '/' || (SELECT count(*) FROM reports) || '/' ||
                 (SELECT count(*) FROM incidents) || '/' || (SELECT count(*) FROM document_comments) AS n`,
    )
  )[0]!.n;

const tmpFiles = () => {
  try {
    return readdirSync(path.join(ctx.config.filesDir, 'tmp'));
  } catch {
    return [];
  }
};

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  const own = await buildSystem(ctx);
  tokens.customer = await (await buildCustomer(ctx, [own.id])).login();
  ops = await loadOperations(ctx.app);
  ownKey = (await buildIncident(ctx, own.id)).key;
  // B: a system of another tenant with an incident, a comment, an alert and an asset of its own
  const other = await buildSystem(ctx, { fullName: 'Tenant B Grid' });
  const theirs = await buildIncident(ctx, other.id, { summary: 'Tenant B incident summary' });
  await buildComment(ctx, theirs.id, { body: '<p>Tenant B comment body</p>' });
  await buildAlert(ctx, other.id, { incidentId: theirs.id, title: 'Tenant B alert title' });
  const asset = await buildAsset(ctx, other.id, { name: 'tenant-b-host', assetType: 'workstation' });
  B_MARKERS.push(other.isId, 'Tenant B', asset.cmdbId, 'tenant-b-host');
  const { payload, headers } = multipart({}, [
    { field: 'attachments', name: 'a.txt', type: 'text/plain', body: Buffer.from('own file') },
  ]);
  const res = await send('customer', 'POST', `/api/v0/soc/incs/${ownKey}/add_file/`, payload, headers);
  ownAttachment = res.json<{ attachments: { id: string }[] }>().attachments[0]!.id;
}, 120_000);
afterAll(() => ctx?.close());

/** List routes: GET without path parameters, with query parameters, outside auth. */
const listOperations = () =>
  ops.filter(
    (op) =>
      op.method === 'GET' &&
      op.pathParams.length === 0 &&
      op.query.length > 0 &&
      !op.path.startsWith('/api/v0/auth/') &&
      // queues an e-mail job per call; its filters are those of get_csv
      !op.path.endsWith('/get_async_csv/'),
  );

const problem = (res: Answer, where: string): string | null => {
  if (res.statusCode >= 500) return `${where}: ${res.statusCode} ${res.body.slice(0, 200)}`;
  const leaked = B_MARKERS.filter((m) => res.body.includes(m));
  if (leaked.length) return `${where}: shows another tenant's data (${leaked.join(', ')})`;
  // a 5xx never leaks SQL or a stack; neither does a 4xx
  if (/\bat .+\.ts:\d+|syntax error at or near|DrizzleQueryError/.test(res.body)) {
    return `${where}: error body leaks internals: ${res.body.slice(0, 200)}`;
  }
  return null;
};

describe('SQL injection in every list filter', () => {
  it('answers each filter of each list with a 4xx or the caller’s own data, never a 5xx', async () => {
    const failures: string[] = [];
    let calls = 0;
    for (const op of listOperations()) {
      for (const q of op.query) {
        for (const payload of SQL_INJECTIONS) {
          const value = q.schema.type === 'array' ? `1,${payload}` : payload;
          const url = `${op.path}?${new URLSearchParams({ [q.name]: value }).toString()}`;
          const res = await send('customer', 'GET', url);
          calls++;
          const p = problem(res, `GET ${url}`);
          if (p) failures.push(p);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(calls).toBeGreaterThan(500);
    // the tables are still there
    expect((await send('customer', 'GET', '/api/v0/soc/incs/')).statusCode).toBe(200);
  }, 240_000);
});

/** A query value: anything a client could type, including lists, numbers and odd characters. */
const queryValue = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.integer().map(String),
  fc.double({ noNaN: false }).map(String),
  fc
    .array(fc.oneof(fc.integer({ min: -5, max: 100_000 }).map(String), fc.string({ maxLength: 8 })), {
      maxLength: 4,
    })
    .map((xs) => xs.join(',')),
  fc.constantFrom(...SQL_INJECTIONS, '', ',', '-', 'null', 'true', '9'.repeat(40), 'ru', 'en'),
);

describe('property: any query of any list route', () => {
  it('never answers 5xx or another tenant’s data', async () => {
    const failures: string[] = [];
    for (const op of listOperations()) {
      const names = op.query.map((q) => q.name);
      await fc.assert(
        fc.asyncProperty(
          fc.dictionary(fc.constantFrom(...names, 'unknown_field'), queryValue, { maxKeys: 4 }),
          async (query) => {
            const url = `${op.path}?${new URLSearchParams(query).toString()}`;
            const p = problem(await send('customer', 'GET', url), `GET ${url}`);
            if (p) failures.push(p);
            return p === null;
          },
        ),
        { numRuns: 12, seed: 15 },
      );
    }
    expect(failures).toEqual([]);
  }, 240_000);
});

/** A JSON value of any shape, biased towards the schema's own property names. */
function bodyArbitrary(op: ApiOperation) {
  const props = Object.keys(op.jsonBody?.properties ?? {});
  const leaf = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constantFrom(...SQL_INJECTIONS, '<script>alert(1)</script>', '9'.repeat(30), ''),
  );
  const value = fc.oneof(
    leaf,
    fc.array(leaf, { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 5 }), leaf),
  );
  return fc.oneof(
    // the valid sample with one field replaced
    fc
      .tuple(fc.constantFrom(...(props.length ? props : ['x'])), value)
      .map(([k, v]) => ({ ...(sampleOf(op.jsonBody) as object), [k]: v })),
    fc.dictionary(fc.constantFrom(...props, 'extra'), value, { maxKeys: 5 }),
    value,
  );
}

describe('property: any body of the main write routes', () => {
  it('never answers 5xx, and a refused write changes nothing', async () => {
    const writes = (): { op: ApiOperation; url: string }[] => {
      const fill: Record<string, string> = { key: String(ownKey), id: '1', uuid: ownAttachment };
      return ops
        .filter(
          (op) =>
            op.jsonBody &&
            op.method !== 'GET' &&
            /^\/api\/v0\/(soc|cmdb|alerts)\//.test(op.path) &&
            op.pathParams.every((p) => p in fill),
        )
        .map((op) => ({ op, url: op.path.replace(/\{(\w+)\}/g, (_, p: string) => fill[p]!) }));
    };
    const targets = writes();
    expect(targets.length).toBeGreaterThan(15);
    const failures: string[] = [];
    for (const { op, url } of targets) {
      await fc.assert(
        fc.asyncProperty(bodyArbitrary(op), async (body) => {
          const before = await countRows();
          const res = await send('customer', op.method, url, body as object);
          const where = `${op.method} ${url} ${JSON.stringify(body).slice(0, 120)}`;
          const p = problem(res, where);
          if (p) failures.push(p);
          if (res.statusCode >= 400 && (await countRows()) !== before) {
            failures.push(`${where}: refused with ${res.statusCode} but rows changed`);
          }
          return p === null;
        }),
        { numRuns: 10, seed: 15 },
      );
    }
    expect(failures).toEqual([]);
  }, 240_000);

  it('refuses malformed JSON and wrong content types with 4xx', async () => {
    const url = `/api/v0/soc/incs/${ownKey}/confirm/`;
    for (const [payload, type] of [
      ['{"comment": "x"', 'application/json'],
      ['', 'application/json'],
      ['comment=x', 'application/x-www-form-urlencoded'],
      ['<comment>x</comment>', 'application/xml'],
      ['{"comment": "x", "__proto__": {"admin": true}}', 'application/json'],
    ] as const) {
      const res = await send('customer', 'POST', url, Buffer.from(payload), { 'content-type': type });
      expect(res.statusCode, `${type} ${payload}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `${type} ${payload}`).toBeLessThan(500);
    }
  });
});

describe('path traversal in file and download paths', () => {
  it('answers 404 for every traversal, never a file outside storage', async () => {
    const paths = [
      '../../../../etc/passwd',
      '..%2F..%2F..%2Fetc%2Fpasswd',
      `incidents/${ownKey}/../../../../etc/passwd`,
      `incidents/${ownKey}/${ownAttachment}/../../../etc/passwd`,
      'incidents/..%2F..%2F/etc/passwd',
      '%2e%2e/%2e%2e/%2e%2e/etc/passwd',
      '....//....//etc/passwd',
      'instructions/1/../../../etc/passwd',
      '/etc/passwd',
      'C:\\Windows\\win.ini',
      `incidents/${ownKey}/${ownAttachment}%00.txt`,
    ];
    const failures: string[] = [];
    for (const p of paths) {
      for (const url of [
        `/api/v0/soc/files/${encodeURIComponent(p)}/`,
        `/api/v0/soc/files/${encodeURIComponent(p)}/download/`,
        // the wildcard form with literal slashes
        `/api/v0/soc/files/${p}/download/`,
        `/api/v0/soc/incs/${ownKey}/attachments/${encodeURIComponent(p)}/download/`,
        `/api/v0/soc/instructions/1/attachments/${encodeURIComponent(p)}/`,
      ]) {
        const res = await send('customer', 'GET', url);
        if (![400, 404].includes(res.statusCode) || res.body.includes('root:')) {
          failures.push(`${url}: ${res.statusCode} ${res.body.slice(0, 100)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    // the legitimate path still works, so the refusals above are not an accident of the URL form
    const ok = await send(
      'customer',
      'GET',
      `/api/v0/soc/files/${encodeURIComponent(`incidents/${ownKey}/${ownAttachment}`)}/download/`,
    );
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('own file');
  });

  it('stores an uploaded file under its own key whatever its name says', async () => {
    const { payload, headers } = multipart({}, [
      { field: 'attachments', name: '../../../../tmp/evil.txt', type: 'text/plain', body: Buffer.from('x1') },
      { field: 'attachments', name: '..\\..\\evil2.txt', type: 'text/plain', body: Buffer.from('x2') },
    ]);
    const res = await send('customer', 'POST', `/api/v0/soc/incs/${ownKey}/add_file/`, payload, headers);
    expect(res.statusCode).toBe(200);
    const keys = await queryRows<{ storage_key: string; filename: string }>(
      ctx.database.db,
      sql`SELECT storage_key, filename FROM attachments WHERE filename LIKE '%evil%'`,
    );
    expect(keys).toHaveLength(2);
    for (const k of keys) {
      expect(k.storage_key).not.toContain('..');
      expect(k.storage_key).not.toContain('evil');
      expect(k.filename).not.toMatch(/[/\\]/);
    }
  });
});

describe('malformed multipart', () => {
  const comment = (payload: Buffer, headers: Record<string, string>) =>
    send('customer', 'POST', `/api/v0/soc/incs/${ownKey}/comments/`, payload, headers);
  const addFile = (payload: Buffer, headers: Record<string, string>) =>
    send('customer', 'POST', `/api/v0/soc/incs/${ownKey}/add_file/`, payload, headers);
  const file = (name: string, body: Buffer, type = 'text/plain') => ({
    field: 'attachments',
    name,
    type,
    body,
  });

  it('answers each malformed upload with a clear 4xx, storing nothing and leaving no temporary file', async () => {
    const cases: { name: string; run: () => Promise<Answer>; status: number[] }[] = [
      {
        name: 'truncated body (no closing boundary)',
        run: () => {
          const { payload, headers } = multipart({ body: 'hi' }, [file('a.txt', Buffer.alloc(5000, 97))]);
          return comment(payload.subarray(0, payload.length - 2000), headers);
        },
        status: [400],
      },
      {
        name: 'truncated upload',
        run: () => {
          const { payload, headers } = multipart({}, [file('a.txt', Buffer.alloc(5000, 97))]);
          return addFile(payload.subarray(0, payload.length - 2000), headers);
        },
        status: [400],
      },
      {
        name: 'eleven files on a comment',
        run: () => {
          const files = Array.from({ length: 11 }, (_, i) => file(`f${i}.txt`, Buffer.from('x')));
          const { payload, headers } = multipart({ body: 'hi' }, files);
          return comment(payload, headers);
        },
        status: [400],
      },
      {
        name: 'zero-byte file on a comment',
        run: () => {
          const { payload, headers } = multipart({ body: 'hi' }, [file('empty.txt', Buffer.alloc(0))]);
          return comment(payload, headers);
        },
        status: [400],
      },
      {
        name: 'executable with a document extension',
        run: () => {
          const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(300, 0x90)]);
          const { payload, headers } = multipart({ body: 'hi' }, [
            file('report.docx', exe, 'application/msword'),
          ]);
          return comment(payload, headers);
        },
        status: [400],
      },
      {
        name: 'no boundary in the content type',
        run: () => {
          const { payload } = multipart({ body: 'hi' });
          return comment(payload, { 'content-type': 'multipart/form-data' });
        },
        status: [400, 406, 415],
      },
      {
        name: 'garbage instead of multipart',
        run: () =>
          comment(Buffer.from('\u0000\u0001garbage'), {
            'content-type': 'multipart/form-data; boundary=----nothing',
          }),
        status: [400],
      },
      {
        name: 'file over 50 MB on a comment',
        run: () => {
          const { payload, headers } = multipart({ body: 'hi' }, [
            file('big.bin', Buffer.alloc(51 * 1024 * 1024, 1), 'application/octet-stream'),
          ]);
          return comment(payload, headers);
        },
        status: [413],
      },
    ];
    const failures: string[] = [];
    for (const c of cases) {
      const before = await countRows();
      const res = await c.run();
      const body = res.body;
      if (!c.status.includes(res.statusCode))
        failures.push(`${c.name}: ${res.statusCode} ${body.slice(0, 200)}`);
      // a clear error: JSON with a message, not an empty or HTML body
      else if (!/"(detail|non_field_errors|attachments|body|[a-z_]+)":/.test(body)) {
        failures.push(`${c.name}: unclear error body ${body.slice(0, 200)}`);
      }
      if ((await countRows()) !== before) failures.push(`${c.name}: rows changed`);
      if (tmpFiles().length) failures.push(`${c.name}: temporary files left ${tmpFiles().join(', ')}`);
    }
    expect(failures).toEqual([]);
  }, 60_000);
});
