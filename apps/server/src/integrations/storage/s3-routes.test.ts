import { createHash } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachments, reports } from '../../db/schema/index.ts';
import { buildAnalyst, buildCustomer, buildIncident, buildReport, buildSystem } from '../../test/builders.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import { multipart } from '../../test/multipart.ts';
import { startTestS3ServerOrSkip } from '../../test/s3-server.ts';
import { S3FileStorage } from './s3-storage.ts';

/*
 * Issue 31 part 2 through the API with STORAGE=s3 on a real S3-compatible server (s3rver):
 * incident files uploaded, downloaded whole and by range, removed with what refers to them; the
 * S3 service down during an upload is a 503 in the caller's language with nothing recorded, and
 * the same app works again once the service is back.
 */
const s3 = await startTestS3ServerOrSkip('S3 route tests');

let ctx: TestContext;
let token: string;
let incidentKey: number;
let systemId: number;
let lister: S3Client;
/** The app's storage: its failed aborts are tried again after 100 ms rather than 5 s. */
let storage: S3FileStorage | undefined;
const logLines: string[] = [];

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const body = (size: number, seed: number) =>
  Buffer.from(Array.from({ length: size }, (_, i) => (i * seed + 7) % 251));

async function bucketKeys(): Promise<string[]> {
  const res = await lister.send(new ListObjectsV2Command({ Bucket: s3!.settings.bucket }));
  return (res.Contents ?? []).map((o) => o.Key!).sort();
}
async function attachmentRows(): Promise<number> {
  const [row] = await ctx.database.db.select({ n: count() }).from(attachments);
  return row!.n;
}

const addFile = (file: Buffer, lang = 'en', name = 'evidence.bin') => {
  const form = multipart({}, [{ name, body: file }]);
  return ctx.app.inject({
    method: 'POST',
    url: `/api/v0/soc/incs/${incidentKey}/add_file/`,
    headers: { ...bearer(token), ...form.headers, 'accept-language': lang },
    payload: form.payload,
  });
};

beforeAll(async () => {
  if (!s3) return;
  lister = new S3Client({
    ...s3.settings,
    credentials: { accessKeyId: s3.settings.accessKeyId!, secretAccessKey: s3.settings.secretAccessKey! },
  });
  ctx = await createTestContext({
    incidents: 0,
    config: { storage: { driver: 's3', s3: s3.settings }, logLevel: 'info' },
    logStream: { write: (line) => void logLines.push(line) },
    storage: () => (storage = new S3FileStorage(s3.settings, { abortRetryMs: 100 })),
  });
  const system = await buildSystem(ctx);
  systemId = system.id;
  token = await (await buildCustomer(ctx, [system.id])).login();
  incidentKey = (await buildIncident(ctx, system.id)).key;
}, 120_000);
afterAll(async () => {
  lister?.destroy();
  await ctx?.close();
  storage?.close();
  await s3?.close();
});

describe.runIf(s3)('incident files with STORAGE=s3', () => {
  it('uploads into the bucket, downloads whole and by byte range', async () => {
    const file = body(300_000, 13);
    const before = await bucketKeys();
    const res = await addFile(file);
    expect(res.statusCode).toBe(200);
    const [attachment] = res.json<{ attachments: { id: string; size: number; link: string }[] }>()
      .attachments;
    expect(attachment!.size).toBe(file.length);
    const added = (await bucketKeys()).filter((k) => !before.includes(k));
    expect(added).toHaveLength(1);
    const [row] = await ctx.database.db.select().from(attachments).where(eq(attachments.id, attachment!.id));
    expect(row).toMatchObject({ storageKey: added[0], size: file.length, sha256: sha(file) });

    const whole = await ctx.app.inject({ method: 'GET', url: attachment!.link, headers: bearer(token) });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-length']).toBe(String(file.length));
    expect(sha(whole.rawPayload)).toBe(sha(file));

    const ranged = await ctx.app.inject({
      method: 'GET',
      url: attachment!.link,
      headers: { ...bearer(token), range: 'bytes=1000-1999' },
    });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.headers['content-range']).toBe(`bytes 1000-1999/${file.length}`);
    expect(ranged.rawPayload.equals(file.subarray(1000, 2000))).toBe(true);

    const tail = await ctx.app.inject({
      method: 'GET',
      url: attachment!.link,
      headers: { ...bearer(token), range: 'bytes=-10' },
    });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(file.subarray(file.length - 10))).toBe(true);
  });

  it('removes the staged objects when the upload is refused (quota 507): nothing left in the bucket', async () => {
    const before = { keys: await bucketKeys(), rows: await attachmentRows() };
    const { buildApp } = await import('../../app.ts');
    const tight = await buildApp({
      config: { ...ctx.config, storageQuotaBytesPerSystem: 1, logLevel: 'silent' },
      database: ctx.database,
    });
    try {
      const form = multipart({}, [
        { name: 'one.bin', body: body(1000, 3) },
        { name: 'two.bin', body: body(1000, 5) },
      ]);
      const res = await tight.inject({
        method: 'POST',
        url: `/api/v0/soc/incs/${incidentKey}/add_file/`,
        headers: { ...bearer(token), ...form.headers },
        payload: form.payload,
      });
      expect(res.statusCode).toBe(507);
    } finally {
      await tight.close();
    }
    expect(await bucketKeys()).toEqual(before.keys);
    expect(await attachmentRows()).toBe(before.rows);
  });

  it('deletes a report and its object in the bucket', async () => {
    const storage = new S3FileStorage(s3!.settings);
    try {
      const report = await buildReport(ctx, [systemId], {}, storage);
      const [row] = await ctx.database.db.select().from(reports).where(eq(reports.id, report.id));
      expect(await bucketKeys()).toContain(row!.storageKey);
      const analyst = await (await buildAnalyst(ctx)).login();
      const download = await ctx.app.inject({
        method: 'GET',
        url: `/api/v0/soc/reports/${report.id}/download/`,
        headers: bearer(analyst),
      });
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      const res = await ctx.app.inject({
        method: 'DELETE',
        url: `/api/v0/soc/reports/${report.id}/`,
        headers: bearer(analyst),
      });
      expect(res.statusCode).toBe(204);
      expect(await bucketKeys()).not.toContain(row!.storageKey);
    } finally {
      storage.close();
    }
  });

  it('answers 503 in the caller’s language when S3 goes down during an upload, records nothing, and works again once it is back', async () => {
    const before = { keys: await bucketKeys(), rows: await attachmentRows() };
    // a 12 MB upload (a multipart upload): the service goes down once it has received the first part
    const file = body(12 * 1024 * 1024, 11);
    const form = multipart({}, [{ name: 'big.bin', body: file }]);
    const payload = new PassThrough();
    const pending = ctx.app.inject({
      method: 'POST',
      url: `/api/v0/soc/incs/${incidentKey}/add_file/`,
      headers: { ...bearer(token), ...form.headers, 'accept-language': 'en' },
      payload,
    });
    const partsBefore = await s3!.partsReceived();
    payload.write(form.payload.subarray(0, 6 * 1024 * 1024));
    await expect
      .poll(() => s3!.partsReceived(), { timeout: 15_000, interval: 50 })
      .toBeGreaterThan(partsBefore);
    await s3!.proxy.cut();
    payload.end(form.payload.subarray(6 * 1024 * 1024));
    const res = await pending;
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBeDefined();
    expect(res.json()).toEqual({
      detail: 'The file storage is temporarily unavailable; nothing was saved. Try again shortly.',
    });
    const ru = await addFile(body(1000, 2), 'ru');
    expect(ru.statusCode).toBe(503);
    expect(ru.json<{ detail: string }>().detail).toMatch(/^Хранилище файлов временно недоступно/);
    expect(await attachmentRows()).toBe(before.rows);
    // a download meanwhile: the same 503 before any byte, not a 200 that breaks off
    const [stored] = await ctx.database.db.select().from(attachments).limit(1);
    const down = await ctx.app.inject({
      method: 'GET',
      url: `/api/v0/soc/incs/${incidentKey}/attachments/${stored!.id}/download/`,
      headers: bearer(token),
    });
    expect(down.statusCode).toBe(503);

    await s3!.proxy.restore();
    expect(await bucketKeys()).toEqual(before.keys);
    const again = await addFile(file);
    expect(again.statusCode).toBe(200);
    expect(await attachmentRows()).toBe(before.rows + 1);
    const [attachment] = again.json<{ attachments: { link: string }[] }>().attachments;
    const ranged = await ctx.app.inject({
      method: 'GET',
      url: attachment!.link,
      headers: { ...bearer(token), range: `bytes=${5 * 1024 * 1024 - 5}-${5 * 1024 * 1024 + 4}` },
    });
    expect(ranged.rawPayload.equals(file.subarray(5 * 1024 * 1024 - 5, 5 * 1024 * 1024 + 5))).toBe(true);
  });

  it('answers the same 503 for a large upload cut while its parts are in flight, in en and ru, and aborts its parts once S3 is back', async () => {
    const texts = {
      en: /^The file storage is temporarily unavailable; nothing was saved/,
      ru: /^Хранилище файлов временно недоступно/,
    };
    for (const lang of ['en', 'ru'] as const) {
      const before = { keys: await bucketKeys(), rows: await attachmentRows(), aborted: s3!.aborted.length };
      const file = body(16 * 1024 * 1024, lang === 'en' ? 7 : 9);
      const form = multipart({}, [{ name: 'streamed.bin', body: file }]);
      const partsBefore = await s3!.partsReceived();
      // the body arrives as from a client on the network, 64 KB at a time
      const payload = Readable.from(
        (async function* () {
          for (let at = 0; at < form.payload.length; at += 64 * 1024) {
            yield form.payload.subarray(at, at + 64 * 1024);
            await new Promise((resolve) => setImmediate(resolve));
          }
        })(),
      );
      const pending = ctx.app.inject({
        method: 'POST',
        url: `/api/v0/soc/incs/${incidentKey}/add_file/`,
        headers: { ...bearer(token), ...form.headers, 'accept-language': lang },
        payload,
      });
      // the service goes down once it has stored the first part, while the next is on its way
      await expect
        .poll(() => s3!.partsReceived(), { timeout: 15_000, interval: 20 })
        .toBeGreaterThan(partsBefore);
      await s3!.proxy.cut();
      const res = await pending;
      expect(res.statusCode, res.body).toBe(503);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(Object.keys(res.json<object>())).toEqual(['detail']);
      expect(res.json<{ detail: string }>().detail).toMatch(texts[lang]);
      expect(await attachmentRows()).toBe(before.rows);

      await s3!.proxy.restore();
      expect(await bucketKeys()).toEqual(before.keys);
      // no orphan parts: the upload is aborted once the service answers again
      await expect
        .poll(() => s3!.aborted.length, { timeout: 15_000, interval: 50 })
        .toBeGreaterThan(before.aborted);
      await expect.poll(() => s3!.partsReceived(), { timeout: 15_000, interval: 50 }).toBe(0);
    }
    const file = body(12 * 1024 * 1024, 5);
    const again = await addFile(file);
    expect(again.statusCode).toBe(200);
    const [attachment] = again.json<{ attachments: { link: string }[] }>().attachments;
    const whole = await ctx.app.inject({ method: 'GET', url: attachment!.link, headers: bearer(token) });
    expect(sha(whole.rawPayload)).toBe(sha(file));
    expect(await s3!.partsReceived()).toBe(0);
  });

  it('logs the outage without the S3 credentials, and redacts the secret wherever it is logged', () => {
    const log = logLines.join('');
    expect(log).toContain('file storage unavailable');
    expect(log).not.toContain(s3!.settings.secretAccessKey);
    const secret = 'a-secret-that-must-not-be-logged';
    const settings = { ...s3!.settings, secretAccessKey: secret };
    ctx.app.log.info({ s3: settings }, 'storage settings');
    ctx.app.log.info({ storage: { driver: 's3', s3: settings } }, 'storage settings');
    const lines = logLines.filter((l) => l.includes('storage settings'));
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).not.toContain(secret);
      expect(line).toContain('[Redacted]');
    }
  });
});
