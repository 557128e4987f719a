import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import type { ReadStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './private-files.ts';

/** Raised when a stream is longer than its limit; nothing is kept. */
export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`File is larger than ${maxBytes} bytes`);
    this.name = 'FileTooLargeError';
  }
}

export interface StoredObject {
  key: string;
  size: number;
  sha256: string;
}

/**
 * Files on a local folder. Objects are written under a temporary name and renamed into place
 * only when complete, so a crash or a refused upload never leaves a partial object. Keys are
 * generated here, never taken from clients.
 */
export class FileStorage {
  constructor(private readonly root: string) {}

  private objectPath(key: string): string {
    if (!/^[a-z0-9-]+\/[0-9a-f-]{36}$/.test(key)) throw new Error('Invalid storage key');
    return path.join(this.root, 'objects', key);
  }

  /**
   * Stores a stream under a new key in `prefix`, refusing it once it passes `maxBytes`.
   * `inspect` sees the first bytes (up to 64) before anything is kept and may throw to refuse.
   */
  async put(
    prefix: string,
    source: Readable,
    maxBytes: number,
    inspect?: (head: Buffer) => void,
  ): Promise<StoredObject> {
    const key = `${prefix}/${randomUUID()}`;
    const target = this.objectPath(key);
    const tmpDir = path.join(this.root, 'tmp');
    await mkdir(tmpDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    await mkdir(path.dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
    const tmp = path.join(tmpDir, `${randomUUID()}.part`);
    const hash = createHash('sha256');
    let size = 0;
    let head: Buffer | null = inspect ? Buffer.alloc(0) : null;
    const checkHead = () => {
      if (head && inspect) {
        const h = head;
        head = null;
        inspect(h);
      }
    };
    const meter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > maxBytes) return done(new FileTooLargeError(maxBytes));
        try {
          if (head) {
            head = Buffer.concat([head, chunk]).subarray(0, 64);
            if (head.length >= 64) checkHead();
          }
        } catch (err) {
          return done(err as Error);
        }
        hash.update(chunk);
        done(null, chunk);
      },
      flush(done) {
        try {
          checkHead();
          done();
        } catch (err) {
          done(err as Error);
        }
      },
    });
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
    return { key, size, sha256: hash.digest('hex') };
  }

  /** The stream of a new temporary file (a test subclass makes it fail like a full disk). */
  protected createTempStream(file: string): Writable {
    return createWriteStream(file, { flags: 'wx', mode: PRIVATE_FILE_MODE });
  }

  open(key: string): ReadStream {
    return createReadStream(this.objectPath(key));
  }

  /** Bytes `start` to `end` (inclusive) of an object. */
  openRange(key: string, start: number, end: number): ReadStream {
    return createReadStream(this.objectPath(key), { start, end });
  }

  async remove(key: string): Promise<void> {
    await rm(this.objectPath(key), { force: true });
  }
}
