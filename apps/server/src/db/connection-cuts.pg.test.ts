import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveEvent } from '@soc/contracts';
import { LISTEN_APPLICATION_NAME, queryRows } from './client.ts';
import type { TestContext } from '../test/harness.ts';
import { bearer, createTestContext } from '../test/harness.ts';
import type { BuiltUser } from '../test/builders.ts';
import { BUILT_PASSWORD, buildCustomer, buildIncident, buildSystem } from '../test/builders.ts';
import type { TcpProxy } from '../test/tcp-proxy.ts';
import { startTcpProxy } from '../test/tcp-proxy.ts';
import { until } from '../test/server-process.ts';

/*
 * Issue 38, item 1: the database's connections are cut again and again while requests run (a
 * TCP proxy between the app and PostgreSQL destroys every open connection, 20 times). Every pg
 * client the server opens (the pool's, checked out or idle, the LISTEN connection, the job
 * runner's queries) handles its 'error' event, so the process lives: no uncaught exception, no
 * unhandled rejection. Every answer is a success or 503 with Retry-After; afterwards the pool
 * and the LISTEN connection are back by themselves, and an event committed while the LISTEN
 * connection was down still reaches an open event stream (the bus replays it from `events`).
 */

const CUTS = 20;
/** Answers to wait for between two cuts: each cut meets requests in flight. */
const ANSWERS_PER_CUT = 3;
const LOOPS = 4;

let proxy: TcpProxy;
let ctx: TestContext;
let base: string;
let customer: BuiltUser;
let token: string;
let key: number;
const crashes: unknown[] = [];
const onCrash = (err: unknown) => void crashes.push(err);

beforeAll(async () => {
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  const target = new URL(process.env.TEST_DATABASE_URL!);
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  ctx = await createTestContext({ incidents: 0, databaseVia: { host: '127.0.0.1', port: proxy.port } });
  const system = await buildSystem(ctx);
  customer = await buildCustomer(ctx, [system.id]);
  token = await customer.login();
  key = (await buildIncident(ctx, system.id, { status: 'work_in_progress' })).key;
  base = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  // the job runner polls through the same pool meanwhile
  ctx.app.jobs.start();
});

afterAll(async () => {
  await ctx?.close();
  await proxy?.close();
  process.off('uncaughtException', onCrash);
  process.off('unhandledRejection', onCrash);
});

interface Answer {
  what: string;
  status: number;
  retryAfter: string | null;
  body: string;
}

/** One request of the mix: reads, a sign-in (a write), a comment (a transaction with a row lock). */
async function send(i: number): Promise<Answer> {
  const kind = i % 4;
  const request: [string, RequestInit] =
    kind === 0
      ? ['/api/v0/soc/incs/?limit=5', { headers: bearer(token) }]
      : kind === 1
        ? [`/api/v0/soc/incs/${key}/`, { headers: bearer(token) }]
        : kind === 2
          ? [
              '/api/v0/auth/token/obtain/',
              {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ username: customer.username, password: BUILT_PASSWORD }),
              },
            ]
          : [
              `/api/v0/soc/incs/${key}/comments/`,
              { method: 'POST', headers: bearer(token), body: formWith(`comment ${i} during the cuts`) },
            ];
  const res = await fetch(`${base}${request[0]}`, request[1]);
  return {
    what: `${request[1].method ?? 'GET'} ${request[0]}`,
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    body: await res.text(),
  };
}

function formWith(body: string): FormData {
  const form = new FormData();
  form.set('body', body);
  return form;
}

/** An open event stream of the customer: the events it has received so far. */
async function openStream(): Promise<{ events: LiveEvent[]; close: () => void }> {
  const ticket = await fetch(`${base}/api/v0/events/ticket/`, { method: 'POST', headers: bearer(token) });
  expect(ticket.status).toBe(200);
  const controller = new AbortController();
  const { ticket: value } = (await ticket.json()) as { ticket: string };
  const res = await fetch(`${base}/api/v0/events/?ticket=${value}`, {
    signal: controller.signal,
  });
  expect(res.status).toBe(200);
  const events: LiveEvent[] = [];
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body!) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const data = buffer
            .slice(0, end)
            .split('\n')
            .filter((l) => l.startsWith('data: '))
            .map((l) => l.slice(6))
            .join('\n');
          buffer = buffer.slice(end + 2);
          if (data) events.push(JSON.parse(data) as LiveEvent);
        }
      }
    } catch {
      // closed by the test
    }
  })();
  return { events, close: () => controller.abort() };
}

/** The id of the newest `comment.created` event. */
async function newestCommentEvent(): Promise<number> {
  const rows = await queryRows<{ id: string }>(
    ctx.database.db,
    sql`SELECT max(id) AS id FROM events WHERE type = 'comment.created'`,
  );
  return Number(rows[0]!.id);
}

describe('database connections cut while requests run', () => {
  it('keeps the process alive: every answer is 2xx or 503 with Retry-After, then all works again', async () => {
    const answers: Answer[] = [];
    let done = false;
    const loops = Array.from({ length: LOOPS }, async (_, loop) => {
      for (let i = loop; !done; i += LOOPS) answers.push(await send(i));
    });
    let cut = 0;
    let cutConnections = 0;
    try {
      for (; cut < CUTS; cut++) {
        const seen = answers.length;
        await until(`answers before cut ${cut + 1}`, async () => answers.length >= seen + ANSWERS_PER_CUT);
        cutConnections += proxy.drop();
      }
    } finally {
      done = true;
      await Promise.all(loops);
    }
    expect(cut).toBe(CUTS);
    expect(cutConnections).toBeGreaterThan(CUTS);
    expect(crashes).toEqual([]);

    const wrong = answers.filter(
      (a) => !(a.status >= 200 && a.status < 300) && !(a.status === 503 && Number(a.retryAfter) > 0),
    );
    expect(wrong.map((a) => `${a.what}: ${a.status} ${a.body.slice(0, 200)}`)).toEqual([]);
    // the cuts met requests in flight, and a 503 says so in words, without internals
    const unavailable = answers.filter((a) => a.status === 503);
    expect(unavailable.length).toBeGreaterThan(0);
    for (const a of unavailable) {
      const body = JSON.parse(a.body) as Record<string, unknown>;
      expect(Object.keys(body)).toEqual(['detail']);
      expect(typeof body.detail).toBe('string');
      expect(a.body).not.toMatch(/Connection terminated|ECONN|SELECT|at .*\.ts/);
    }

    // the pool reconnects by itself: every kind of request answers well again
    for (let i = 0; i < 4; i++) {
      const again = await until(`request ${i} to succeed after the cuts`, async () => {
        const a = await send(i);
        return a.status < 300 ? a : undefined;
      });
      expect(again.status).toBeLessThan(300);
    }
    // and no connection stayed checked out by a request a cut failed (a BEGIN cut on a
    // connection kept it out of the pool for good, and closing the pool then waited forever)
    const back = await until('every connection back in the pool', async () => {
      const stats = ctx.database.poolStats!();
      return stats.idle === stats.total && stats;
    });
    expect(back.total).toBeGreaterThan(0);
    expect(crashes).toEqual([]);
  });

  it('listens again after a cut and delivers the events committed while it could not', async () => {
    const stream = await openStream();
    const comment = (text: string) =>
      fetch(`${base}/api/v0/soc/incs/${key}/comments/`, {
        method: 'POST',
        headers: bearer(token),
        body: formWith(text),
      });
    try {
      // the LISTEN connection is cut and kept from coming back while a comment is committed
      proxy.block(LISTEN_APPLICATION_NAME);
      proxy.drop();
      const during = await until('a comment written while LISTEN is down', async () => {
        const res = await comment('written while nobody listens');
        return res.status === 201 ? res : undefined;
      });
      expect(during.status).toBe(201);
      const missed = await newestCommentEvent();
      expect(stream.events.map((e) => e.id)).not.toContain(missed);

      // back: the event committed meanwhile arrives, and so do new ones
      proxy.block(null);
      await until('the missed event on the open stream', async () =>
        stream.events.some((e) => e.id === missed),
      );
      expect((await comment('written once it listens again')).status).toBe(201);
      const later = await newestCommentEvent();
      await until('a new event on the open stream', async () => stream.events.some((e) => e.id === later));
      expect(stream.events.filter((e) => e.id === missed)).toHaveLength(1);
    } finally {
      stream.close();
    }
    expect(crashes).toEqual([]);
  });
});
