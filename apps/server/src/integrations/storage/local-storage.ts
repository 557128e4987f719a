import { randomUUID } from 'node:crypto';
import { constants, createWriteStream } from 'node:fs';
import { access, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FileStorage, StoredObject } from './file-storage.ts';
import { KeyedFileStorage, assertStorageKey, meterStream } from './file-storage.ts';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../core/private-files.ts';

/**
 * Files on a local folder (`objects/<prefix>/<uuid>`). Objects are written under a temporary
 * name in `tmp/` and renamed into place only when complete, so a crash or a refused upload never
 * leaves a partial object.
 */
export class LocalFileStorage extends KeyedFileStorage implements FileStorage {
  readonly driver = 'local' as const;
  constructor(private readonly root: string) {
    super();
  }

  private objectPath(key: string): string {
    assertStorageKey(key);
    return path.join(this.root, 'objects', key);
  }

  protected async write(
    key: string,
    source: Readable,
    maxBytes: number,
    inspect?: (head: Buffer) => void,
  ): Promise<StoredObject> {
    const target = this.objectPath(key);
    const tmpDir = path.join(this.root, 'tmp');
    await mkdir(tmpDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    await mkdir(path.dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
    const tmp = path.join(tmpDir, `${randomUUID()}.part`);
    const { meter, result } = meterStream(maxBytes, inspect);
    const out = this.createTempStream(tmp);
    try {
      await pipeline(source, meter, out);
      await rename(tmp, target);
    } catch (err) {
      // a file stream destroyed while it is still opening creates its file after the pipeline
      // has failed: remove the file once the stream is closed, not before
      if (!out.closed) await new Promise((resolve) => out.once('close', resolve));
      await rm(tmp, { force: true });
      throw err;
    }
    return { key, ...result() };
  }

  /** The stream of a new temporary file (a test subclass makes it fail like a full disk). */
  protected createTempStream(file: string): Writable {
    return createWriteStream(file, { flags: 'wx', mode: PRIVATE_FILE_MODE });
  }

  async open(key: string): Promise<Readable> {
    const handle = await open(this.objectPath(key), 'r');
    return handle.createReadStream();
  }

  async openRange(key: string, start: number, end: number): Promise<Readable> {
    const handle = await open(this.objectPath(key), 'r');
    return handle.createReadStream({ start, end });
  }

  async size(key: string): Promise<number | null> {
    try {
      return (await stat(this.objectPath(key))).size;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    await rm(this.objectPath(key), { force: true });
  }

  async cleanupTemporary(olderThanMs: number): Promise<number> {
    const tmpDir = path.join(this.root, 'tmp');
    let names: string[];
    try {
      names = await readdir(tmpDir);
    } catch {
      return 0;
    }
    const before = Date.now() - olderThanMs;
    let removed = 0;
    for (const name of names) {
      if (!name.endsWith('.part')) continue;
      const file = path.join(tmpDir, name);
      const info = await stat(file).catch(() => null);
      if (info && info.mtimeMs < before) {
        await rm(file, { force: true });
        removed++;
      }
    }
    return removed;
  }

  /** The folder exists (made if missing, as the first upload would) and may be written. */
  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true, mode: PRIVATE_DIR_MODE });
    await access(this.root, constants.R_OK | constants.W_OK);
  }

  close(): void {}
}
