import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SimulatorOptions {
  username: string;
  password: string;
}

export interface NationalCentreSimulator {
  url: string;
  /** Incidents registered, by idempotency key. */
  registered: Map<string, { id: string; body: Record<string, unknown> }>;
  /** Requests received (including refused and repeated ones). */
  requests: number;
  /** The next `count` requests answer `status` (e.g. 503). */
  failNext(count: number, status: number): void;
  /** The next `count` requests are processed but answered only after `ms` (a lost answer). */
  delayNext(count: number, ms: number): void;
  close(): Promise<void>;
}

/**
 * A local stand-in for the national incident-reporting centre's API, for the demo and tests:
 * `POST /incidents` with Basic credentials and an Idempotency-Key answers `201 {id}`; a
 * repeated key answers `200` with the same id.
 */
export async function startNationalCentreSimulator(
  options: SimulatorOptions,
): Promise<NationalCentreSimulator> {
  const registered = new Map<string, { id: string; body: Record<string, unknown> }>();
  const failures: number[] = [];
  const delays: number[] = [];
  let sequence = 0;
  let requests = 0;
  const expected = `Basic ${Buffer.from(`${options.username}:${options.password}`).toString('base64')}`;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests += 1;
      const answer = (status: number, body: object) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method !== 'POST' || req.url !== '/incidents') return answer(404, { detail: 'Not found' });
      const failure = failures.shift();
      if (failure !== undefined) return answer(failure, { detail: 'Simulated failure' });
      if (req.headers.authorization !== expected) return answer(401, { detail: 'Bad credentials' });
      const key = req.headers['idempotency-key'];
      if (typeof key !== 'string' || !key) return answer(400, { detail: 'Idempotency-Key is required' });
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        return answer(400, { detail: 'Malformed JSON' });
      }
      if (typeof body.summary !== 'string' || typeof body.key !== 'number') {
        return answer(400, { detail: 'summary and key are required' });
      }
      const known = registered.get(key);
      let status = 200;
      let entry = known;
      if (!entry) {
        sequence += 1;
        entry = { id: `GSP-${new Date().getUTCFullYear()}-${String(sequence).padStart(6, '0')}`, body };
        registered.set(key, entry);
        status = 201;
      }
      const delay = delays.shift();
      const result = { id: entry.id, received_at: new Date().toISOString() };
      if (delay) setTimeout(() => answer(status, result), delay).unref();
      else answer(status, result);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    registered,
    get requests() {
      return requests;
    },
    failNext(count, status) {
      for (let i = 0; i < count; i++) failures.push(status);
    },
    delayNext(count, ms) {
      for (let i = 0; i < count; i++) delays.push(ms);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
