import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Attachment, DocumentAttachment, DocumentCard, FileInfo } from '@soc/contracts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import { buildAnalyst, buildCustomer, buildIncident, buildSystem } from '../../test/builders.ts';
import { multipart } from '../../test/multipart.ts';

let ctx: TestContext;
const tokens: Record<string, string> = {};
const API = '/api/v0/soc';
const BODY = '{"журнал": "событий", "n": 1234567890}';
/** Viewer paths of the customer's attachment and of another tenant's (the stranger's). */
let ownPath: string;
let othersPath: string;
let docPath: string;

const get = (user: string, url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url, headers: { ...bearer(tokens[user]!), ...headers } });

const form = (field: string, name: string, type: string, body: Buffer) =>
  multipart({}, [{ field, name, type, body }]);
const post = (user: string, url: string, body: ReturnType<typeof multipart>) =>
  ctx.app.inject({
    method: 'POST',
    url,
    headers: { ...bearer(tokens[user]!), ...body.headers },
    payload: body.payload,
  });

async function attach(user: string, key: number, name: string): Promise<string> {
  const res = await post(
    user,
    `${API}/incs/${key}/add_file/`,
    form('attachments', name, 'application/json', Buffer.from(BODY)),
  );
  expect(res.statusCode, res.body).toBe(200);
  const [file] = res.json<{ attachments: Attachment[] }>().attachments;
  return `incidents/${key}/${file!.id}`;
}

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  const [own, other] = [await buildSystem(ctx), await buildSystem(ctx)];
  tokens.customer = await (await buildCustomer(ctx, [own.id])).login();
  tokens.stranger = await (await buildCustomer(ctx, [other.id])).login();
  tokens.analyst = await (await buildAnalyst(ctx)).login();
  ownPath = await attach('customer', (await buildIncident(ctx, own.id)).key, 'журнал.json');
  othersPath = await attach('stranger', (await buildIncident(ctx, other.id)).key, 'other.json');
  const doc = await ctx.app.inject({
    method: 'POST',
    url: `${API}/instructions/`,
    headers: bearer(tokens.analyst),
    payload: { title: 'Files test', description: 'x', language: 'en' },
  });
  const card = doc.json<DocumentCard>();
  const up = await post(
    'analyst',
    `${API}/instructions/${card.id}/attachments/`,
    form('file', 'notes.txt', 'text/plain', Buffer.from('plain notes')),
  );
  expect(up.statusCode, up.body).toBe(201);
  docPath = `instructions/${card.id}/${up.json<DocumentAttachment>().id}`;
});
afterAll(async () => ctx?.close());

describe('GET /soc/files/{path}/', () => {
  it('names a file the caller may see', async () => {
    const res = await get('customer', `${API}/files/${ownPath}/`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<FileInfo>()).toEqual({
      filename: 'журнал.json',
      content_type: 'application/json',
      size: Buffer.byteLength(BODY),
    });
    // the documented single-segment form with encoded slashes
    const encoded = await get('customer', `${API}/files/${encodeURIComponent(ownPath)}/`);
    expect(encoded.json<FileInfo>().filename).toBe('журнал.json');
    expect((await get('stranger', `${API}/files/${docPath}/`)).json<FileInfo>().filename).toBe('notes.txt');
  });

  it('answers 404 for another tenant’s file, unknown kinds and traversal paths', async () => {
    expect((await get('customer', `${API}/files/${othersPath}/`)).statusCode).toBe(404);
    expect((await get('customer', `${API}/files/${othersPath}/download/`)).statusCode).toBe(404);
    expect((await get('stranger', `${API}/files/${othersPath}/download/`)).statusCode).toBe(200);
    const [, key, id] = ownPath.split('/');
    const probes = [
      `${API}/files/../../../etc/passwd/`,
      `${API}/files/incidents/${key}/../../../etc/passwd/download/`,
      `${API}/files/incidents/${key}/%2e%2e%2f%2e%2e%2fetc%2fpasswd/download/`,
      `${API}/files/${encodeURIComponent(`../objects/attachments/${id}`)}/download/`,
      `${API}/files/attachments/${id}/download/`,
      `${API}/files/incidents/${key}/${id}%2f..%2f..%2f..%2fetc%2fpasswd/download/`,
      `${API}/files/instructions/1/1/..%2f..%2fx/`,
      `${API}/files/incidents/99999999/${id}/`,
    ];
    for (const url of probes) {
      const res = await get('customer', url);
      expect([404], url).toContain(res.statusCode);
      expect(res.body).not.toContain('root:');
    }
  });

  it('needs a signed-in caller', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: `${API}/files/${ownPath}/` });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /soc/files/{path}/download/', () => {
  it('streams the body with type, length and disposition', async () => {
    const res = await get('customer', `${API}/files/${ownPath}/download/`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(BODY)));
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(String(res.headers['content-disposition'])).toContain("filename*=UTF-8''%D0%B6");
    expect(res.body).toBe(BODY);
    const doc = await get('customer', `${API}/files/${encodeURIComponent(docPath)}/download/`);
    expect(doc.body).toBe('plain notes');
  });

  it('serves single byte ranges and refuses unsatisfiable ones', async () => {
    const part = await get('customer', `${API}/files/${ownPath}/download/`, { range: 'bytes=0-0' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-0/${Buffer.byteLength(BODY)}`);
    expect(part.body).toBe('{');
    const bad = await get('customer', `${API}/files/${ownPath}/download/`, { range: 'bytes=99999-' });
    expect(bad.statusCode).toBe(416);
  });
});
