import { readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import PostalMime from 'postal-mime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Comment, IncidentCard, IncidentStatus } from '@soc/contracts';
import { CommentSchema } from '@soc/contracts';
import { categories, comments, incidents, issueTypes, users } from '../../db/schema/index.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import type { BuiltSystem, BuiltUser } from '../../test/builders.ts';
import {
  buildAnalyst,
  buildContact,
  buildCustomer,
  buildIncident,
  buildSystem,
} from '../../test/builders.ts';

let ctx: TestContext;
const tokens: Record<string, string> = {};
let key: number;
let incidentId: string;
let bobKey: number;

const boundary = '----soc-comment-boundary';
function multipart(
  fields: Record<string, string>,
  files: { name: string; type: string; body: Buffer }[] = [],
) {
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="attachments"; filename="${f.name}"\r\nContent-Type: ${f.type}\r\n\r\n`,
      ),
      f.body,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

const postComment = (user: string, k: number, body: Buffer) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/v0/soc/incs/${k}/comments/`,
    headers: { ...bearer(tokens[user]!), 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: body,
  });
const get = (user: string, url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url, headers: { ...bearer(tokens[user]!), ...headers } });
const statusOf = async () =>
  (
    await ctx.database.db.select({ s: incidents.status }).from(incidents).where(eq(incidents.id, incidentId))
  )[0]!.s;
const setStatus = (status: IncidentStatus) =>
  ctx.database.db.update(incidents).set({ status }).where(eq(incidents.id, incidentId));

/** The customer's system, whose contacts read Russian, and another tenant's (English). */
let mine: BuiltSystem;
let theirs: BuiltSystem;
let customer: BuiltUser;

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  mine = await buildSystem(ctx);
  theirs = await buildSystem(ctx);
  for (const [system, locale, domain] of [
    [mine, 'ru', 'mine.example'],
    [theirs, 'en', 'theirs.example'],
  ] as const) {
    for (const n of [1, 2]) await buildContact(ctx, system.id, { email: `security${n}@${domain}`, locale });
    await buildContact(ctx, system.id, { email: `quiet@${domain}`, notify: false });
  }
  customer = await buildCustomer(ctx, [mine.id]);
  tokens.own = await customer.login();
  tokens.other = await (await buildCustomer(ctx, [theirs.id])).login();
  tokens.analyst = await (await buildAnalyst(ctx)).login();
  const a = await buildIncident(ctx, mine.id);
  key = a.key;
  incidentId = a.id;
  bobKey = (await buildIncident(ctx, theirs.id)).key;
  // the built incidents' registration mail is sent and dropped: the tests look for their own mail
  await ctx.app.jobs.runDue();
  const outbox = ctx.config.mail.outboxDir;
  for (const f of await readdir(outbox)) await rm(path.join(outbox, f));
});
afterAll(() => ctx.close());

describe('comments', () => {
  it('stores a comment with a Cyrillic-named file and lists it with the attachment', async () => {
    await setStatus('work_in_progress');
    const file = Buffer.from('строка журнала 1\nстрока журнала 2\n', 'utf8');
    const res = await postComment(
      'own',
      key,
      multipart({ body: 'Журнал во вложении' }, [
        { name: 'журнал событий.txt', type: 'text/plain', body: file },
      ]),
    );
    expect(res.statusCode, res.body).toBe(201);
    const comment = CommentSchema.parse(res.json());
    expect(comment.body).toBe('<p>Журнал во вложении</p>');
    expect(comment.source).toBe('API');
    expect(comment.is_mine).toBe(true);
    expect(comment.attachments).toHaveLength(1);
    expect(comment.attachments[0]!.filename).toBe('журнал событий.txt');
    expect(comment.attachments[0]!.size).toBe(file.length);

    const list = await get('own', `/api/v0/soc/incs/${key}/comments/?no_page=true`);
    const page = list.json<{ results: Comment[]; total: number }>();
    expect(page.results.at(-1)!.id).toBe(comment.id);
    const created = page.results.map((c) => c.created);
    expect([...created].sort((a, b) => a - b)).toEqual(created);
    const found = await get(
      'own',
      `/api/v0/soc/incs/${key}/comments/?search=%20${encodeURIComponent('Журнал во')}%20`,
    );
    expect(found.json<{ results: Comment[] }>().results.map((c) => c.id)).toEqual([comment.id]);

    // download: headers, full body, ranges
    const link = comment.attachments[0]!.link;
    const full = await get('own', link);
    expect(full.statusCode).toBe(200);
    expect(full.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(full.headers['content-length']).toBe(String(file.length));
    expect(full.headers['accept-ranges']).toBe('bytes');
    expect(full.headers['content-disposition']).toBe(
      `attachment; filename="______ _______.txt"; filename*=UTF-8''${encodeURIComponent('журнал событий.txt')}`,
    );
    expect(full.rawPayload.equals(file)).toBe(true);
    const part = await get('own', link, { range: 'bytes=2-9' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 2-9/${file.length}`);
    expect(part.headers['content-length']).toBe('8');
    expect(part.rawPayload.equals(file.subarray(2, 10))).toBe(true);
    const suffix = await get('own', link, { range: 'bytes=-5' });
    expect(suffix.rawPayload.equals(file.subarray(file.length - 5))).toBe(true);
    const open = await get('own', link, { range: 'bytes=10-' });
    expect(open.headers['content-range']).toBe(`bytes 10-${file.length - 1}/${file.length}`);
    const beyond = await get('own', link, { range: `bytes=${file.length}-` });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${file.length}`);
    // only for users who may see the incident
    expect((await get('other', link)).statusCode).toBe(404);
    expect((await get('other', link.replace(`/${key}/`, `/${bobKey}/`))).statusCode).toBe(404);
    expect(
      (await get('own', link.replace(/[0-9a-f-]{36}/, '00000000-0000-0000-0000-000000000000'))).statusCode,
    ).toBe(404);
  });

  it('shows typed HTML as text and sanitises Markdown: no javascript: links, no remote images', async () => {
    const hostile =
      '<img src=x onerror="alert(1)"><script>alert(2)</script><b>bold?</b> **bold**\n\n' +
      '[md link](javascript:alert(5)) [fine](https://example.org)\n\n' +
      '![pixel](https://tracker.example/pixel.png) ![plan](/api/v0/soc/files/x.png)';
    const res = await postComment('own', key, multipart({ body: hostile }));
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json<Comment>().body;
    // typed into a plain-text composer: the characters are shown, no element is made of them
    expect(body).toContain(
      '&lt;img src=x onerror="alert(1)"&gt;&lt;script&gt;alert(2)&lt;/script&gt;&lt;b&gt;bold?&lt;/b&gt; <strong>bold</strong>',
    );
    expect(body).not.toMatch(/<script|<b>|javascript:|tracker\.example|<img src="x"/i);
    expect(body).toContain('href="https://example.org"');
    expect(body).toContain('<img src="/api/v0/soc/files/x.png" alt="plan" />');
    const stored = await ctx.database.db
      .select({ body: comments.body })
      .from(comments)
      .where(eq(comments.id, res.json<Comment>().id));
    expect(stored[0]!.body).toBe(body);
  });

  it('refuses an empty text and unknown fields with field errors; nothing is stored', async () => {
    const before = (await get('own', `/api/v0/soc/incs/${key}/comments/`)).json<{ total: number }>().total;
    const blank = await postComment(
      'own',
      key,
      multipart({ body: '  ' }, [{ name: 'a.txt', type: 'text/plain', body: Buffer.from('x') }]),
    );
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toEqual({ body: ['This field may not be blank.'] });
    const missing = await postComment('own', key, multipart({ colour: 'red' }));
    expect(missing.json()).toEqual({ body: ['This field is required.'], colour: ['Unknown field.'] });
    expect((await get('own', `/api/v0/soc/incs/${key}/comments/`)).json<{ total: number }>().total).toBe(
      before,
    );
    expect((await postComment('other', key, multipart({ body: 'hi' }))).statusCode).toBe(404);
  });

  it('moves the status: customer answer, issue_completed, analyst answer (design §5)', async () => {
    await setStatus('waiting_for_customer');
    await postComment('own', key, multipart({ body: 'Это наш сканер' }));
    expect(await statusOf()).toBe('waiting_for_support');

    await postComment('analyst', key, multipart({ body: 'Подтвердите, пожалуйста, окно сканирования' }));
    expect(await statusOf()).toBe('waiting_for_customer');

    await postComment('own', key, multipart({ body: 'Готово', issue_completed: 'true' }));
    expect(await statusOf()).toBe('customer_completed');

    const again = await postComment('own', key, multipart({ body: 'ещё раз', issue_completed: 'true' }));
    expect(again.statusCode).toBe(400);
    expect(again.json<Record<string, string[]>>().issue_completed).toHaveLength(1);
    expect(await statusOf()).toBe('customer_completed');

    await setStatus('work_in_progress');
    await postComment('own', key, multipart({ body: 'просто комментарий' }));
    expect(await statusOf()).toBe('work_in_progress');
  });

  it('e-mails the system’s contacts when the incident moves to Waiting for customer', async () => {
    await setStatus('waiting_for_support');
    await postComment('analyst', key, multipart({ body: 'Нужен ваш ответ' }));
    await ctx.app.jobs.runDue();
    const outbox = ctx.config.mail.outboxDir;
    const files = await readdir(outbox);
    const mails = await Promise.all(
      files.map(async (f) => PostalMime.parse(await readFile(path.join(outbox, f)))),
    );
    const mail = mails.find((m) => m.subject?.startsWith(`[INC-${key}] `));
    expect(mail).toBeDefined();
    // the system's contacts read Russian; one who asked for no notifications gets none
    expect(mail!.subject).toContain('Требуется ваш ответ');
    expect(mail!.to?.map((a) => a.address)).toEqual(['security1@mine.example', 'security2@mine.example']);
    expect(mail!.replyTo?.[0]?.address).toBe('incidents@soc-portal.local');
    expect(mail!.text).toContain(`/inc/${key}`);
  });

  it('e-mails the contacts, in their language, when an incident is registered', async () => {
    const db = ctx.database.db;
    const [type] = await db.select().from(issueTypes).where(eq(issueTypes.code, 'incident'));
    const [category] = await db
      .select()
      .from(categories)
      .where(eq(categories.issueTypeId, type!.id))
      .limit(1);
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/soc/incs/',
      headers: bearer(tokens.analyst!),
      payload: {
        system: theirs.id,
        summary: 'Beaconing to a known C2 server',
        issuetype: type!.id,
        priority: 'high',
        description: 'The host **scada-gw** contacts a C2 server every 60 s.',
        primary_category: category!.id,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const newKey = created.json<{ key: number }>().key;
    await ctx.app.jobs.runDue();
    const outbox = ctx.config.mail.outboxDir;
    const mails = await Promise.all(
      (await readdir(outbox)).map(async (f) => PostalMime.parse(await readFile(path.join(outbox, f)))),
    );
    const mail = mails.find(
      (m) => m.subject === `[INC-${newKey}] Incident registered: Beaconing to a known C2 server`,
    );
    expect(mail).toBeDefined();
    expect(mail!.to?.map((a) => a.address)).toEqual(['security1@theirs.example', 'security2@theirs.example']);
    expect(mail!.html).toContain('<strong>scada-gw</strong>');
  });

  it('shows the centre only for mail the gateway authenticated, never by the address alone', async () => {
    await ctx.database.db.insert(comments).values([
      {
        incidentId,
        authorId: null,
        authorName: 'duty@cert.gov.ru',
        authorEmail: 'duty@cert.gov.ru',
        body: '<p>Принято</p>',
        source: 'Email by authorized user',
        fromNationalCentre: true,
      },
      {
        incidentId,
        authorId: null,
        authorName: 'НКЦКИ <duty@cert.gov.ru>',
        authorEmail: 'duty@cert.gov.ru',
        body: '<p>Поддельное</p>',
        source: 'Email by unauthorized user',
      },
    ]);
    const list = (await get('own', `/api/v0/soc/incs/${key}/comments/?no_page=true`)).json<{
      results: Comment[];
    }>();
    const centre = list.results.find((c) => c.body === '<p>Принято</p>')!;
    expect(centre.author).toBe('НКЦКИ');
    expect(centre.from_national_centre).toBe(true);
    const forged = list.results.find((c) => c.body === '<p>Поддельное</p>')!;
    expect(forged.author).toBe('НКЦКИ <duty@cert.gov.ru>');
    expect(forged.from_national_centre).toBe(false);
    expect(forged.source).toBe('Email by unauthorized user');
  });
});

describe('rating', () => {
  const rate = (user: string, payload: object) =>
    ctx.app.inject({
      method: 'POST',
      url: `/api/v0/soc/incs/${key}/add_rating/`,
      headers: { ...bearer(tokens[user]!), 'accept-language': 'en' },
      payload,
    });

  it('rates a handled incident once, with field errors otherwise', async () => {
    await ctx.database.db
      .update(incidents)
      .set({ status: 'work_in_progress', customerStarRating: null })
      .where(eq(incidents.id, incidentId));
    const open = await rate('own', { rating: 4 });
    expect(open.statusCode).toBe(400);
    expect(open.json()).toEqual({ rating: ['Only a handled incident can be rated.'] });

    await setStatus('closed');
    const before = (await get('own', `/api/v0/soc/incs/${key}/`)).json<IncidentCard>();
    expect(before.can_rate).toBe(true);
    expect((await rate('own', { rating: 6 })).json<Record<string, string[]>>().rating).toHaveLength(1);
    expect((await rate('own', { rating: 2.5 })).statusCode).toBe(400);
    expect((await rate('own', {})).json()).toEqual({ rating: ['This field is required.'] });

    const ok = await rate('own', { rating: 5, comment: '  Быстро и по делу  ' });
    expect(ok.statusCode, ok.body).toBe(200);
    const card = ok.json<IncidentCard>();
    expect(card.customer_star_rating).toBe(5);
    expect(card.customer_star_rating_comment).toBe('Быстро и по делу');
    expect(card.can_rate).toBe(false);

    const twice = await rate('own', { rating: 1 });
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toEqual({ rating: ['The incident has already been rated.'] });
    expect((await rate('other', { rating: 1 })).statusCode).toBe(404);
    const [own] = await ctx.database.db.select().from(users).where(eq(users.id, customer.id));
    expect(own).toBeDefined();
  });
});
