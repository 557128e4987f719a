import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { and, eq, gt, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalystNote, AnalystNoteListResponse } from '@soc/contracts';
import { AnalystNoteSchema } from '@soc/contracts';
import { queryRows } from '../../db/client.ts';
import { events, inboxItems, incidents } from '../../db/schema/index.ts';
import {
  buildAnalyst,
  buildContact,
  buildCustomer,
  buildIncident,
  buildSystem,
  forgetBuiltEvents,
} from '../../test/builders.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';

const run = promisify(execFile);
const MARKER = 'NOTE-MARKER-7f3a';

let ctx: TestContext;
let dir: string;
const tokens: Record<string, string> = {};
let customerId = 0;
let key = 0;
let incidentId = '';

const get = (who: string, url: string) =>
  ctx.app.inject({ method: 'GET', url: `/api/v0${url}`, headers: bearer(tokens[who]!) });
const post = (who: string, url: string, payload: object) =>
  ctx.app.inject({ method: 'POST', url: `/api/v0${url}`, headers: bearer(tokens[who]!), payload });
const incidentRow = async () =>
  (await ctx.database.db.select().from(incidents).where(eq(incidents.id, incidentId)))[0]!;
const outboxTexts = async () => {
  const outbox = ctx.config.mail.outboxDir;
  return Promise.all((await readdir(outbox)).map((f) => readFile(path.join(outbox, f), 'utf8')));
};
async function pdfText(pdf: Buffer): Promise<string> {
  const file = path.join(dir, `${Date.now()}.pdf`);
  await writeFile(file, pdf);
  return (await run('pdftotext', ['-enc', 'UTF-8', file, '-'])).stdout;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'soc-notes-'));
  ctx = await createTestContext({ incidents: 0 });
  const system = await buildSystem(ctx);
  await buildContact(ctx, system.id, { email: 'security@notes.example' });
  const customer = await buildCustomer(ctx, [system.id]);
  customerId = customer.id;
  tokens.customer = await customer.login();
  tokens.analyst = await (await buildAnalyst(ctx)).login();
  const incident = await buildIncident(ctx, system.id, {
    status: 'waiting_for_support',
    reporterId: customer.id,
    summary: 'Suspicious logon from a new country',
  });
  key = incident.key;
  incidentId = incident.id;
  await ctx.app.jobs.runDue();
  await forgetBuiltEvents(ctx);
  const outbox = ctx.config.mail.outboxDir;
  for (const f of await readdir(outbox)) await rm(path.join(outbox, f));
});
afterAll(async () => {
  await ctx?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('internal notes of the SOC (design §9)', () => {
  it('refuses customers with 403 before looking at the body, on writing and reading', async () => {
    const write = await post('customer', `/analyst/incidents/${key}/notes/`, { nonsense: true });
    expect(write.statusCode).toBe(403);
    expect(write.body).not.toContain('nonsense');
    expect((await post('customer', `/analyst/incidents/${key}/notes/`, { body: 'x' })).statusCode).toBe(403);
    expect((await get('customer', `/analyst/incidents/${key}/notes/`)).statusCode).toBe(403);
  });

  it('answers 400 with field errors to an empty note and 404 for an unknown incident', async () => {
    const empty = await post('analyst', `/analyst/incidents/${key}/notes/`, { body: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toHaveProperty('body');
    const missing = await post('analyst', '/analyst/incidents/999999999/notes/', { body: 'x' });
    expect(missing.statusCode).toBe(404);
    expect((await get('analyst', '/analyst/incidents/999999999/notes/')).statusCode).toBe(404);
  });

  let note: AnalystNote;
  let before: Awaited<ReturnType<typeof incidentRow>>;
  let lastEvent = 0;

  it('stores a sanitised note that staff read back, without moving the status or `updated`', async () => {
    before = await incidentRow();
    const [newest] = await queryRows<{ id: string | null }>(
      ctx.database.db,
      sql`SELECT max(id)::text AS id FROM events`,
    );
    lastEvent = Number(newest?.id ?? 0);
    const res = await post('analyst', `/analyst/incidents/${key}/notes/`, {
      body: `**${MARKER}** checked with the admin <script>alert(1)</script>`,
    });
    expect(res.statusCode, res.body).toBe(201);
    note = AnalystNoteSchema.parse(res.json());
    expect(note.body).toContain(`<strong>${MARKER}</strong>`);
    expect(note.body).not.toContain('<script>');
    expect(note.internal).toBe(true);

    const after = await incidentRow();
    expect(after.status).toBe('waiting_for_support');
    expect(after.updated.getTime()).toBe(before.updated.getTime());

    const list = await get('analyst', `/analyst/incidents/${key}/notes/`);
    expect(list.statusCode, list.body).toBe(200);
    const page = list.json<AnalystNoteListResponse>();
    expect(page.total).toBe(1);
    expect(page.results.map((n) => n.id)).toEqual([note.id]);
    expect(page.next).toBeNull();
  });

  it('pages the notes as every list does', async () => {
    for (const n of [2, 3]) {
      expect(
        (await post('analyst', `/analyst/incidents/${key}/notes/`, { body: `note ${n}` })).statusCode,
      ).toBe(201);
    }
    const first = (
      await get('analyst', `/analyst/incidents/${key}/notes/?page_size=2`)
    ).json<AnalystNoteListResponse>();
    expect(first.total).toBe(3);
    expect(first.results).toHaveLength(2);
    expect(first.next).toContain('page=2');
    const second = (
      await get('analyst', `/analyst/incidents/${key}/notes/?page_size=2&page=2`)
    ).json<AnalystNoteListResponse>();
    expect(second.results.map((n) => n.body)).toEqual(['<p>note 3</p>']);
    expect(second.previous).toContain('page=1');
  });

  it('shows a customer of the same tenant no trace: chat, search, counts, card, list, CSV, PDF, audit log', async () => {
    const chat = await get('customer', `/soc/incs/${key}/comments/`);
    expect(chat.statusCode).toBe(200);
    expect(chat.json<{ total: number }>().total).toBe(0);
    expect(chat.body).not.toContain(MARKER);
    const searched = await get('customer', `/soc/incs/${key}/comments/?search=${MARKER}`);
    expect(searched.json<{ total: number }>().total).toBe(0);

    const card = await get('customer', `/soc/incs/${key}/`);
    expect(card.statusCode).toBe(200);
    expect(card.body).not.toContain(MARKER);
    expect(card.json<{ updated: number }>().updated).toBe(before.updated.getTime());

    const list = await get('customer', `/soc/incs/?limit=100`);
    const row = list
      .json<{ results: { key: number; comments_count: number }[] }>()
      .results.find((r) => r.key === key);
    expect(row?.comments_count).toBe(0);
    expect((await get('customer', `/soc/incs/?search=${MARKER}`)).json<{ total: number }>().total).toBe(0);

    const csv = await get('customer', '/soc/incs/get_csv/');
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Suspicious logon');
    expect(csv.body).not.toContain(MARKER);

    const pdf = await get('customer', `/soc/incs/${key}/get_pdf_inc/`);
    expect(pdf.statusCode).toBe(200);
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('Suspicious logon');
    expect(text).not.toContain(MARKER);
    expect(text).not.toContain('note 3');

    const auditLog = await get('customer', '/audit/');
    expect(auditLog.statusCode, auditLog.body).toBe(200);
    expect(auditLog.body).not.toContain('incident.note');
  });

  it('writes no event: nothing in the live stream, the notification centre, mail or webhooks', async () => {
    await ctx.app.jobs.runDue();
    const written = await ctx.database.db.select().from(events).where(gt(events.id, lastEvent));
    expect(written).toEqual([]);
    const inbox = await ctx.database.db.select().from(inboxItems).where(eq(inboxItems.userId, customerId));
    expect(inbox).toEqual([]);
    expect((await outboxTexts()).join('\n')).not.toContain(MARKER);
    expect(await outboxTexts()).toEqual([]);

    // the same paths do carry the SOC's comment that follows: the checks above can fail
    const reply = await post('analyst', `/analyst/incidents/${key}/comments/`, {
      body: 'A reply to the customer',
    });
    expect(reply.statusCode, reply.body).toBe(201);
    await ctx.app.jobs.runDue();
    const types = (
      await ctx.database.db.select({ type: events.type }).from(events).where(gt(events.id, lastEvent))
    ).map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['comment.created', 'incident.updated']));
    const kinds = (
      await ctx.database.db
        .select({ kind: inboxItems.kind })
        .from(inboxItems)
        .where(and(eq(inboxItems.userId, customerId)))
    ).map((i) => i.kind);
    expect(kinds).toContain('comment');
    expect((await outboxTexts()).length).toBeGreaterThan(0);
    expect((await outboxTexts()).join('\n')).not.toContain(MARKER);
    const chat = await get('customer', `/soc/incs/${key}/comments/`);
    expect(chat.json<{ total: number }>().total).toBe(1);
    expect(chat.body).not.toContain(MARKER);
    const auditLog = await get('customer', '/audit/');
    expect(auditLog.body).toContain('incident.comment');
    expect(auditLog.body).not.toContain('incident.note');
    // the note is still there for staff, and still only for them
    expect(
      (await get('analyst', `/analyst/incidents/${key}/notes/`)).json<AnalystNoteListResponse>().total,
    ).toBe(3);
  });
});
