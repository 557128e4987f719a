import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { readdir } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { S3StorageSettings } from '../core/config.ts';
import type { TcpProxy } from './tcp-proxy.ts';
import { startTcpProxy } from './tcp-proxy.ts';

/** A real S3-compatible server for tests (s3rver on 127.0.0.1, its own folder), behind a proxy a test can cut. */
export interface TestS3Server {
  /** The settings of an S3 driver on its bucket (through the proxy). */
  settings: S3StorageSettings;
  /** Its folder: the bucket's objects are files under `<directory>/<bucket>/`. */
  directory: string;
  /** Between the storage and s3rver: `cut()` is the S3 service going down, `restore()` it coming back. */
  proxy: TcpProxy;
  /** Parts of multipart uploads it holds now (s3rver writes `<n>.md5` beside each; an abort removes them). */
  partsReceived(): Promise<number>;
  /** The multipart uploads it was asked to abort so far (their ids). */
  aborted: string[];
  close(): Promise<void>;
}

export const TEST_BUCKET = 'soc-test';

interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer?: Server;
}

/**
 * The test S3 server, or null when it cannot start: the suite named `what` is then skipped, and
 * the reason printed (it starts wherever the npm packages are installed).
 */
export async function startTestS3ServerOrSkip(what: string): Promise<TestS3Server | null> {
  try {
    return await startTestS3Server();
  } catch (err) {
    console.warn(`${what} skipped: s3rver could not start (${String(err)})`);
    return null;
  }
}

/** Starts s3rver with a bucket `soc-test`; rejects when it cannot start (the caller prints why and skips). */
export async function startTestS3Server(): Promise<TestS3Server> {
  // s3rver ships no types: a specifier TypeScript does not resolve, and the little used of it typed here
  const specifier = 's3rver';
  const { default: S3rver } = (await import(specifier)) as { default: new (options: object) => S3rverServer };
  const directory = mkdtempSync(path.join(tmpdir(), 'soc-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: TEST_BUCKET, configs: [] }],
  });
  const address = await server.run();
  const aborted: string[] = [];
  teachAbort(server.httpServer!, directory, aborted);
  const proxy = await startTcpProxy({ host: '127.0.0.1', port: address.port });
  return {
    settings: {
      endpoint: `http://127.0.0.1:${proxy.port}`,
      region: 'us-east-1',
      bucket: TEST_BUCKET,
      // s3rver's fixed test account
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    },
    directory,
    proxy,
    aborted,
    async partsReceived() {
      const files = await readdir(directory, { recursive: true });
      return files.filter((f) => /uploads.*[/\\]\d+\.md5$/.test(f)).length;
    },
    async close() {
      await proxy.close();
      server.httpServer?.closeAllConnections();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/**
 * s3rver answers AbortMultipartUpload (`DELETE …?uploadId=`) with 405 and keeps the parts: here it
 * removes them as S3 does, so a test sees whether the portal aborts what it started.
 */
function teachAbort(http: Server, directory: string, aborted: string[]): void {
  const s3rver = http.listeners('request') as RequestListener[];
  http.removeAllListeners('request');
  http.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const uploadId = new URL(req.url ?? '/', 'http://s3').searchParams.get('uploadId');
    if (req.method !== 'DELETE' || !uploadId || !/^[\w-]+$/.test(uploadId)) {
      for (const listener of s3rver) listener(req, res);
      return;
    }
    rmSync(path.join(directory, TEST_BUCKET, '._S3rver_uploads', uploadId), { recursive: true, force: true });
    aborted.push(uploadId);
    req.resume();
    res.writeHead(204).end();
  });
}
