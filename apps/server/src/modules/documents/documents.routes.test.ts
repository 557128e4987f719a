import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  DocumentCard,
  DocumentComment,
  DocumentHistoryResponse,
  DocumentLanguagesResponse,
  DocumentListResponse,
} from '@soc/contracts';
import { auditLog, documentVersions } from '../../db/schema/index.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import { buildAnalyst, buildCustomer, buildSystem, buildUser } from '../../test/builders.ts';
import type { MultipartFile } from '../../test/multipart.ts';
import { multipart } from '../../test/multipart.ts';
import { solidPng } from './png.ts';

const run = promisify(execFile);
let ctx: TestContext;
let dir: string;
/** `customer` and `stranger` are customers of two different systems. */
const tokens: Record<string, string> = {};
const API = '/api/v0/soc';
/** Unique per run, so that demo documents never match the filters of these tests. */
const TAG = 'zz-test-doc';

const form = (fields: Record<string, string>, file?: MultipartFile) => multipart(fields, file ? [file] : []);

const get = (user: string, url: string) =>
  ctx.app.inject({ method: 'GET', url, headers: bearer(tokens[user]!) });
const send = (user: string, method: 'POST' | 'PATCH', url: string, payload: object) =>
  ctx.app.inject({ method, url, headers: bearer(tokens[user]!), payload });
const postForm = (user: string, url: string, body: ReturnType<typeof form>) =>
  ctx.app.inject({
    method: 'POST',
    url,
    headers: { ...bearer(tokens[user]!), ...body.headers },
    payload: body.payload,
  });

async function create(path_: string, payload: Record<string, unknown>): Promise<DocumentCard> {
  const res = await send('analyst', 'POST', `${API}/${path_}/`, { tags: [TAG], ...payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<DocumentCard>();
}

async function pdfText(pdf: Buffer): Promise<string> {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  await writeFile(file, pdf);
  const { stdout } = await run('pdftotext', ['-enc', 'UTF-8', '-layout', file, '-']);
  return stdout;
}

let ruInstruction: DocumentCard;
let enInstruction: DocumentCard;
let oldInstruction: DocumentCard;
let article: DocumentCard;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'soc-docs-'));
  ctx = await createTestContext({ incidents: 0 });
  tokens.customer = await (await buildCustomer(ctx, [(await buildSystem(ctx)).id])).login();
  tokens.stranger = await (await buildCustomer(ctx, [(await buildSystem(ctx)).id])).login();
  tokens.analyst = await (await buildAnalyst(ctx)).login();
  tokens.admin = await (await buildUser(ctx, { role: 'admin' })).login();
  oldInstruction = await create('instructions', {
    title: 'Бэкап журналов',
    description: 'Старая инструкция про **резервные копии**.',
    language: 'ru',
    sensors: ['Sysmon'],
    tags: [TAG, 'backup'],
  });
  ruInstruction = await create('instructions', {
    title: 'Изоляция хоста',
    description: '# Шаги\n\nОтключите узел от сети.',
    language: 'ru',
    sensors: ['EDR', 'Sysmon'],
    tags: [TAG, 'edr'],
  });
  enInstruction = await create('instructions', {
    title: 'Host isolation',
    description: '# Steps\n\nDisconnect the host.',
    language: 'en',
    sensors: ['EDR'],
    tags: [TAG, 'edr'],
    document: ruInstruction.document,
  });
  article = await create('articles', {
    title: 'Фишинг: как распознать',
    description: 'Первый вариант статьи.',
    language: 'ru',
    comment: 'Первая версия',
  });
});
afterAll(async () => {
  await ctx?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('documents list', () => {
  it('filters by tag, language, sensors, search and dates; orders by last update by default', async () => {
    const all = (await get('customer', `${API}/instructions/?tags__in=${TAG}`)).json<DocumentListResponse>();
    expect(all.total).toBe(3);
    // default: last update descending
    expect(all.results.map((r) => r.id)).toEqual([enInstruction.id, ruInstruction.id, oldInstruction.id]);
    expect(all.next).toBeNull();

    const ru = (
      await get('customer', `${API}/instructions/?tags__in=${TAG}&language=ru`)
    ).json<DocumentListResponse>();
    expect(ru.results.map((r) => r.id)).toEqual([ruInstruction.id, oldInstruction.id]);

    const sensors = (
      await get('customer', `${API}/instructions/?tags__in=${TAG}&sensors__in=Sysmon`)
    ).json<DocumentListResponse>();
    expect(sensors.results.map((r) => r.id).sort()).toEqual([oldInstruction.id, ruInstruction.id].sort());

    const search = (
      await get(
        'customer',
        `${API}/instructions/?tags__in=${TAG}&search=${encodeURIComponent('  резервные ')}`,
      )
    ).json<DocumentListResponse>();
    expect(search.results.map((r) => r.id)).toEqual([oldInstruction.id]);

    const future = (
      await get('customer', `${API}/instructions/?tags__in=${TAG}&created__gte=2999-01-01`)
    ).json<DocumentListResponse>();
    expect(future.total).toBe(0);
    const past = (
      await get('customer', `${API}/instructions/?tags__in=${TAG}&updated__lte=2999-01-01T23:59:59.999Z`)
    ).json<DocumentListResponse>();
    expect(past.total).toBe(3);

    const item = all.results.find((r) => r.id === ruInstruction.id)!;
    // the heading and the paragraph stay on their own lines
    expect(item.summary).toBe('Шаги\nОтключите узел от сети.');
    expect(item.sensors).toEqual(['EDR', 'Sysmon']);
  });

  it('orders by title and created, and pages with next/previous', async () => {
    const byTitle = (
      await get('customer', `${API}/instructions/?tags__in=${TAG}&ordering=title`)
    ).json<DocumentListResponse>();
    expect(byTitle.results.map((r) => r.title)).toEqual([
      'Host isolation',
      'Бэкап журналов',
      'Изоляция хоста',
    ]);
    const byTitleDesc = (
      await get('customer', `${API}/instructions/?tags__in=${TAG}&ordering=-title`)
    ).json<DocumentListResponse>();
    expect(byTitleDesc.results.map((r) => r.title)).toEqual([
      'Изоляция хоста',
      'Бэкап журналов',
      'Host isolation',
    ]);
    const created = (
      await get('customer', `${API}/instructions/?tags__in=${TAG}&ordering=created&page_size=2`)
    ).json<DocumentListResponse>();
    expect(created.total).toBe(3);
    expect(created.results.map((r) => r.id)).toEqual([oldInstruction.id, ruInstruction.id]);
    expect(created.next).toContain('page=2');
    const page2 = (
      await get('customer', `${API}/instructions/?tags__in=${TAG}&ordering=created&page_size=2&page=2`)
    ).json<DocumentListResponse>();
    expect(page2.results.map((r) => r.id)).toEqual([enInstruction.id]);
    expect(page2.previous).toContain('page=1');
    expect(page2.next).toBeNull();
  });

  it('rejects unknown filters, bad values and sensors outside instructions with 400', async () => {
    const unknown = await get('customer', `${API}/instructions/?colour=red`);
    expect(unknown.statusCode).toBe(400);
    expect(Object.keys(unknown.json())).toContain('colour');
    expect((await get('customer', `${API}/instructions/?ordering=author`)).statusCode).toBe(400);
    expect((await get('customer', `${API}/instructions/?created__gte=yesterday`)).statusCode).toBe(400);
    const sensors = await get('customer', `${API}/articles/?sensors__in=EDR`);
    expect(sensors.statusCode).toBe(400);
    expect(sensors.json()).toHaveProperty('sensors__in');
  });

  it('lists the languages a kind exists in, and the filter choices', async () => {
    const langs = (await get('customer', `${API}/instructions/languages/`)).json<DocumentLanguagesResponse>();
    const byLang = Object.fromEntries(langs.results.map((l) => [l.language, l.count]));
    expect(byLang.ru).toBeGreaterThanOrEqual(2);
    expect(byLang.en).toBeGreaterThanOrEqual(1);
    const tags = (await get('customer', `${API}/instructions/tags/`)).json<{ results: string[] }>();
    expect(tags.results).toEqual(expect.arrayContaining([TAG, 'backup', 'edr']));
    const sensors = (await get('customer', `${API}/instructions/sensors/`)).json<{ results: string[] }>();
    expect(sensors.results).toEqual(expect.arrayContaining(['EDR', 'Sysmon']));
    expect((await get('customer', `${API}/articles/sensors/`)).statusCode).toBe(404);
  });

  it('needs authorisation', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: `${API}/instructions/` })).statusCode).toBe(401);
  });
});

describe('document card and language variants', () => {
  it('links the language variants through the shared document id', async () => {
    const res = await get('stranger', `${API}/instructions/${ruInstruction.id}/`);
    expect(res.statusCode).toBe(200);
    const card = res.json<DocumentCard>();
    expect(card.document).toBe(enInstruction.document);
    expect(card.languages).toEqual([
      { language: 'en', id: enInstruction.id },
      { language: 'ru', id: ruInstruction.id },
    ]);
    expect(card.description_html).toContain('<h1>Шаги</h1>');
    expect(card.can_edit).toBe(false);
    const byDocument = (
      await get('stranger', `${API}/instructions/?document=${ruInstruction.document}`)
    ).json<DocumentListResponse>();
    expect(byDocument.total).toBe(2);
  });

  it('refuses a second variant in the same language or of another kind', async () => {
    const same = await send('analyst', 'POST', `${API}/instructions/`, {
      title: 'Дубль',
      language: 'ru',
      document: ruInstruction.document,
    });
    expect(same.statusCode).toBe(400);
    expect(same.json()).toHaveProperty('language');
    const other = await send('analyst', 'POST', `${API}/articles/`, {
      title: 'Other',
      language: 'en',
      document: ruInstruction.document,
    });
    expect(other.statusCode).toBe(400);
    expect(other.json()).toHaveProperty('document');
  });

  it('answers 404 for a missing id or an id of another kind', async () => {
    expect((await get('customer', `${API}/instructions/999999/`)).statusCode).toBe(404);
    expect((await get('customer', `${API}/articles/${ruInstruction.id}/`)).statusCode).toBe(404);
    expect((await get('customer', `${API}/response_instructions/${article.id}/history/`)).statusCode).toBe(
      404,
    );
    expect((await get('customer', `${API}/articles/999999/comments/`)).statusCode).toBe(404);
    expect((await get('customer', `${API}/articles/999999/download_pdf/`)).statusCode).toBe(404);
  });

  it('neutralises hostile Markdown: scripts, javascript: links, remote images', async () => {
    const hostile = await create('articles', {
      title: 'Hostile',
      language: 'en',
      description:
        '<script>alert(1)</script>\n\n![inc](/api/v0/soc/incs/1/attachments/2/) [click](javascript:alert(2)) <img src=x onerror="alert(3)">\n\n![pixel](https://tracker.example/p.png)\n\n<a href="https://ok.example/">ok</a>',
    });
    const html = hostile.description_html;
    expect(html).not.toMatch(/<script|javascript:|onerror|tracker\.example|<img/i);
    expect(html).toContain('href="https://ok.example/"');
    const version = (
      await get('customer', `${API}/articles/${hostile.id}/history/`)
    ).json<DocumentHistoryResponse>();
    expect(version.results[0]!.data.description_html).not.toMatch(/<script|tracker\.example/);
  });
});

describe('roles', () => {
  it('lets analysts and admins create and edit, customers only read', async () => {
    const byCustomer = await send('customer', 'POST', `${API}/instructions/`, {
      title: 'Моя',
      language: 'ru',
    });
    expect(byCustomer.statusCode).toBe(403);
    const edit = await send('customer', 'PATCH', `${API}/instructions/${ruInstruction.id}/`, {
      title: 'Взлом',
    });
    expect(edit.statusCode).toBe(403);
    const upload = await postForm(
      'customer',
      `${API}/instructions/${ruInstruction.id}/attachments/`,
      form({}, { field: 'file', name: 'a.png', type: 'image/png', body: solidPng(2, 2, [0, 0, 0]) }),
    );
    expect(upload.statusCode).toBe(403);
    const byAdmin = await send('admin', 'POST', `${API}/response_instructions/`, {
      title: 'Ransomware response',
      language: 'en',
      tags: [TAG],
    });
    expect(byAdmin.statusCode).toBe(201);
    expect(byAdmin.json<DocumentCard>().can_edit).toBe(true);
  });

  it('validates the create payload', async () => {
    const blank = await send('analyst', 'POST', `${API}/articles/`, { title: '  ', language: 'de' });
    expect(blank.statusCode).toBe(400);
    expect(Object.keys(blank.json()).sort()).toEqual(['language', 'title']);
    const sensors = await send('analyst', 'POST', `${API}/articles/`, {
      title: 'x',
      language: 'en',
      sensors: ['EDR'],
    });
    expect(sensors.statusCode).toBe(400);
    expect(sensors.json()).toHaveProperty('sensors');
  });
});

describe('versions', () => {
  it('creates a version on every edit, newest first, with comment and description', async () => {
    const edited = await send('analyst', 'PATCH', `${API}/articles/${article.id}/`, {
      description: 'Второй вариант статьи.',
      comment: 'Уточнены признаки',
    });
    expect(edited.statusCode).toBe(200);
    const card = edited.json<DocumentCard>();
    expect(card.description).toBe('Второй вариант статьи.');
    expect(card.versions_count).toBe(2);
    expect(Date.parse(card.updated)).toBeGreaterThan(Date.parse(article.updated));
    await send('analyst', 'PATCH', `${API}/articles/${article.id}/`, { title: 'Фишинг: признаки' });

    const history = (
      await get('customer', `${API}/articles/${article.id}/history/`)
    ).json<DocumentHistoryResponse>();
    expect(history.total).toBe(3);
    expect(history.results.map((v) => [v.comment, v.data.description, v.data.title])).toEqual([
      ['', 'Второй вариант статьи.', 'Фишинг: признаки'],
      ['Уточнены признаки', 'Второй вариант статьи.', 'Фишинг: как распознать'],
      ['Первая версия', 'Первый вариант статьи.', 'Фишинг: как распознать'],
    ]);
    expect(history.results[0]!.date_created).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const rows = await ctx.database.db
      .select()
      .from(documentVersions)
      .where(eq(documentVersions.documentId, article.id));
    expect(rows).toHaveLength(3);
    const audits = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'document.update'), eq(auditLog.objectId, String(article.id))));
    expect(audits).toHaveLength(2);

    const nothing = await send('analyst', 'PATCH', `${API}/articles/${article.id}/`, {
      comment: 'только комментарий',
    });
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json()).toHaveProperty('non_field_errors');
    const bad = await send('analyst', 'PATCH', `${API}/articles/${article.id}/`, { title: '' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('title');
    expect(
      (await get('customer', `${API}/articles/${article.id}/history/`)).json<DocumentHistoryResponse>().total,
    ).toBe(3);
  });
});

describe('comments', () => {
  it('adds comments from the multipart field text and lists them oldest first', async () => {
    const url = `${API}/instructions/${oldInstruction.id}/comments/`;
    const first = await postForm('customer', url, form({ text: '  Спасибо, **помогло**  ' }));
    expect(first.statusCode, first.body).toBe(201);
    const comment = first.json<DocumentComment>();
    expect(comment.body).toBe('<p>Спасибо, <strong>помогло</strong></p>');
    expect(comment.source).toBe('API');
    expect(comment.is_mine).toBe(true);
    expect(comment.from_soc).toBe(false);
    const staff = await postForm(
      'analyst',
      url,
      form({ text: 'Дополнили раздел <script>alert(1)</script>' }),
    );
    expect(staff.statusCode).toBe(201);
    // typed HTML is text, as in incident comments
    expect(staff.json<DocumentComment>().body).toBe(
      '<p>Дополнили раздел &lt;script&gt;alert(1)&lt;/script&gt;</p>',
    );

    const list = (await get('customer', url)).json<{ total: number; results: DocumentComment[] }>();
    expect(list.total).toBe(2);
    expect(list.results.map((c) => c.from_soc)).toEqual([false, true]);
    // another customer's staff-visible comment is not shown to a customer of another tenant
    const theirs = (await get('stranger', url)).json<{ total: number; results: DocumentComment[] }>();
    expect(theirs.results.map((c) => c.from_soc)).toEqual([true]);
    const analyst = (await get('analyst', url)).json<{ total: number; results: DocumentComment[] }>();
    expect(analyst.total).toBe(2);
  });

  it('validates the comment text', async () => {
    const url = `${API}/instructions/${oldInstruction.id}/comments/`;
    const blank = await postForm('customer', url, form({ text: '   ' }));
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toEqual({ text: ['This field may not be blank.'] });
    const missing = await postForm('customer', url, form({}));
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toHaveProperty('text');
    const extra = await postForm('customer', url, form({ text: 'ok', colour: 'red' }));
    expect(extra.statusCode).toBe(400);
    const long = await postForm('customer', url, form({ text: 'x'.repeat(10_001) }));
    expect(long.statusCode).toBe(400);
    const json = await send('customer', 'POST', url, { text: 'hi' });
    expect(json.statusCode).toBe(415);
    expect(
      (await postForm('customer', `${API}/instructions/999999/comments/`, form({ text: 'hi' }))).statusCode,
    ).toBe(404);
  });
});

describe('images and PDF', () => {
  it('serves an uploaded image only with a token and embeds it in the PDF', async () => {
    const upload = await postForm(
      'analyst',
      `${API}/articles/${article.id}/attachments/`,
      form(
        {},
        { field: 'file', name: 'схема.png', type: 'image/png', body: solidPng(40, 20, [200, 30, 30]) },
      ),
    );
    expect(upload.statusCode, upload.body).toBe(201);
    const attachment = upload.json<{ id: number; link: string; content_type: string }>();
    expect(attachment.content_type).toBe('image/png');
    expect(attachment.link).toBe(`/api/v0/soc/articles/${article.id}/attachments/${attachment.id}/`);

    const anonymous = await ctx.app.inject({ method: 'GET', url: attachment.link });
    expect(anonymous.statusCode).toBe(401);
    const image = await get('stranger', attachment.link);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    expect(
      (await get('stranger', `${API}/instructions/${article.id}/attachments/${attachment.id}/`)).statusCode,
    ).toBe(404);

    const edited = await send('analyst', 'PATCH', `${API}/articles/${article.id}/`, {
      description: `Схема атаки:\n\n![схема](${attachment.link})\n\nКонец текста.`,
    });
    const card = edited.json<DocumentCard>();
    expect(card.description_html).toContain(`<img src="${attachment.link}" alt="схема" />`);
    expect(card.attachments.map((a) => a.filename)).toEqual(['схема.png']);

    const pdf = await get('customer', `${API}/articles/${article.id}/download_pdf/`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(
      `attachment; filename="${card.title.replace(/[^\x20-\x7e]/g, '_')}.pdf"; filename*=UTF-8''${encodeURIComponent(`${card.title}.pdf`)}`,
    );
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('Фишинг: признаки');
    expect(text).toContain('Схема атаки:');
    expect(text).toContain('Конец текста.');
    const file = path.join(dir, 'article.pdf');
    await writeFile(file, pdf.rawPayload);
    const images = await run('pdfimages', ['-list', file]);
    expect(images.stdout).toMatch(/\s40\s+20\s/);
  });

  it('keeps the Markdown structure of the body: headings, numbered and nested lists, tables, bold', async () => {
    const structured = await create('articles', {
      title: 'Structured article',
      language: 'en',
      description: [
        '## Signs of phishing',
        '',
        'Check the sender **before** you click.',
        '',
        '1. Look at the address',
        '2. Hover over links',
        '   - the domain must be ours',
        '   - no IP addresses',
        '3. Report it',
        '',
        '| Sign | Weight |',
        '| --- | --- |',
        '| Urgency | high |',
        '| Typos | medium |',
      ].join('\n'),
    });
    const pdf = await get('customer', `${API}/articles/${structured.id}/download_pdf/`);
    expect(pdf.statusCode).toBe(200);
    const lines = (await pdfText(pdf.rawPayload)).split('\n').map((l) => l.trimEnd());
    const line = (part: string) => lines.find((l) => l.includes(part)) ?? '';
    expect(line('Signs of phishing').trim()).toBe('Signs of phishing');
    expect(line('Check the sender').trim()).toBe('Check the sender before you click.');
    expect(line('Look at the address')).toMatch(/^\s*1\.\s+Look at the address$/);
    expect(line('Hover over links')).toMatch(/^\s*2\.\s+Hover over links$/);
    expect(line('the domain must be ours')).toMatch(/^\s*◦\s+the domain must be ours$/);
    expect(line('Report it')).toMatch(/^\s*3\.\s+Report it$/);
    expect(line('Weight')).toMatch(/^\s*Sign\s+Weight$/);
    expect(line('Urgency')).toMatch(/^\s*Urgency\s+high$/);
    expect(line('Typos')).toMatch(/^\s*Typos\s+medium$/);
    const file = path.join(dir, 'structured.pdf');
    await writeFile(file, pdf.rawPayload);
    expect((await run('pdffonts', [file])).stdout).toMatch(/DejaVuSans-Bold\b/);
  });

  it('renders an instruction PDF with sensors in Cyrillic', async () => {
    const pdf = await get('stranger', `${API}/instructions/${ruInstruction.id}/download_pdf/`);
    expect(pdf.statusCode).toBe(200);
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('Изоляция хоста');
    expect(text).toContain('Сенсоры');
    expect(text).toContain('EDR, Sysmon');
    expect(text).toContain('Отключите узел от сети.');
  });

  it('refuses an empty upload and serves 404 for a missing attachment', async () => {
    const empty = await postForm(
      'analyst',
      `${API}/articles/${article.id}/attachments/`,
      form({}, { field: 'file', name: 'a.png', type: 'image/png', body: Buffer.alloc(0) }),
    );
    expect(empty.statusCode).toBe(400);
    const none = await postForm('analyst', `${API}/articles/${article.id}/attachments/`, form({ x: '1' }));
    expect(none.statusCode).toBe(400);
    expect((await get('customer', `${API}/articles/${article.id}/attachments/999999/`)).statusCode).toBe(404);
  });
});

describe('demo documents', () => {
  it('has every kind in ru and en, language pairs, versions, comments and a served image', async () => {
    for (const kind of ['instructions', 'response_instructions', 'articles']) {
      const langs = (await get('customer', `${API}/${kind}/languages/`)).json<DocumentLanguagesResponse>();
      expect(langs.results.map((l) => l.language).sort(), kind).toEqual(['en', 'ru']);
    }
    const demo = (await get('customer', `${API}/instructions/?no_page=true`)).json<DocumentListResponse>();
    const pairs = demo.results.filter((d) => !d.tags.includes(TAG) && d.languages.length === 2);
    expect(pairs.length).toBeGreaterThanOrEqual(2);
    const withImage = demo.results.find((d) => !d.tags.includes(TAG) && d.attachments.length > 0);
    expect(withImage).toBeDefined();
    const card = (await get('customer', `${API}/instructions/${withImage!.id}/`)).json<DocumentCard>();
    const link = withImage!.attachments[0]!.link;
    expect(card.description_html).toContain(`src="${link}"`);
    const image = await get('customer', link);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');

    const responses = (
      await get('customer', `${API}/response_instructions/?no_page=true`)
    ).json<DocumentListResponse>();
    let versions = 0;
    let comments = 0;
    for (const r of responses.results.filter((d) => !d.tags.includes(TAG))) {
      versions = Math.max(
        versions,
        (
          await get('analyst', `${API}/response_instructions/${r.id}/history/`)
        ).json<DocumentHistoryResponse>().total,
      );
      comments += (await get('analyst', `${API}/response_instructions/${r.id}/comments/`)).json<{
        total: number;
      }>().total;
    }
    expect(versions).toBeGreaterThanOrEqual(3);
    expect(comments).toBeGreaterThan(0);
  });
});
