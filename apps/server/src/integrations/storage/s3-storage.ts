import { PassThrough, Transform, pipeline as pipeStreams } from 'node:stream';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { FileStorage, StoredObject } from './file-storage.ts';
import { KeyedFileStorage, StorageUnavailableError, assertStorageKey, meterStream } from './file-storage.ts';

/** Where the S3 driver stores (STORAGE=s3 and the S3_* settings). */
export interface S3StorageSettings {
  /** The service's URL (MinIO, Ceph RGW); unset: AWS S3 of `region`. */
  endpoint: string | undefined;
  region: string;
  bucket: string;
  /** Unset: the SDK's default credential chain (environment, instance role). */
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  /** `host/bucket/key` URLs instead of `bucket.host/key` (MinIO, Ceph and s3rver need it). */
  forcePathStyle: boolean;
}

/**
 * Multipart parts: 5 MB is S3's smallest part; two in flight bound what an upload buffers to
 * its parts, never the whole file, while the next part is read from the client.
 */
const PART_BYTES = 5 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

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

  constructor(settings: S3StorageSettings) {
    super();
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
    });
    let uploadError: unknown;
    const sent = upload.done().catch((err: unknown) => {
      // the upload stopped reading: end the client's stream too, or its pipeline waits forever
      uploadError ??= err;
      body.destroy(err as Error);
      throw err;
    });
    const [read, stored] = await Promise.allSettled([pipeline(source, meter, body), sent]);
    if (read.status === 'fulfilled' && stored.status === 'fulfilled') return { key, ...result() };
    if (read.status === 'rejected' && read.reason !== uploadError) {
      // refused or failed while reading the client's stream: the upload must not complete
      await upload.abort().catch(() => undefined);
      if (stored.status === 'fulfilled') await this.remove(key).catch(() => undefined);
      throw read.reason;
    }
    throw storageError(uploadError);
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

  close(): void {
    this.client.destroy();
  }
}
