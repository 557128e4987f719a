import { readdirSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client.ts';
import type { TestContext } from '../test/harness.ts';
import { bearer, createTestContext } from '../test/harness.ts';
import { buildAnalyst, buildCustomer, buildDocument, buildIncident, buildSystem } from '../test/builders.ts';
import { multipart } from './openapi-operations.ts';

/** Issue 25 item 9: every multipart upload path refuses dangerous names, whatever the content. */
let ctx: TestContext;
const tokens: Record<string, string> = {};
let ownKey: number;
let ownSystem: number;
let taskId: number;
let articleId: number;

interface UploadPath {
  name: string;
  user: 'customer' | 'analyst';
  url: () => string;
  fields: () => Record<string, string>;
  /** The multipart field of the file, which the error names. */
  field: string;
}

const UPLOAD_PATHS: UploadPath[] = [
  {
    name: 'file of an incident',
    user: 'customer',
    url: () => `/api/v0/soc/incs/${ownKey}/add_file/`,
    fields: () => ({}),
    field: 'attachments',
  },
  {
    name: 'file of an incident comment',
    user: 'customer',
    url: () => `/api/v0/soc/incs/${ownKey}/comments/`,
    fields: () => ({ body: 'See the file' }),
    field: 'attachments',
  },
  {
    name: 'file of a new task',
    user: 'customer',
    url: () => '/api/v0/soc/tasks/',
    fields: () => ({ system: String(ownSystem), type: 'other', subject: 'Upload', description: 'File' }),
    field: 'attachments',
  },
  {
    name: 'file of a task message',
    user: 'customer',
    url: () => `/api/v0/soc/tasks/${taskId}/messages/`,
    fields: () => ({ body: 'See the file' }),
    field: 'attachments',
  },
  {
    name: 'file of a document',
    user: 'analyst',
    url: () => `/api/v0/soc/articles/${articleId}/attachments/`,
    fields: () => ({}),
    field: 'file',
  },
];

/** Harmless text under names that must be refused. */
const UNSAFE_NAMES = [
  'invoice.pdf.exe',
  'SETUP.MSI',
  'update.Ps1. . ',
  'photo\u202egpj.txt',
  'report\u2067.pdf',
];

function upload(p: UploadPath, filename: string, language = 'ru') {
  const { payload, headers } = multipart(p.fields(), [
    { field: p.field, name: filename, type: 'application/pdf', body: Buffer.from('just text\n') },
  ]);
  return ctx.app.inject({
    method: 'POST',
    url: p.url(),
    headers: { ...bearer(tokens[p.user]!), 'accept-language': language, ...headers },
    payload,
  });
}

const countRows = async () =>
  (
    await queryRows<{ n: string }>(
      ctx.database.db,
      sql`SELECT concat_ws('/', (SELECT count(*) FROM attachments), (SELECT count(*) FROM comments),
                 (SELECT count(*) FROM tasks), (SELECT count(*) FROM task_messages),
                 (SELECT count(*) FROM task_attachments), (SELECT count(*) FROM document_attachments)) AS n`,
    )
  )[0]!.n;

/** Every file under the storage root (stored objects and temporary files). */
function storedFiles(dir = ctx.config.filesDir): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? storedFiles(path.join(dir, e.name)) : [path.join(dir, e.name)],
    );
  } catch {
    return [];
  }
}

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  const system = await buildSystem(ctx);
  ownSystem = system.id;
  tokens.customer = await (await buildCustomer(ctx, [system.id])).login();
  tokens.analyst = await (await buildAnalyst(ctx)).login();
  ownKey = (await buildIncident(ctx, system.id)).key;
  articleId = (await buildDocument(ctx)).id;
  const { payload, headers } = multipart({
    system: String(ownSystem),
    type: 'other',
    subject: 'A',
    description: 'B',
  });
  const task = await ctx.app.inject({
    method: 'POST',
    url: '/api/v0/soc/tasks/',
    headers: { ...bearer(tokens.customer), ...headers },
    payload,
  });
  expect(task.statusCode, task.body).toBe(201);
  taskId = task.json<{ id: number }>().id;
});
afterAll(() => ctx?.close());

describe.each(UPLOAD_PATHS)('upload: $name', (p) => {
  it.each(UNSAFE_NAMES)('refuses %j with a 400 naming the file, storing nothing', async (filename) => {
    const rows = await countRows();
    const files = storedFiles().length;
    const res = await upload(p, filename);
    expect(res.statusCode, res.body).toBe(400);
    const message = res.json<Record<string, string[]>>()[p.field]?.[0] ?? '';
    // the name as shown: direction controls written out as codes
    const shown = filename
      .trim()
      .replace(/[\u202a-\u202e\u2066-\u2069]/g, (c) => `[U+${c.charCodeAt(0).toString(16).toUpperCase()}]`);
    expect(message).toContain(`«${shown}»`);
    expect(await countRows()).toBe(rows);
    expect(storedFiles()).toHaveLength(files);
  });

  it('explains the refusal in English to an English client, and accepts a harmless file', async () => {
    const refused = await upload(p, 'tool.exe', 'en');
    expect(refused.json<Record<string, string[]>>()[p.field]).toEqual([
      '"tool.exe": files of type .exe are not accepted; pack it into a password-protected archive.',
    ]);
    const rows = await countRows();
    const ok = await upload(p, 'notes.txt');
    expect([200, 201]).toContain(ok.statusCode);
    expect(await countRows()).not.toBe(rows);
  });
});
