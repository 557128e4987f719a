import { PassThrough, Transform, pipeline as pipeStreams } from 'node:stream';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { FileStorage, StoredObject } from './file-storage.ts';
import { KeyedFileStorage, StorageUnavailableError, assertStorageKey, meterStream } from './file-storage.ts';

import type { S3StorageSettings } from '../../core/config.ts';

/**
 * Multipart parts: 5 MB is S3's smallest part; two in flight bound what an upload buffers to
 * its parts, never the whole file, while the next part is read from the client.
 */
const PART_BYTES = 5 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;
/** A failed abort of a multipart upload is tried again after this, doubling up to the cap. */
const ABORT_RETRY_MS = 5_000;
const ABORT_RETRY_MAX_MS = 5 * 60_000;
/** Unfinished uploads older than this are the service's lifecycle rule's to remove (README). */
const ABORT_GIVE_UP_MS = 24 * 3600_000;

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);
const UNAVAILABLE_NAMES = new Set([
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'ServiceUnavailable',
  'SlowDown',
  'InternalError',
]);

/** Whether an SDK error says the service could not be reached or did not serve, not that the request was wrong. */
export function isS3Unavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  const e = error as {
    code?: unknown;
    name?: unknown;
    $metadata?: { httpStatusCode?: number };
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof e.code === 'string' && NETWORK_CODES.has(e.code)) return true;
  if (typeof e.name === 'string' && UNAVAILABLE_NAMES.has(e.name)) return true;
  if ((e.$metadata?.httpStatusCode ?? 0) >= 500) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isS3Unavailable(inner, depth + 1))) return true;
  return isS3Unavailable(e.cause, depth + 1);
}

const isMissing = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
};

/**
 * Whether a failure of the upload's reading side only follows from the upload's own failure: the
 * same error passed back, or the stream ended early because lib-storage stopped reading it.
 */
function echoesUpload(readError: unknown, uploadError: unknown): boolean {
  if (readError === uploadError) return true;
  const e = readError as { name?: unknown; code?: unknown } | null;
  return e?.name === 'AbortError' || e?.code === 'ERR_STREAM_PREMATURE_CLOSE' || e?.code === 'ABORT_ERR';
}

/** The SDK's error as the rest of the server knows errors: 503 when unreachable, ENOENT when missing. */
function storageError(error: unknown): unknown {
  if (isS3Unavailable(error)) return new StorageUnavailableError(error);
  if (isMissing(error)) return Object.assign(new Error('ENOENT: no such object'), { code: 'ENOENT' });
  return error;
}

/** Bytes `start` to `end` (inclusive) of the stream piped into it. */
function sliceStream(start: number, end: number): Transform {
  let offset = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      const from = Math.max(0, start - offset);
      const to = Math.min(chunk.length, end + 1 - offset);
      offset += chunk.length;
      done(null, to > from ? chunk.subarray(from, to) : undefined);
    },
  });
}

/**
 * Files in an S3-compatible bucket (AWS S3, MinIO, Ceph RGW), under the same keys as the local
 * driver's. Uploads stream through a multipart upload (one PutObject below 5 MB): an object
 * appears only when complete, and a failed upload is aborted, so nothing partial is readable.
 */
export class S3FileStorage extends KeyedFileStorage implements FileStorage {
  readonly driver = 's3' as const;
  private readonly client: S3Client;
  private readonly bucket: string;
  /** Multipart uploads (by id) whose abort waits for the service to answer again. */
  private readonly pendingAborts = new Map<string, { key: string; since: number }>();
  private readonly abortRetryMs: number;
  private abortDelayMs: number;
  private abortTimer: NodeJS.Timeout | undefined;
  private closed = false;

  /** `abortRetryMs`: the first retry of a failed abort (tests shorten it). */
  constructor(
    settings: S3StorageSettings,
    { abortRetryMs = ABORT_RETRY_MS }: { abortRetryMs?: number } = {},
  ) {
    super();
    this.abortRetryMs = abortRetryMs;
    this.abortDelayMs = abortRetryMs;
    this.bucket = settings.bucket;
    this.client = new S3Client({
      endpoint: settings.endpoint,
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      credentials:
        settings.accessKeyId && settings.secretAccessKey
          ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
          : undefined,
      // the SHA-256 is ours (recorded with the row); MinIO, Ceph and s3rver refuse the newer CRC headers
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // a storage that does not answer is a 503 in seconds, not a request hanging on
      requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
      maxAttempts: 3,
    });
  }

  protected async write(
    key: string,
    source: Readable,
    maxBytes: number,
    inspect?: (head: Buffer) => void,
  ): Promise<StoredObject> {
    assertStorageKey(key);
    const { meter, result } = meterStream(maxBytes, inspect);
    const body = new PassThrough();
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: body },
      partSize: PART_BYTES,
      queueSize: PARTS_IN_FLIGHT,
      // the parts of a failed upload are aborted below, where an outage is waited out
      leavePartsOnError: true,
    });
    const sent = upload.done().catch((err: unknown) => {
      // the upload stopped reading: end the client's stream too, or its pipeline waits forever
      body.destroy(err as Error);
      throw err;
    });
    const [read, stored] = await Promise.allSettled([pipeline(source, meter, body), sent]);
    if (read.status === 'fulfilled' && stored.status === 'fulfilled') return { key, ...result() };
    if (stored.status === 'fulfilled') {
      // refused or failed while reading the client's stream after the object was complete
      await this.remove(key).catch(() => undefined);
      throw read.status === 'rejected' ? read.reason : new Error('upload failed');
    }
    // nothing of a failed upload stays: its parts are aborted now, or once the service answers
    // again (an outage is not waited for: the client has its 503 at once)
    const outage = isS3Unavailable(stored.reason);
    if (upload.uploadId) {
      const aborting = this.abortParts(key, upload.uploadId);
      if (!outage) await aborting;
    }
    // the reader's own failure (too large, a refused type) is the answer, unless it only echoes
    // the upload's: lib-storage stops reading the body when a part fails, which ends the
    // pipeline with an AbortError before the upload's own error arrives (a 500 for an outage)
    if (read.status === 'rejected' && !echoesUpload(read.reason, stored.reason)) throw read.reason;
    throw storageError(stored.reason);
  }

  /**
   * Aborts a multipart upload (its parts are removed); while the service does not answer, tries
   * again with a doubling delay, for as long as unfinished uploads are kept (24 hours).
   */
  private async abortParts(key: string, uploadId: string): Promise<void> {
    try {
      await this.client.send(
        new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }),
      );
    } catch (err) {
      const pending = this.pendingAborts.get(uploadId) ?? { key, since: Date.now() };
      if (isS3Unavailable(err) && Date.now() - pending.since < ABORT_GIVE_UP_MS) {
        this.pendingAborts.set(uploadId, pending);
        this.scheduleAborts();
        return;
      }
      // gone already, refused, or older than a day: the service's expiry of unfinished uploads is left
    }
    this.pendingAborts.delete(uploadId);
  }

  private scheduleAborts(): void {
    if (this.abortTimer || this.closed) return;
    const delay = this.abortDelayMs;
    this.abortDelayMs = Math.min(delay * 2, ABORT_RETRY_MAX_MS);
    this.abortTimer = setTimeout(() => {
      this.abortTimer = undefined;
      const due = [...this.pendingAborts];
      void Promise.all(due.map(([uploadId, { key }]) => this.abortParts(key, uploadId))).then(() => {
        if (this.pendingAborts.size === 0) this.abortDelayMs = this.abortRetryMs;
      });
    }, delay);
    this.abortTimer.unref();
  }

  private async get(key: string, range?: { start: number; end: number }): Promise<Readable> {
    assertStorageKey(key);
    try {
      const res = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Range: range && `bytes=${range.start}-${range.end}`,
        }),
      );
      const body = res.Body as Readable;
      if (!range) return body;
      // a server may answer with more than the range (HTTP allows the whole object; s3rver
      // sends it all for `bytes=0-0`): keep exactly the bytes asked for
      const sent = /^bytes (\d+)-(\d+)\//.exec(res.ContentRange ?? '');
      const first = sent ? Number(sent[1]) : 0;
      if (sent && first === range.start && Number(sent[2]) === range.end) return body;
      return pipeStreams(body, sliceStream(range.start - first, range.end - first), () => undefined);
    } catch (err) {
      throw storageError(err);
    }
  }

  open(key: string): Promise<Readable> {
    return this.get(key);
  }

  openRange(key: string, start: number, end: number): Promise<Readable> {
    return this.get(key, { start, end });
  }

  async size(key: string): Promise<number | null> {
    assertStorageKey(key);
    try {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return res.ContentLength ?? 0;
    } catch (err) {
      if (isMissing(err)) return null;
      throw storageError(err);
    }
  }

  async remove(key: string): Promise<void> {
    assertStorageKey(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (err) {
      throw storageError(err);
    }
  }

  /**
   * Aborts multipart uploads started before `olderThanMs` that never completed (their process
   * died, or the storage was down when they were aborted). A service without the listing
   * (s3rver) has nothing to clean: 0.
   */
  async cleanupTemporary(olderThanMs: number): Promise<number> {
    const before = Date.now() - olderThanMs;
    let removed = 0;
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    try {
      for (;;) {
        const page = await this.client.send(
          new ListMultipartUploadsCommand({
            Bucket: this.bucket,
            KeyMarker: keyMarker,
            UploadIdMarker: uploadIdMarker,
          }),
        );
        for (const u of page.Uploads ?? []) {
          if (!u.Key || !u.UploadId || (u.Initiated?.getTime() ?? 0) >= before) continue;
          await this.client.send(
            new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: u.Key, UploadId: u.UploadId }),
          );
          removed++;
        }
        if (!page.IsTruncated) return removed;
        keyMarker = page.NextKeyMarker;
        uploadIdMarker = page.NextUploadIdMarker;
      }
    } catch (err) {
      if ((err as { name?: string }).name === 'NotImplemented') return removed;
      throw storageError(err);
    }
  }

  /** The bucket answers `HeadBucket` (exists, and the portal's account may use it) in time. */
  async check(timeoutMs: number): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }), {
        abortSignal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw storageError(err);
    }
  }

  close(): void {
    this.closed = true;
    if (this.abortTimer) clearTimeout(this.abortTimer);
    this.abortTimer = undefined;
    this.client.destroy();
  }
}
