import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { readdir, statfs, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachments, comments } from '../../db/schema/index.ts';
import { buildCustomer, buildIncident, buildSystem } from '../../test/builders.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import { multipart } from '../../test/multipart.ts';
import { LocalFileStorage } from './local-storage.ts';

/**
 * The disk fills up during an upload: a clear 507, no row, no partial or temporary file, and the
 * same upload works (byte for byte) once there is space again. Where this process may mount (root
 * in the dev container) the files live on a real 8 MB tmpfs filled to its last 64 KB; elsewhere
 * (CI) the storage's temporary file fails with ENOSPC after 64 KB, as a full disk does. Either way
 * the test runs.
 */

const HEADROOM = 64 * 1024;
const UPLOAD = Buffer.alloc(1024 * 1024, 7);

/** A storage whose temporary files fail like a full disk once `full` is set. */
class FullDiskStorage extends LocalFileStorage {
  full = true;
  protected override createTempStream(file: string): Writable {
    const inner = super.createTempStream(file);
    let written = 0;
    return new Writable({
      write: (chunk: Buffer, _enc, done) => {
        written += chunk.length;
        if (this.full && written > HEADROOM) {
          done(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
          return;
        }
        inner.write(chunk, done);
      },
      final: (done) => inner.end(done),
      destroy: (err, done) => {
        inner.destroy();
        done(err);
      },
    });
  }
}

const scratch = mkdtempSync(path.join(tmpdir(), 'soc-diskfull-'));
let mounted = false;
try {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', scratch], { stdio: 'ignore' });
  mounted = true;
} catch {
  mounted = false;
}
const injected = mounted ? undefined : new FullDiskStorage(scratch);
const filler = path.join(scratch, 'filler');

let ctx: TestContext;
let token: string;
let key: number;

const upload = (url: string, fields: Record<string, string>, file: { name: string; body: Buffer }) => {
  const form = multipart(fields, [file]);
  return ctx.app.inject({
    method: 'POST',
    url,
    headers: { ...bearer(token), ...form.headers, 'accept-language': 'en' },
    payload: form.payload,
  });
};

async function files(): Promise<{ objects: string[]; tmp: string[] }> {
  const list = async (dir: string) =>
    existsSync(dir)
      ? (await readdir(dir, { recursive: true, withFileTypes: true }))
          .filter((d) => d.isFile())
          .map((d) => path.relative(dir, path.join(d.parentPath, d.name)))
          .sort()
      : [];
  return { objects: await list(path.join(scratch, 'objects')), tmp: await list(path.join(scratch, 'tmp')) };
}

async function rows() {
  const [a] = await ctx.database.db.select({ n: count() }).from(attachments);
  const [c] = await ctx.database.db.select({ n: count() }).from(comments);
  return { attachments: a!.n, comments: c!.n };
}

/** Fills the tmpfs to its last HEADROOM bytes (after the demo's files were copied in). */
async function fillDisk(): Promise<void> {
  if (!mounted) return;
  const fs = await statfs(scratch);
  await writeFile(filler, Buffer.alloc(Math.max(0, fs.bavail * fs.bsize - HEADROOM)));
}

async function freeDisk(): Promise<void> {
  if (injected) injected.full = false;
  else rmSync(filler, { force: true });
}

beforeAll(async () => {
  ctx = await createTestContext({
    incidents: 0,
    config: { filesDir: scratch },
    ...(injected ? { storage: () => injected } : {}),
  });
  const system = await buildSystem(ctx);
  token = await (await buildCustomer(ctx, [system.id])).login();
  ({ key } = await buildIncident(ctx, system.id, { status: 'work_in_progress' }));
  await fillDisk();
});

afterAll(async () => {
  await ctx?.close();
  if (mounted) execFileSync('umount', [scratch]);
  rmSync(scratch, { recursive: true, force: true });
});

describe(`disk full on upload (${mounted ? 'a real 8 MB tmpfs' : 'storage failing with ENOSPC'})`, () => {
  it('answers 507 with a clear message and keeps no row and no partial file; works again once there is space', async () => {
    const before = await rows();
    const filesBefore = await files();

    const addFile = await upload(
      `/api/v0/soc/incs/${key}/add_file/`,
      {},
      { name: 'memory.dmp', body: UPLOAD },
    );
    expect(addFile.statusCode, addFile.body).toBe(507);
    expect(addFile.json()).toEqual({
      detail: 'There is not enough storage space for this file; try again later.',
    });
    const comment = await upload(
      `/api/v0/soc/incs/${key}/comments/`,
      { body: 'dump attached' },
      { name: 'memory.dmp', body: UPLOAD },
    );
    expect(comment.statusCode, comment.body).toBe(507);

    expect(await rows()).toEqual(before);
    expect(await files()).toEqual({ objects: filesBefore.objects, tmp: [] });

    // space again: the same file is stored whole
    await freeDisk();
    const ok = await upload(`/api/v0/soc/incs/${key}/add_file/`, {}, { name: 'memory.dmp', body: UPLOAD });
    expect(ok.statusCode, ok.body).toBe(200);
    const [stored] = ok.json<{ attachments: { link: string }[] }>().attachments;
    const download = await ctx.app.inject({ method: 'GET', url: stored!.link, headers: bearer(token) });
    expect(download.statusCode).toBe(200);
    expect(createHash('sha256').update(download.rawPayload).digest('hex')).toBe(
      createHash('sha256').update(UPLOAD).digest('hex'),
    );
    expect((await rows()).attachments).toBe(before.attachments + 1);
    expect((await files()).tmp).toEqual([]);
  });
});
