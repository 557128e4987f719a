import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestS3ServerOrSkip } from '../../test/s3-server.ts';
import type { FileStorage } from './file-storage.ts';
import { FileTooLargeError, StorageUnavailableError } from './file-storage.ts';
import { LocalFileStorage } from './local-storage.ts';
import { S3FileStorage } from './s3-storage.ts';

/*
 * Issue 31 part 2: one storage suite, run against the local folder and against a real
 * S3-compatible server (s3rver on 127.0.0.1) through the S3 driver.
 */
const s3 = await startTestS3ServerOrSkip('S3 storage suite');

interface Driver {
  name: 'local' | 's3';
  make(): FileStorage;
  /** Every object key the storage holds now. */
  keys(): Promise<string[]>;
}

const localRoot = mkdtempSync(path.join(tmpdir(), 'soc-storage-suite-'));
const lister =
  s3 && new S3Client({ ...s3.settings, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });

const drivers: Driver[] = [
  {
    name: 'local',
    make: () => new LocalFileStorage(localRoot),
    async keys() {
      const dir = path.join(localRoot, 'objects');
      if (!existsSync(dir)) return [];
      const entries = await readdir(dir, { recursive: true, withFileTypes: true });
      return entries
        .filter((e) => e.isFile())
        .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
    },
  },
  {
    name: 's3',
    make: () => new S3FileStorage(s3!.settings),
    async keys() {
      const res = await lister!.send(new ListObjectsV2Command({ Bucket: s3!.settings.bucket }));
      return (res.Contents ?? []).map((o) => o.Key!);
    },
  },
];

afterAll(async () => {
  lister?.destroy();
  await s3?.close();
  rmSync(localRoot, { recursive: true, force: true });
});

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
/** A stream of `total` pseudo-random bytes in 64 KB chunks, as an upload arrives. */
function bytes(total: number, seed = 1): Buffer {
  const out = Buffer.alloc(total);
  let x = seed;
  for (let i = 0; i < total; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out[i] = x >> 16;
  }
  return out;
}
const chunked = (b: Buffer, size = 64 * 1024) =>
  Readable.from(
    (function* () {
      for (let i = 0; i < b.length; i += size) yield b.subarray(i, i + size);
    })(),
  );

describe.each(drivers)('file storage: $name driver', (driver) => {
  const enabled = driver.name === 'local' || s3 !== null;
  let storage: FileStorage;
  beforeAll(() => {
    if (enabled) storage = driver.make();
    return () => storage?.close();
  });

  it.runIf(enabled)(
    'stores a stream under a new key and gives back the same bytes, size and SHA-256',
    async () => {
      const body = bytes(100_000);
      const stored = await storage.put('attachments', chunked(body), 1024 * 1024);
      expect(stored.key).toMatch(/^attachments\/[0-9a-f-]{36}$/);
      expect(stored.size).toBe(body.length);
      expect(stored.sha256).toBe(sha(body));
      expect(sha(await buffer(await storage.open(stored.key)))).toBe(sha(body));
      expect(await storage.size(stored.key)).toBe(body.length);
      expect(await driver.keys()).toContain(stored.key);
    },
  );

  it.runIf(enabled)(
    'streams a 12 MB file (a multipart upload on S3) and serves byte ranges of it',
    async () => {
      const body = bytes(12 * 1024 * 1024 + 123, 7);
      const stored = await storage.put('attachments', chunked(body), 50 * 1024 * 1024);
      expect(stored.size).toBe(body.length);
      expect(stored.sha256).toBe(sha(body));
      const ranges: [number, number][] = [
        [0, 0],
        [5 * 1024 * 1024 - 10, 5 * 1024 * 1024 + 10], // across the first part boundary
        [body.length - 100, body.length - 1],
      ];
      for (const [start, end] of ranges) {
        const got = await buffer(await storage.openRange(stored.key, start, end));
        expect(got.length).toBe(end - start + 1);
        expect(got.equals(body.subarray(start, end + 1))).toBe(true);
      }
      expect(sha(await buffer(await storage.open(stored.key)))).toBe(stored.sha256);
    },
  );

  it.runIf(enabled)('refuses a stream longer than its limit and keeps nothing of it', async () => {
    const before = await driver.keys();
    await expect(
      storage.put('attachments', chunked(bytes(7 * 1024 * 1024)), 6 * 1024 * 1024),
    ).rejects.toBeInstanceOf(FileTooLargeError);
    expect(await driver.keys()).toEqual(before);
  });

  it.runIf(enabled)(
    'shows the first bytes to the inspector before keeping anything; a refusal keeps nothing',
    async () => {
      const before = await driver.keys();
      let seen: Buffer | null = null;
      const refuse = (head: Buffer) => {
        seen = head;
        throw new Error('executable');
      };
      await expect(
        storage.put('attachments', chunked(Buffer.from('MZ\x90\x00 a program')), 1024, refuse),
      ).rejects.toThrow('executable');
      expect(String(seen)).toBe('MZ\x90\x00 a program');
      await expect(
        storage.put('attachments', chunked(bytes(300_000), 1000), 1024 * 1024, refuse),
      ).rejects.toThrow('executable');
      expect(seen!.length).toBe(64);
      expect(await driver.keys()).toEqual(before);
    },
  );

  it.runIf(enabled)(
    'removes an object: gone from listings, opening it fails with ENOENT; removing twice is fine',
    async () => {
      const stored = await storage.put('reports', chunked(Buffer.from('report')), 1024);
      await storage.remove(stored.key);
      expect(await driver.keys()).not.toContain(stored.key);
      expect(await storage.size(stored.key)).toBeNull();
      await expect(storage.open(stored.key)).rejects.toMatchObject({ code: 'ENOENT' });
      await storage.remove(stored.key);
    },
  );

  it.runIf(enabled)('stores under a given key (copies between storages keep their keys)', async () => {
    const key = 'documents/00000000-0000-4000-8000-000000000001';
    const stored = await storage.putAt(key, chunked(Buffer.from('copied')));
    expect(stored).toMatchObject({ key, size: 6, sha256: sha(Buffer.from('copied')) });
    expect(String(await buffer(await storage.open(key)))).toBe('copied');
  });

  it.runIf(enabled)('refuses keys it did not generate (no path out of the storage)', async () => {
    await expect(storage.open('../../etc/passwd')).rejects.toThrow('Invalid storage key');
    await expect(storage.putAt('attachments/../x', chunked(Buffer.from('x')))).rejects.toThrow(
      'Invalid storage key',
    );
  });

  it.runIf(enabled)('cleans up what interrupted uploads left, never a complete object', async () => {
    const stored = await storage.put('attachments', chunked(Buffer.from('kept')), 1024);
    if (driver.name === 'local') {
      const tmp = path.join(localRoot, 'tmp');
      await mkdir(tmp, { recursive: true });
      const stale = path.join(tmp, 'stale.part');
      const fresh = path.join(tmp, 'fresh.part');
      await writeFile(stale, 'half');
      await writeFile(fresh, 'in progress');
      const hourAgo = new Date(Date.now() - 3_600_000);
      await utimes(stale, hourAgo, hourAgo);
      expect(await storage.cleanupTemporary(600_000)).toBe(1);
      expect(existsSync(stale)).toBe(false);
      expect(existsSync(fresh)).toBe(true);
    } else {
      // s3rver does not list multipart uploads (MinIO and AWS do): nothing to abort there
      expect(await storage.cleanupTemporary(0)).toBe(0);
    }
    expect(await storage.size(stored.key)).toBe(4);
  });
});

describe.runIf(s3)('S3 driver streaming', () => {
  it('sends the first 5 MB part to S3 while the client is still sending the rest (nothing buffered whole)', async () => {
    const storage = new S3FileStorage(s3!.settings);
    try {
      const body = bytes(11 * 1024 * 1024, 5);
      const source = new PassThrough();
      const partsBefore = await s3!.partsReceived();
      const stored = storage.put('attachments', source, 50 * 1024 * 1024);
      source.write(body.subarray(0, 6 * 1024 * 1024));
      await expect
        .poll(() => s3!.partsReceived(), { timeout: 15_000, interval: 50 })
        .toBeGreaterThan(partsBefore);
      expect(source.writableEnded).toBe(false);
      source.end(body.subarray(6 * 1024 * 1024));
      expect((await stored).sha256).toBe(sha(body));
      expect(sha(await buffer(await storage.open((await stored).key)))).toBe(sha(body));
    } finally {
      storage.close();
    }
  });
});

describe.runIf(s3)('S3 driver when the service is down', () => {
  let storage: S3FileStorage;
  beforeAll(() => {
    storage = new S3FileStorage(s3!.settings);
    return () => storage.close();
  });

  it('answers StorageUnavailableError (503) for writes and reads, and works again once it is back, without a new client', async () => {
    const kept = await storage.put('attachments', chunked(Buffer.from('before')), 1024);
    const before = await drivers[1]!.keys();
    await s3!.proxy.cut();
    try {
      const failed = storage.put('attachments', chunked(bytes(6 * 1024 * 1024)), 50 * 1024 * 1024);
      await expect(failed).rejects.toBeInstanceOf(StorageUnavailableError);
      await expect(failed).rejects.toMatchObject({ statusCode: 503 });
      await expect(storage.open(kept.key)).rejects.toBeInstanceOf(StorageUnavailableError);
      await expect(storage.remove(kept.key)).rejects.toBeInstanceOf(StorageUnavailableError);
    } finally {
      await s3!.proxy.restore();
    }
    expect(await drivers[1]!.keys()).toEqual(before);
    const after = await storage.put('attachments', chunked(Buffer.from('after')), 1024);
    expect(String(await buffer(await storage.open(after.key)))).toBe('after');
  });
});
