import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Attachment } from '@soc/contracts';
import { loadConfig } from '../config.ts';
import { buildAnalyst, buildCustomer, buildIncident, buildSystem } from '../test/builders.ts';
import type { TestContext } from '../test/harness.ts';
import { bearer, createTestContext } from '../test/harness.ts';
import { multipart } from '../test/multipart.ts';
import { COMPRESSION_THRESHOLD_BYTES, LARGE_ANSWER_BYTES, acceptedEncoding } from './compression.ts';

const API = '/api/v0/soc';
const LIST = `${API}/incs/?limit=40`;
/** A compressible stored file (a log), larger than the threshold. */
const LOG = Buffer.from(
  '2026-11-20T12:00:00Z sshd[42]: Failed password for root from 10.0.0.1\n'.repeat(200),
);

/** A built web app: one hashed script with its pre-compressed copies, index.html with its own. */
const webDist = mkdtempSync(path.join(tmpdir(), 'soc-web-'));
const SCRIPT = `export const rows = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => `row ${i}`))};\n`;
const INDEX = `<!doctype html><title>portal</title><div id="root"></div>${'<!-- padding -->'.repeat(100)}`;
function writeWebDist(): void {
  mkdirSync(path.join(webDist, 'assets'));
  for (const [file, body] of [
    ['assets/index-abc.js', SCRIPT],
    ['index.html', INDEX],
  ] as const) {
    writeFileSync(path.join(webDist, file), body);
    writeFileSync(path.join(webDist, `${file}.br`), brotliCompressSync(body));
    writeFileSync(path.join(webDist, `${file}.gz`), gzipSync(body));
  }
}

let ctx: TestContext;
let analyst: string;
let customer: string;
let logPath: string;

beforeAll(async () => {
  writeWebDist();
  ctx = await createTestContext({ incidents: 40, config: { webDist } });
  analyst = await (await buildAnalyst(ctx)).login();
  const system = await buildSystem(ctx);
  customer = await (await buildCustomer(ctx, [system.id])).login();
  const incident = await buildIncident(ctx, system.id);
  const body = multipart({}, [{ field: 'attachments', name: 'auth.log', type: 'text/plain', body: LOG }]);
  const res = await ctx.app.inject({
    method: 'POST',
    url: `${API}/incs/${incident.key}/add_file/`,
    headers: { ...bearer(customer), ...body.headers },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  const [file] = res.json<{ attachments: Attachment[] }>().attachments;
  logPath = `${API}/files/incidents/${incident.key}/${file!.id}/download/`;
});
afterAll(async () => {
  await ctx.close();
  rmSync(webDist, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}, token = analyst) =>
  ctx.app.inject({ method: 'GET', url, headers: { ...bearer(token), ...headers } });

describe('API answers', () => {
  it('are compressed with Brotli when the client accepts it, and decode to the same answer', async () => {
    const plain = await get(LIST);
    const res = await get(LIST, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    const decoded = brotliDecompressSync(res.rawPayload);
    expect(JSON.parse(decoded.toString('utf8'))).toEqual(plain.json());
    expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
  });

  it('are gzipped for a client that accepts only gzip', async () => {
    const res = await get(LIST, { 'accept-encoding': 'gzip' });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(res.rawPayload).toString('utf8'))).toHaveProperty('results');
  });

  it('go out as they are to a client that accepts no encoding, still saying they vary', async () => {
    const asked: Record<string, string>[] = [{}, { 'accept-encoding': 'identity' }];
    for (const headers of asked) {
      const res = await get(LIST, headers);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.rawPayload.length).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);
      expect(res.json()).toHaveProperty('results');
    }
  });

  it('are not compressed under 1 KB', async () => {
    const res = await ctx.app.inject({ url: '/healthz', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.rawPayload.length).toBeLessThan(COMPRESSION_THRESHOLD_BYTES);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('compress a large answer that is the same text each time once, and send it alike', async () => {
    const url = `${API}/mitre_matrix/`;
    const plain = await get(url);
    expect(plain.rawPayload.length).toBeGreaterThanOrEqual(LARGE_ANSWER_BYTES);
    for (const [accept, encoding, decode] of [
      ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
    ] as const) {
      const first = await get(url, { 'accept-encoding': accept });
      const second = await get(url, { 'accept-encoding': accept });
      expect(first.headers['content-encoding']).toBe(encoding);
      expect(first.headers['content-length']).toBe(String(first.rawPayload.length));
      expect(first.headers.vary).toMatch(/accept-encoding/i);
      expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
      expect(decode(first.rawPayload).equals(plain.rawPayload)).toBe(true);
    }
  });

  it('name the encodings a client accepts, Brotli first, none refused by q=0', () => {
    expect(acceptedEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(acceptedEncoding('gzip;q=1, br;q=0.5')).toBe('gzip');
    expect(acceptedEncoding('br;q=0, gzip')).toBe('gzip');
    expect(acceptedEncoding('*')).toBe('br');
    expect(acceptedEncoding('identity')).toBeNull();
    expect(acceptedEncoding(undefined)).toBeNull();
  });

  it('include the CSV export, which is streamed compressed', async () => {
    const res = await get(`${API}/incs/get_csv/`, { 'accept-encoding': 'gzip' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-encoding']).toBe('gzip');
    const csv = gunzipSync(res.rawPayload).toString('utf8');
    // UTF-8 with BOM, a header row and the 40 incidents
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(csv.trim().split('\n').length).toBeGreaterThan(40);
  });
});

describe('stored files', () => {
  it('are sent as stored, whole with their length and in byte ranges', async () => {
    const whole = await get(logPath, { 'accept-encoding': 'br, gzip' }, customer);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-encoding']).toBeUndefined();
    expect(whole.headers['content-length']).toBe(String(LOG.length));
    expect(whole.rawPayload.equals(LOG)).toBe(true);

    const part = await get(logPath, { 'accept-encoding': 'br, gzip', range: 'bytes=0-19' }, customer);
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-encoding']).toBeUndefined();
    expect(part.rawPayload.equals(LOG.subarray(0, 20))).toBe(true);
  });
});

describe('the web app', () => {
  it('serves the pre-compressed copy of a hashed asset the browser accepts, cached for a year', async () => {
    for (const [accept, encoding, decode] of [
      ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
    ] as const) {
      const res = await ctx.app.inject({
        url: '/assets/index-abc.js',
        headers: { 'accept-encoding': accept },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(decode(res.rawPayload).toString('utf8')).toBe(SCRIPT);
    }
  });

  it('keeps only the security headers a script obeys on hashed scripts, and all of them on documents', async () => {
    const script = await ctx.app.inject({
      url: '/assets/index-abc.js',
      headers: { 'accept-encoding': 'br' },
    });
    expect(script.headers['x-content-type-options']).toBe('nosniff');
    expect(script.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(script.headers['content-security-policy']).toBeUndefined();
    expect(script.headers['x-frame-options']).toBeUndefined();
    const page = await ctx.app.inject({ url: '/incidents', headers: { 'accept-encoding': 'br' } });
    expect(page.headers['content-security-policy']).toContain("worker-src 'self'");
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('serves the file itself to a browser that accepts no encoding', async () => {
    const res = await ctx.app.inject({ url: '/assets/index-abc.js' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.body).toBe(SCRIPT);
  });

  it('serves index.html compressed and uncached, at the root and for client-side routes', async () => {
    for (const url of ['/', '/incidents']) {
      const res = await ctx.app.inject({ url, headers: { 'accept-encoding': 'br' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(brotliDecompressSync(res.rawPayload).toString('utf8')).toBe(INDEX);
    }
  });
});

describe('with HTTP_COMPRESSION=off', () => {
  let off: TestContext;
  beforeAll(async () => {
    const config = loadConfig({ DATA_DIR: tmpdir(), HTTP_COMPRESSION: 'off', JWT_SECRET: 'x'.repeat(40) });
    off = await createTestContext({ incidents: 40, config: { compression: config.compression } });
  });
  afterAll(() => off.close());

  it('sends API answers as they are, even to a client that asks for Brotli', async () => {
    const token = await (await buildAnalyst(off)).login();
    const res = await off.app.inject({
      url: LIST,
      headers: { ...bearer(token), 'accept-encoding': 'br, gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toHaveProperty('results');
  });
});

describe('compression settings', () => {
  const env = { DATA_DIR: tmpdir(), JWT_SECRET: 'x'.repeat(40) };

  it('default to on, Brotli quality 4 and gzip level 6', () => {
    expect(loadConfig(env).compression).toEqual({ enabled: true, brotliQuality: 4, gzipLevel: 6 });
  });

  it('take levels from the environment and refuse ones out of range', () => {
    const config = loadConfig({
      ...env,
      HTTP_COMPRESSION_BROTLI_QUALITY: '5',
      HTTP_COMPRESSION_GZIP_LEVEL: '1',
    });
    expect(config.compression).toEqual({ enabled: true, brotliQuality: 5, gzipLevel: 1 });
    expect(() => loadConfig({ ...env, HTTP_COMPRESSION_BROTLI_QUALITY: '12' })).toThrow(/BROTLI/);
    expect(() => loadConfig({ ...env, HTTP_COMPRESSION: 'maybe' })).toThrow(/HTTP_COMPRESSION/);
  });
});
