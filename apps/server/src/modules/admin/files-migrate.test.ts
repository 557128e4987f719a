import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import type { FileStorage, StorageDriver } from '../../integrations/storage/file-storage.ts';
import { LocalFileStorage } from '../../integrations/storage/local-storage.ts';
import { S3FileStorage } from '../../integrations/storage/s3-storage.ts';
import { buildCustomer, buildIncident, buildReport, buildSystem } from '../../test/builders.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import { multipart } from '../../test/multipart.ts';
import { startTestS3ServerOrSkip } from '../../test/s3-server.ts';
import { CommandFailed, runAdminCommand } from './admin.commands.ts';
import { createFilesMigrateRepository } from './files-migrate.repository.ts';

/*
 * Issue 31 part 2: `npm run admin -- files migrate --to s3` (and back) copies every stored file,
 * verifies each copy's SHA-256 and resumes after an interruption.
 */
const s3 = await startTestS3ServerOrSkip('files migrate tests');

let ctx: TestContext;
let token: string;
let incidentKey: number;
const scratch = mkdtempSync(path.join(tmpdir(), 'soc-migrate-back-'));
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** The migration's storages: S3 through the test server, the local folder of the app or `localDir`. */
function storages(localDir: string, onPut?: (done: number) => Promise<void>) {
  return (driver: StorageDriver): FileStorage => {
    if (driver === 'local') return new LocalFileStorage(localDir);
    const s3Storage = new S3FileStorage(s3!.settings);
    if (!onPut) return s3Storage;
    let puts = 0;
    // counts the copies and lets the test cut the service after some of them
    return Object.assign(Object.create(s3Storage) as S3FileStorage, {
      putAt: async (key: string, source: Readable) => {
        const stored = await s3Storage.putAt(key, source);
        await onPut(++puts);
        return stored;
      },
    });
  };
}

async function migrate(to: 's3' | 'local', openStorage: (d: StorageDriver) => FileStorage) {
  const lines: string[] = [];
  try {
    const out = await runAdminCommand(['files', 'migrate', '--to', to, '--concurrency', '1'], {
      db: ctx.database.db,
      config: ctx.config,
      log: (line) => lines.push(line),
      openStorage,
    });
    return { ok: true, summary: JSON.parse(out) as Record<string, unknown>, lines };
  } catch (err) {
    if (!(err instanceof CommandFailed)) throw err;
    return { ok: false, summary: JSON.parse(err.output) as Record<string, unknown>, lines };
  }
}

/** Every file the database refers to, read from `storage`, against its recorded checksum (or `null` when missing). */
async function verify(storage: FileStorage): Promise<{ files: number; bad: string[] }> {
  const bad: string[] = [];
  let files = 0;
  for await (const f of createFilesMigrateRepository(ctx.database.db).storedFiles()) {
    files++;
    const bytes = await buffer(await storage.open(f.key)).catch(() => null);
    if (!bytes || (f.sha256 && sha(bytes) !== f.sha256) || (f.size !== null && bytes.length !== f.size)) {
      bad.push(f.key);
    }
  }
  return { files, bad };
}

beforeAll(async () => {
  if (!s3) return;
  ctx = await createTestContext({ incidents: 0 });
  const system = await buildSystem(ctx);
  token = await (await buildCustomer(ctx, [system.id])).login();
  incidentKey = (await buildIncident(ctx, system.id)).key;
  for (let i = 0; i < 4; i++) {
    const form = multipart({}, [{ name: `file-${i}.bin`, body: Buffer.alloc(20_000 + i * 1000, i + 1) }]);
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/v0/soc/incs/${incidentKey}/add_file/`,
      headers: { ...bearer(token), ...form.headers },
      payload: form.payload,
    });
    if (res.statusCode !== 200) throw new Error(`upload: ${res.statusCode} ${res.body}`);
  }
  await buildReport(ctx, [system.id]);
}, 120_000);
afterAll(async () => {
  await ctx?.close();
  await s3?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe.runIf(s3)('files migrate', () => {
  it('copies every file to S3, resumes after the service went down midway, and skips what is verified', async () => {
    const local = new LocalFileStorage(ctx.config.filesDir);
    const { files: total, bad } = await verify(local);
    expect(total).toBeGreaterThanOrEqual(5);
    expect(bad).toEqual([]);

    // the first run: the S3 service goes down after the third upload, before it was read back
    const first = await migrate(
      's3',
      storages(ctx.config.filesDir, async (done) => {
        if (done === 3) await s3!.proxy.cut();
      }),
    );
    await s3!.proxy.restore();
    expect(first.ok).toBe(false);
    expect(first.summary).toMatchObject({ to: 's3', total, copied: 2, skipped: 0, failed: total - 2 });

    // a copy spoilt meanwhile (same size, other bytes) is copied again, not trusted
    const target = new S3FileStorage(s3!.settings);
    const spoilt = (await migrateOrder()).find((k) => k.startsWith('attachments/'))!;
    const size = (await target.size(spoilt))!;
    await target.putAt(spoilt, Readable.from([Buffer.alloc(size, 0xff)]));

    const second = await migrate('s3', storages(ctx.config.filesDir));
    expect(second.ok).toBe(true);
    // the third file was complete though unverified: verified now and skipped; the spoilt one is copied
    expect(second.summary).toMatchObject({ total, copied: total - 2, skipped: 2, failed: 0 });
    expect(second.lines.at(-1)).toMatch(
      new RegExp(`^files migrate: ${total}/${total} files \\(${total - 2} copied`),
    );

    expect(await verify(target)).toEqual({ files: total, bad: [] });
    const third = await migrate('s3', storages(ctx.config.filesDir));
    expect(third.summary).toMatchObject({ total, copied: 0, skipped: total, failed: 0 });
    target.close();
  });

  it('serves the migrated files with STORAGE=s3', async () => {
    const app = await buildApp({
      config: { ...ctx.config, storage: { driver: 's3', s3: s3!.settings } },
      database: ctx.database,
    });
    try {
      const card = await app.inject({
        method: 'GET',
        url: `/api/v0/soc/incs/${incidentKey}/`,
        headers: bearer(token),
      });
      const links = card
        .json<{ attachments?: { link: string; size: number }[] }>()
        .attachments?.map((a) => a.link);
      expect(links?.length).toBe(4);
      const lengths: number[] = [];
      for (const link of links!) {
        const res = await app.inject({ method: 'GET', url: link, headers: bearer(token) });
        expect(res.statusCode).toBe(200);
        expect(res.rawPayload.every((b) => b === res.rawPayload[0])).toBe(true);
        lengths.push(res.rawPayload.length);
      }
      expect(lengths.sort()).toEqual([20_000, 21_000, 22_000, 23_000]);
    } finally {
      await app.close();
    }
  });

  it('copies everything back to an empty local folder (--to local), verified', async () => {
    const back = await migrate('local', storages(scratch));
    expect(back.ok).toBe(true);
    expect(back.summary).toMatchObject({ to: 'local', failed: 0, skipped: 0 });
    expect(await verify(new LocalFileStorage(scratch))).toMatchObject({ bad: [] });
  });

  it('reports files missing in the source as failures, and fails (exit 1)', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'soc-migrate-empty-'));
    try {
      const missing = await migrate('s3', (driver) =>
        driver === 'local' ? new LocalFileStorage(empty) : new LocalFileStorage(path.join(empty, 'target')),
      );
      expect(missing.ok).toBe(false);
      expect(missing.summary).toMatchObject({ copied: 0, skipped: 0, failed: missing.summary.total });
      expect(missing.summary.failures).toContainEqual(
        expect.objectContaining({ reason: 'missing in the source storage' }),
      );
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

/** The keys in the order the migration copies them. */
async function migrateOrder(): Promise<string[]> {
  const keys: string[] = [];
  for await (const f of createFilesMigrateRepository(ctx.database.db).storedFiles()) keys.push(f.key);
  return keys;
}
