import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  WEBHOOK_MAX_RESPONSE_BYTES,
  createWebhookSender,
  parseRetryAfter,
  readAtMost,
  withoutSecrets,
} from './webhook-sender.ts';
import { retryDelayMs } from './webhooks.service.ts';

let base: string;
let close: () => Promise<void>;

beforeAll(async () => {
  const server = createServer((req, res) => {
    if (req.url === '/redirect') {
      res.writeHead(302, { location: '/elsewhere' });
      return res.end();
    }
    if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      // far more than is read: the sender stops at 64 KB
      const chunk = Buffer.alloc(64 * 1024, 1);
      let sent = 0;
      const pump = () => {
        while (sent < 200 && res.write(chunk)) sent += 1;
        if (sent < 200) res.once('drain', pump);
        else res.end();
      };
      res.on('error', () => undefined);
      return pump();
    }
    if (req.url === '/slow') return; // never answers
    res.writeHead(204);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
});

afterAll(async () => close?.());

describe('webhook sender', () => {
  const sender = createWebhookSender({ allowPrivateCidrs: ['127.0.0.1/32'], timeoutMs: 500 });

  it('does not follow redirects and does not retry them', async () => {
    const out = await sender.send(`${base}/redirect`, {}, '{}');
    expect(out).toMatchObject({ statusCode: 302, error: 'redirect not followed', retryable: false });
  });

  it('reads at most 64 KB of an answer', async () => {
    const out = await sender.send(`${base}/big`, {}, '{}');
    expect(out).toMatchObject({ statusCode: 200, error: null });
    let pulled = 0;
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(4096));
      },
      cancel() {
        cancelled = true;
      },
    });
    const read = await readAtMost(endless, WEBHOOK_MAX_RESPONSE_BYTES);
    expect(read).toBe(WEBHOOK_MAX_RESPONSE_BYTES);
    expect(pulled).toBeLessThanOrEqual(WEBHOOK_MAX_RESPONSE_BYTES / 4096 + 2);
    expect(cancelled).toBe(true);
  });

  it('gives up after its time-out and retries later', async () => {
    const out = await sender.send(`${base}/slow`, {}, '{}');
    expect(out).toMatchObject({ statusCode: null, retryable: true });
    expect(out.error).toMatch(/no answer/);
    expect(out.durationMs).toBeLessThan(5_000);
  });

  it('refuses an address outside the allow-list without retrying', async () => {
    const strict = createWebhookSender({ allowPrivateCidrs: [] });
    const out = await strict.send(`${base}/`, {}, '{}');
    expect(out).toMatchObject({ statusCode: null, retryable: false });
    expect(out.error).toMatch(/^refused/);
  });
});

describe('error texts of the delivery log', () => {
  it('never quote the URL nor its path and query', () => {
    const url = 'https://hooks.slack.com/services/T0/B0/secretKey?token=q1';
    expect(withoutSecrets(`connect failed for ${url}`, url)).toBe(
      'connect failed for https://hooks.slack.com/…',
    );
    expect(withoutSecrets('GET /services/T0/B0/secretKey?token=q1 refused', url)).toBe('GET /… refused');
    expect(withoutSecrets('network error: ECONNRESET', url)).toBe('network error: ECONNRESET');
  });
});

describe('retry schedule', () => {
  it('grows exponentially with jitter, at most an hour, never below Retry-After', () => {
    expect(retryDelayMs(1, 1000, null, () => 0)).toBe(500);
    expect(retryDelayMs(1, 1000, null, () => 1)).toBe(1000);
    expect(retryDelayMs(4, 1000, null, () => 1)).toBe(8000);
    expect(retryDelayMs(30, 1000, null, () => 1)).toBe(3_600_000);
    expect(retryDelayMs(1, 1000, 90_000, () => 1)).toBe(90_000);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('120')).toBe(120_000);
    expect(parseRetryAfter(new Date(Date.now() + 60_000).toUTCString())).toBeGreaterThan(58_000);
    expect(parseRetryAfter('soon')).toBeNull();
    expect(parseRetryAfter(null)).toBeNull();
  });
});
