import type { AddressInfo } from 'node:net';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncidentListItem, IncidentOrdering } from '@soc/contracts';
import {
  INCIDENT_PRIORITIES,
  INCIDENT_PRIORITY_TITLES,
  INCIDENT_STATUSES,
  INCIDENT_STATUS_TITLES,
} from '@soc/contracts';
import { queryRows } from '../../db/client.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import type { BuiltSystem, BuiltUser } from '../../test/builders.ts';
import {
  BUILT_SLA_HOURS,
  buildAnalyst,
  buildCustomer,
  buildIncident,
  buildIncidents,
  buildService,
  buildSystem,
  buildUser,
  forgetBuiltEvents,
  issueTypeReference,
} from '../../test/builders.ts';
import { csvLabels } from './incidents.csv.ts';
import type { IncidentsRepository } from './incidents.repository.ts';
import { createIncidentsRepository } from './incidents.repository.ts';
import { sniffFile } from '../../integrations/storage/sniff.ts';

let ctx: TestContext;
let smtp: SMTPServer;
const received: { to: string[]; raw: Buffer }[] = [];
let customerAccess: string;
/** The customer's system (24 incidents of every kind) and another one (40 plain incidents). */
let own: BuiltSystem;
let other: BuiltSystem;
let analyst: BuiltUser;
let admin: BuiltUser;
const CUSTOMER_EMAIL = 'csv-customer@test.example';
const ANALYST_EMAIL = 'csv-analyst@test.example';

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  ctx = await createTestContext({
    incidents: 0,
    config: {
      csvSyncMaxRows: 30,
      csvAsyncMaxRows: 60,
      mail: {
        smtpUrl: `smtp://127.0.0.1:${port}`,
        from: 'soc@test.local',
        outboxDir: '',
        attachmentMaxBytes: 1024 * 1024,
      },
    },
  });
  own = await buildSystem(ctx);
  other = await buildSystem(ctx);
  const customer = await buildCustomer(ctx, [own.id], {
    email: CUSTOMER_EMAIL,
    firstName: 'Ирина',
    lastName: 'Заказчикова',
  });
  analyst = await buildAnalyst(ctx, { email: ANALYST_EMAIL });
  admin = await buildUser(ctx, { role: 'admin' });
  const service = await buildService(ctx, own.id, { sla: BUILT_SLA_HOURS });
  const { categories, resolutions } = await issueTypeReference(ctx);
  const hour = 3_600_000;
  const start = Date.parse('2026-11-01T08:00:00Z');
  // every column filled on some rows and empty on others, in every priority and status
  await buildIncidents(ctx, own.id, 24, (i) => {
    const created = start + i * 7 * hour;
    const resolution = i % 3 === 2 ? resolutions[i % resolutions.length]! : null;
    return {
      priority: INCIDENT_PRIORITIES[i % 4],
      status: INCIDENT_STATUSES[i % INCIDENT_STATUSES.length],
      serviceId: i % 3 === 0 ? service.id : null,
      categoryId: categories[i % categories.length]!.id,
      secondaryCategoryIds: i % 2 ? [categories[(i + 3) % categories.length]!.id] : [],
      customerAssigneeId: i % 5 < 2 ? customer.id : null,
      resolution: resolution?.kind ?? null,
      resolutionId: i % 6 === 2 ? null : (resolution?.id ?? null),
      resolutionDate: resolution ? new Date(created + 30 * hour) : null,
      gossopkaId: i % 4 === 1 ? `GS-${i}` : null,
      tags: i % 3 ? ['vpn', `tag-${i % 2}`] : [],
      sla: new Date(created + 4 * hour),
      slaBreached: i % 6 === 0,
      created: new Date(created),
      updated: new Date(created + hour),
    };
  });
  await buildIncidents(ctx, other.id, 40, (i) => ({ priority: INCIDENT_PRIORITIES[i % 4] }));
  await forgetBuiltEvents(ctx);
  customerAccess = await customer.login();
});
afterAll(async () => {
  await ctx.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

/** Queues an English export as the holder of `token`, runs the jobs and parses the analyst's new mails. */
async function asyncExport(query: string, token: string) {
  const before = received.length;
  const res = await ctx.app.inject({
    url: `/api/v0/soc/incs/get_async_csv/?language=en${query}`,
    headers: bearer(token),
  });
  expect(res.statusCode, res.body).toBe(202);
  await ctx.app.jobs.runDue();
  return Promise.all(
    received
      .slice(before)
      .filter((m) => m.to.includes(ANALYST_EMAIL))
      .map((m) => PostalMime.parse(m.raw)),
  );
}

const csv = (query: string, lang = 'ru') =>
  ctx.app.inject({
    method: 'GET',
    url: `/api/v0/soc/incs/get_csv/?${query}&language=${lang}`,
    headers: bearer(customerAccess),
  });

describe('GET /soc/incs/get_csv/', () => {
  it('streams UTF-8 CSV with a BOM, a localised header and one row per incident', async () => {
    const list = (
      await ctx.app.inject({
        url: '/api/v0/soc/incs/?status__in=closed&limit=100',
        headers: bearer(customerAccess),
      })
    ).json<{ total: number; results: { key: number; summary: string }[] }>();
    expect(list.total).toBeGreaterThan(0);
    const res = await csv('status__in=closed');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="incidents-\d{8}-\d{4}\.csv"$/);
    const raw = res.rawPayload;
    expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows: string[][] = parse(raw.toString('utf8').slice(1), {
      relax_column_count: false,
      columns: false,
    });
    expect(rows[0]!.slice(0, 3)).toEqual(['Ключ', 'Название', 'Система']);
    expect(rows).toHaveLength(list.total + 1);
    expect(rows.slice(1).map((r) => Number(r[0]))).toEqual(list.results.map((i) => i.key));
    expect(rows.slice(1).every((r) => r[7] === 'Закрыт')).toBe(true);
    expect(raw.toString('utf8').endsWith('\n')).toBe(true);
  });

  it('writes every column as the list shows the same incidents', async () => {
    const query = 'priority__in=high,critical&ordering=-priority';
    const list = (
      await ctx.app.inject({
        url: `/api/v0/soc/incs/?${query}&limit=100&language=en`,
        headers: bearer(customerAccess),
      })
    ).json<{ total: number; results: IncidentListItem[] }>();
    expect(list.total).toBeGreaterThan(3);
    const rows: string[][] = parse((await csv(query, 'en')).body.slice(1));
    const utc = (ms: number | null) =>
      ms === null ? '' : new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
    expect(rows.slice(1)).toEqual(
      list.results.map((i) => [
        String(i.key),
        i.summary,
        `${i.system.is_id} ${i.system.full_name}`,
        i.service?.name ?? '',
        i.issuetype_ref.title,
        [...i.category_ref, ...i.secondary_category_ref].map((c) => c.title).join(', '),
        INCIDENT_PRIORITY_TITLES.en[i.priority],
        INCIDENT_STATUS_TITLES.en[i.status],
        utc(i.created),
        utc(i.updated),
        utc(i.sla),
        i.sla_breached ? 'Yes' : 'No',
        i.customer_assignee ? i.customer_assignee.full_name || i.customer_assignee.username : '',
        i.resolution
          ? `${i.resolution}${i.resolution_name_ref ? ` (${i.resolution_name_ref.title})` : ''}`
          : '',
        utc(i.resolutiondate),
        i.gossopka_id ?? '',
        i.tags.join(', '),
      ]),
    );
  });

  it('writes the same records whatever the batch size, across batch seams, on either engine path', async () => {
    const read = async (repo: IncidentsRepository, batch: number, ordering: IncidentOrdering) => {
      // bytes first: a chunk may end inside a multi-byte character
      const chunks: Buffer[] = [];
      for await (const chunk of repo.csvChunks({}, null, ordering, 'en', csvLabels('en'), batch)) {
        chunks.push(Buffer.from(chunk));
      }
      const records: string[][] = parse(Buffer.concat(chunks).toString('utf8'));
      return records;
    };
    const lines = createIncidentsRepository(ctx.database.db);
    const native = createIncidentsRepository(ctx.database.db, ctx.database.copyOut);
    for (const ordering of ['-priority', 'created', '-status'] as const) {
      const whole = await read(lines, 5000, ordering);
      expect(whole.length).toBeGreaterThanOrEqual(64);
      expect(new Set(whole.map((r) => r[0])).size).toBe(whole.length);
      expect(await read(lines, 7, ordering)).toEqual(whole);
      // on PostgreSQL this is COPY; on the embedded engine the same line path again
      expect(await read(native, 7, ordering)).toEqual(whole);
      expect(await read(native, 5000, ordering)).toEqual(whole);
    }
  });

  it('writes the header in English when asked', async () => {
    const res = await csv('priority__in=critical', 'en');
    expect(res.body.slice(1).split('\n')[0]).toMatch(/^Key,Summary,System,/);
  });

  it('quotes separators and neutralises formulas', async () => {
    const systems = (
      await ctx.app.inject({ url: '/api/v0/soc/systems/', headers: bearer(customerAccess) })
    ).json<{
      results: { id: number }[];
    }>();
    const types = (
      await ctx.app.inject({ url: '/api/v0/soc/issue_types/', headers: bearer(customerAccess) })
    ).json<{
      results: { id: number; code: string }[];
    }>();
    const type = types.results.find((t) => t.code === 'incident')!;
    const cats = (
      await ctx.app.inject({
        url: `/api/v0/soc/issues/${type.id}/categories/`,
        headers: bearer(customerAccess),
      })
    ).json<{ results: { id: number }[] }>();
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/soc/incs/',
      headers: bearer(customerAccess),
      payload: {
        system: systems.results[0]!.id,
        summary: '=HYPERLINK("http://evil.example","click"), "quoted"; done',
        issuetype: type.id,
        priority: 'low',
        description: 'x',
        primary_category: cats.results[0]!.id,
      },
    });
    const key = created.json<{ key: number }>().key;
    const res = await csv(`key__in=${key}`);
    const rows: string[][] = parse(res.body.slice(1));
    expect(rows[1]![1]).toBe(`'=HYPERLINK("http://evil.example","click"), "quoted"; done`);
  });

  it('quotes a cell holding a separator of any locale and neutralises a formula after it, on either engine path', async () => {
    const built = await buildIncident(ctx, own.id, { summary: 'atk2;=1+1;\t@x' });
    await forgetBuiltEvents(ctx);
    const res = await csv(`key__in=${built.key}`);
    expect(res.statusCode).toBe(200);
    const line = res.body.split('\n')[1]!;
    expect(line.split(',')[1]).toBe(`"atk2;'=1+1;'\t'@x"`);
    // a reader splitting on `;` or a tab (ru-RU Excel, a paste) sees no formula in any part
    for (const part of line.split(/[;\t]/)) expect(part).not.toMatch(/^[=+\-@]/);
    const native = createIncidentsRepository(ctx.database.db, ctx.database.copyOut);
    let copied = '';
    for await (const chunk of native.csvChunks(
      { key__in: [built.key] },
      null,
      '-created',
      'en',
      csvLabels('en'),
    )) {
      copied += Buffer.from(chunk).toString('utf8');
    }
    expect(copied.split(',')[1]).toBe(`"atk2;'=1+1;'\t'@x"`);
  });

  it('answers max_records_exceeded above the synchronous limit', async () => {
    const res = await ctx.app.inject({
      url: '/api/v0/soc/incs/get_csv/',
      headers: bearer(await analyst.login()),
    });
    expect(res.statusCode).toBe(400);
    const body = res.json<{ code: string; max_records: number; total: number }>();
    expect(body).toMatchObject({ code: 'max_records_exceeded', max_records: 30 });
    expect(body.total).toBeGreaterThan(30);
  });

  it('refuses unknown filters', async () => {
    expect((await csv('bogus=1')).statusCode).toBe(400);
  });
});

describe('GET /soc/incs/get_async_csv/', () => {
  it('queues the export and mails it as a CSV attachment to the caller', async () => {
    const res = await ctx.app.inject({
      url: '/api/v0/soc/incs/get_async_csv/?language=en',
      headers: bearer(customerAccess),
    });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({
      detail: `The CSV file will be sent to ${CUSTOMER_EMAIL}`,
      email: CUSTOMER_EMAIL,
    });
    // other jobs may be queued too (notification e-mails of the incident registered above)
    expect(await ctx.app.jobs.runDue()).toBeGreaterThanOrEqual(1);
    const mail = received.find((m) => m.to.includes(CUSTOMER_EMAIL));
    expect(mail).toBeDefined();
    const parsed = await PostalMime.parse(mail!.raw);
    expect(parsed.subject).toBe('Incident export (CSV)');
    expect(parsed.attachments).toHaveLength(1);
    const attachment = parsed.attachments[0]!;
    expect(attachment.filename).toMatch(/^incidents-\d+\.csv$/);
    const text = new TextDecoder().decode(attachment.content as ArrayBuffer);
    const rows: string[][] = parse(text.replace(/^\uFEFF/, ''));
    expect(rows[0]![0]).toBe('Key');
    const total = (
      await ctx.app.inject({ url: '/api/v0/soc/incs/?limit=1', headers: bearer(customerAccess) })
    ).json<{
      total: number;
    }>().total;
    expect(rows).toHaveLength(total + 1);
    const jobs = await ctx.database.db.query.jobs.findMany();
    expect(jobs.filter((j) => j.type === 'incidents.csv').map((j) => j.status)).toEqual(['done']);
    // every e-mail sent is in the audit log: recipient and kind, never the subject or the file
    const sent = await queryRows<{ details: { to: string[]; kind: string } }>(
      ctx.database.db,
      sql`SELECT details FROM audit_log WHERE action = 'mail.sent' AND details->>'kind' = 'incident_csv'`,
    );
    expect(sent.map((e) => e.details)).toEqual([{ to: [CUSTOMER_EMAIL], kind: 'incident_csv' }]);
  });

  it('keeps the system limit of the API token that asked for it', async () => {
    const staff = await analyst.login();
    const issued = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/admin/service_tokens/',
      headers: bearer(await admin.login()),
      payload: { name: 'SIEM export', user_id: analyst.id, systems: [own.id] },
    });
    expect(issued.statusCode, issued.body).toBe(201);
    const mails = await asyncExport('', issued.json<{ token: string }>().token);
    // the analyst is also told of the token issued on their account: the export is the mail with a file
    const parsed = mails.find((m) => m.attachments.length > 0)!;
    expect(parsed).toBeDefined();
    const text = new TextDecoder().decode(parsed.attachments[0]!.content as ArrayBuffer);
    const rows: string[][] = parse(text.replace(/^\uFEFF/, ''));
    const total = async (query: string) =>
      (await ctx.app.inject({ url: `/api/v0/soc/incs/?limit=1${query}`, headers: bearer(staff) })).json<{
        total: number;
      }>().total;
    const ofSystem = await total(`&system__in=${own.id}`);
    expect(await total('')).toBeGreaterThan(ofSystem);
    expect(rows).toHaveLength(ofSystem + 1);
  });
});

describe('GET /soc/incs/get_async_csv/ above its limit', () => {
  it('mails that the selection holds more than the limit, without a file', async () => {
    const staff = await analyst.login();
    // a search: its count stops past the limit rather than counting every match
    const listed = await ctx.app.inject({
      url: '/api/v0/soc/incs/?limit=1&search=e',
      headers: bearer(staff),
    });
    expect(listed.json<{ total: number }>().total).toBeGreaterThan(60);
    const mails = await asyncExport('&search=e', staff);
    const exportMail = mails.find((m) => m.subject === 'Incident export (CSV)');
    expect(exportMail?.attachments).toHaveLength(0);
    expect(exportMail?.text).toContain('holds more than the allowed 60 incidents');
  });
});

describe('helpers', () => {
  it('escapes every formula prefix and quotes separators, quotes and line breaks (csv_cell)', async () => {
    const cell = async (v: string | null) =>
      (await queryRows<{ c: string }>(ctx.database.db, sql`SELECT csv_cell(${v}::text) AS c`))[0]!.c;
    for (const p of ['=', '+', '-', '@']) expect(await cell(`${p}1`)).toBe(`'${p}1`);
    expect(await cell('\t1')).toBe(`"'\t1"`);
    expect(await cell('\r1')).toBe(`"'\r1"`);
    expect(await cell('plain')).toBe('plain');
    expect(await cell(null)).toBe('');
    expect(await cell('a,b')).toBe('"a,b"');
    expect(await cell('say "hi"')).toBe('"say ""hi"""');
    expect(await cell('two\nlines')).toBe('"two\nlines"');
    expect(await cell('Кириллица; ok')).toBe('"Кириллица; ok"');
  });

  it('recognises executables and common types by their bytes, not their names', () => {
    expect(sniffFile(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2]), 'notes.txt').executable).toBe(true);
    expect(sniffFile(Buffer.from('%PDF-1.7'), 'x.bin').contentType).toBe('application/pdf');
    expect(sniffFile(Buffer.from('<svg onload=alert(1)>'), 'x.svg').contentType).toBe(
      'application/octet-stream',
    );
    expect(sniffFile(Buffer.from('<html>'), 'x.html').contentType).toBe('application/octet-stream');
  });
});
