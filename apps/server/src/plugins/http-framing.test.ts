import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestContext } from '../test/harness.ts';
import { createTestContext } from '../test/harness.ts';

let ctx: TestContext;
let port: number;
beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  port = Number(new URL(await ctx.app.listen({ host: '127.0.0.1', port: 0 })).port);
});
afterAll(() => ctx.close());

/**
 * Sends `head` (the request line and header fields, CRLF-separated) over a raw TCP connection,
 * as written: `inject` and HTTP clients merge or refuse repeated fields. Answers the status and
 * the body once the server closes the connection.
 */
function rawRequest(head: string[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
      resolve({ status, body: text.slice(text.indexOf('\r\n\r\n') + 4) });
    });
    socket.write(`${[...head, 'Connection: close'].join('\r\n')}\r\n\r\n`);
  });
}

describe('repeated Host header fields (RFC 9112 §3.2)', () => {
  it('answers 400 with the error body to a request with two Host fields, in any spelling', async () => {
    for (const [first, second] of [
      ['Host', 'Host'],
      ['Host', 'host'],
      ['HOST', 'hOsT'],
    ]) {
      const res = await rawRequest([
        'GET /healthz HTTP/1.1',
        `${first}: portal.example`,
        'Accept-Language: en',
        `${second}: evil.example`,
      ]);
      expect(res.status, res.body).toBe(400);
      expect(JSON.parse(res.body)).toEqual({ detail: 'The request carries more than one Host header.' });
    }
    const ru = await rawRequest(['GET /api/v0/auth/user/ HTTP/1.1', 'Host: a.example', 'Host: a.example']);
    expect(ru.status).toBe(400);
    expect(JSON.parse(ru.body)).toEqual({ detail: 'В запросе больше одного заголовка Host.' });
  });

  it('answers a request with one Host field as usual', async () => {
    const res = await rawRequest(['GET /healthz HTTP/1.1', 'Host: portal.example']);
    expect(res.status, res.body).toBe(200);
  });
});
