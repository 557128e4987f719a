import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client.ts';
import type { TestContext } from '../test/harness.ts';
import { createTestContext } from '../test/harness.ts';
import { buildCustomer, buildIncident, buildSystem } from '../test/builders.ts';
import type { TcpProxy } from '../test/tcp-proxy.ts';
import { startTcpProxy } from '../test/tcp-proxy.ts';

/**
 * PostgreSQL "restarted" while requests and uploads are in flight: the app reaches its database
 * through a TCP proxy that the test stalls, cuts (every connection destroyed, the port refusing)
 * and restores. Clients get 503 with Retry-After, never 500; the pool reconnects by itself; no
 * comment, attachment or stored file is left half-written.
 */

let proxy: TcpProxy;
let ctx: TestContext;
let base: string;
let token: string;
let key: number;

const boundary = '----soc-fault-boundary';
const fieldPart = (name: string, value: string) =>
  Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
const fileHead = (filename: string) =>
  Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="attachments"; filename="${filename}"\r\nContent-Type: text/plain\r\n\r\n`,
  );
const closing = Buffer.from(`\r\n--${boundary}--\r\n`);

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request whose body the test writes piece by piece, so it is still arriving during the cut. */
function streamedRequest(method: string, url: string, contentType?: string) {
  let resolve!: (a: Answer) => void;
  let reject!: (e: Error) => void;
  const answer = new Promise<Answer>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  const req = http.request(`${base}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(contentType ? { 'content-type': contentType } : {}),
    },
  });
  req.on('response', (res) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () =>
      resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }),
    );
  });
  req.on('error', reject);
  return { req, answer };
}

const request = (method: string, url: string, body?: Buffer) => {
  const r = streamedRequest(method, url, body ? `multipart/form-data; boundary=${boundary}` : undefined);
  r.req.end(body);
  return r.answer;
};

/** Every stored object (relative paths) and the temporary files of uploads in progress. */
async function storedFiles(): Promise<{ objects: string[]; tmp: string[] }> {
  const objectsDir = path.join(ctx.config.filesDir, 'objects');
  const tmpDir = path.join(ctx.config.filesDir, 'tmp');
  const objects = existsSync(objectsDir)
    ? (await readdir(objectsDir, { recursive: true, withFileTypes: true }))
        .filter((d) => d.isFile())
        .map((d) => path.relative(objectsDir, path.join(d.parentPath, d.name)))
        .sort()
    : [];
  const tmp = existsSync(tmpDir) ? await readdir(tmpDir) : [];
  return { objects, tmp };
}

async function rowCounts() {
  const [row] = await queryRows<{ comments: string; attachments: string; audit: string; keys: string[] }>(
    ctx.database.db,
    sql`SELECT (SELECT count(*) FROM comments) AS comments,
               (SELECT count(*) FROM attachments) AS attachments,
               (SELECT count(*) FROM audit_log) AS audit,
               (SELECT coalesce(array_agg(storage_key ORDER BY storage_key), '{}') FROM attachments) AS keys`,
  );
  return row!;
}

const expectUnavailable = (a: Answer) => {
  expect(a.status, a.body).toBe(503);
  expect(Number(a.headers['retry-after'])).toBeGreaterThan(0);
  expect(a.body).not.toMatch(/SELECT|INSERT|at .*\.ts|Connection terminated|ECONN/);
};

beforeAll(async () => {
  const target = new URL(process.env.TEST_DATABASE_URL!);
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  ctx = await createTestContext({ incidents: 0, databaseVia: { host: '127.0.0.1', port: proxy.port } });
  const system = await buildSystem(ctx);
  token = await (await buildCustomer(ctx, [system.id])).login();
  key = (await buildIncident(ctx, system.id, { status: 'work_in_progress' })).key;
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await ctx?.close();
  await proxy?.close();
});

describe('PostgreSQL restart with requests in flight', () => {
  it('answers 503 with Retry-After, reconnects by itself and leaves nothing half-written', async () => {
    // warm: the app works through the proxy
    expect((await request('GET', '/api/v0/soc/incs/?limit=5')).status).toBe(200);
    const before = await rowCounts();
    const filesBefore = await storedFiles();
    expect(filesBefore.tmp).toEqual([]);

    // two uploads whose bodies are still arriving: a comment with a file, and add_file
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const commentUpload = streamedRequest(
      'POST',
      `/api/v0/soc/incs/${key}/comments/`,
      `multipart/form-data; boundary=${boundary}`,
    );
    commentUpload.req.write(Buffer.concat([fieldPart('body', 'log in the attachment'), fileHead('log.txt')]));
    commentUpload.req.write(chunk);
    const fileUpload = streamedRequest(
      'POST',
      `/api/v0/soc/incs/${key}/add_file/`,
      `multipart/form-data; boundary=${boundary}`,
    );
    fileUpload.req.write(fileHead('evidence.txt'));
    fileUpload.req.write(chunk);
    // both are being written to temporary files
    for (let i = 0; (await storedFiles()).tmp.length < 2; i++) {
      if (i > 100) throw new Error('uploads did not start');
      await sleep(50);
    }

    // queries stall (a server going down), then every connection is cut while they wait
    proxy.hold();
    const list = request('GET', '/api/v0/soc/incs/?limit=5&status__in=work_in_progress');
    const card = request('GET', `/api/v0/soc/incs/${key}/`);
    const comment = request(
      'POST',
      `/api/v0/soc/incs/${key}/comments/`,
      Buffer.concat([fieldPart('body', 'written during the restart'), closing.subarray(2)]),
    );
    await sleep(300);
    await proxy.cut();
    for (const answer of await Promise.all([list, card, comment])) expectUnavailable(answer);

    // while the server is down, new requests are refused the same way
    expectUnavailable(await request('GET', '/api/v0/soc/incs/?limit=5'));
    // the uploads end while it is still down: their files are stored, then the rows cannot be written
    commentUpload.req.write(chunk);
    commentUpload.req.end(closing);
    fileUpload.req.write(chunk);
    fileUpload.req.end(closing);
    expectUnavailable(await commentUpload.answer);
    expectUnavailable(await fileUpload.answer);

    // the server is back: the pool reconnects without a restart of the app
    await proxy.restore();
    let recovered: Answer | undefined;
    for (let i = 0; i < 50; i++) {
      recovered = await request('GET', '/api/v0/soc/incs/?limit=5');
      if (recovered.status === 200) break;
      await sleep(100);
    }
    expect(recovered!.status, recovered!.body).toBe(200);

    // nothing half-written: the same rows, the same stored objects, no temporary files
    expect(await rowCounts()).toEqual(before);
    const filesAfter = await storedFiles();
    expect(filesAfter.tmp).toEqual([]);
    expect(filesAfter.objects).toEqual(filesBefore.objects);

    // and writes work again, files included
    const ok = await request(
      'POST',
      `/api/v0/soc/incs/${key}/comments/`,
      Buffer.concat([fieldPart('body', 'after the restart'), fileHead('after.txt'), chunk, closing]),
    );
    expect(ok.status, ok.body).toBe(201);
    const after = await rowCounts();
    expect(Number(after.comments)).toBe(Number(before.comments) + 1);
    expect(Number(after.attachments)).toBe(Number(before.attachments) + 1);
    expect((await storedFiles()).objects).toHaveLength(filesBefore.objects.length + 1);
  });
});
