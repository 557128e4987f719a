import http from 'node:http';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveEvent } from '@soc/contracts';
import { categories, issueTypes } from '../../db/schema/index.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import { buildAnalyst, buildCustomer, buildSystem, buildUser } from '../../test/builders.ts';
import { buildApp } from '../../app.ts';
import { EVENTS_MAX_STREAMS_PER_USER } from './events.service.ts';

let ctx: TestContext;
let base: string;
/** `customer` sees the system `own`, `stranger` the system `other`. */
const tokens: Record<string, string> = {};
const systemIds: Record<'own' | 'other', number> = { own: 0, other: 0 };
let analystId: number;

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  const address = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  base = address;
  systemIds.own = (await buildSystem(ctx)).id;
  systemIds.other = (await buildSystem(ctx)).id;
  tokens.customer = await (await buildCustomer(ctx, [systemIds.own])).login();
  tokens.stranger = await (await buildCustomer(ctx, [systemIds.other])).login();
  const analyst = await buildAnalyst(ctx);
  analystId = analyst.id;
  tokens.analyst = await analyst.login();
  tokens.admin = await (await buildUser(ctx, { role: 'admin' })).login();
});
afterAll(async () => {
  await ctx.close();
});

/** A live stream as a test reads it: the events so far and a wait for the next matching one. */
interface Stream {
  status: number;
  events: LiveEvent[];
  /** Settles when the server ends the stream. */
  ended: Promise<void>;
  waitFor(match: (e: LiveEvent) => boolean, ms?: number): Promise<LiveEvent>;
  close(): void;
}

function open(path: string, headers: Record<string, string> = {}): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${path}`, { headers }, (res) => {
      const events: LiveEvent[] = [];
      const waiters: { match: (e: LiveEvent) => boolean; resolve: (e: LiveEvent) => void }[] = [];
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = frame
            .split('\n')
            .filter((l) => l.startsWith('data: '))
            .map((l) => l.slice(6))
            .join('\n');
          if (!data) continue;
          const event = JSON.parse(data) as LiveEvent;
          events.push(event);
          for (const w of waiters.filter((x) => x.match(event))) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve(event);
          }
        }
      });
      const ended = new Promise<void>((done) => res.on('close', done));
      res.resume();
      resolve({
        status: res.statusCode ?? 0,
        events,
        ended,
        waitFor(match, ms = 5000) {
          const seen = events.find(match);
          if (seen) return Promise.resolve(seen);
          return new Promise((ok, fail) => {
            const timer = setTimeout(() => fail(new Error('no such event within the time')), ms);
            waiters.push({
              match,
              resolve: (e) => {
                clearTimeout(timer);
                ok(e);
              },
            });
          });
        },
        close: () => req.destroy(),
      });
    });
    req.on('error', (err) => {
      if ((err as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(err);
    });
  });
}

async function ticketFor(user: string): Promise<string> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v0/events/ticket/',
    headers: bearer(tokens[user]!),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ ticket: string }>().ticket;
}

async function createIncident(system: 'own' | 'other', summary: string): Promise<number> {
  const db = ctx.database.db;
  const [type] = await db.select().from(issueTypes).where(eq(issueTypes.code, 'incident'));
  const [category] = await db.select().from(categories).where(eq(categories.issueTypeId, type!.id)).limit(1);
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v0/soc/incs/',
    headers: bearer(tokens.analyst!),
    payload: {
      system: systemIds[system],
      summary,
      issuetype: type!.id,
      priority: 'high',
      description: 'Raised while a customer watches.',
      primary_category: category!.id,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ key: number }>().key;
}

describe('GET /api/v0/events/', () => {
  it('pushes a new incident to a connected customer of its system and not to another system’s user', async () => {
    const mine = await open(`/api/v0/events/?ticket=${await ticketFor('customer')}`);
    const theirs = await open(`/api/v0/events/?ticket=${await ticketFor('stranger')}`);
    expect(mine.status).toBe(200);
    expect(theirs.status).toBe(200);
    try {
      const key = await createIncident('own', 'Lateral movement from the print server');
      const seen = await mine.waitFor((e) => e.type === 'incident.created' && e.key === key);
      expect(seen.summary).toBe('Lateral movement from the print server');
      expect(seen.status).toBe('waiting_for_customer');
      // who registered it, so that the author's own browser does not warn them of their incident
      expect(seen.reporter_id).toBe(analystId);
      // a later event that the stranger may see: once it arrived, the customer's would have arrived before it
      const theirKey = await createIncident('other', 'Phishing wave');
      await theirs.waitFor((e) => e.type === 'incident.created' && e.key === theirKey);
      expect(theirs.events.some((e) => e.key === key)).toBe(false);
      expect(mine.events.some((e) => e.key === theirKey)).toBe(false);
    } finally {
      mine.close();
      theirs.close();
    }
  });

  it('pushes changes and SOC comments, and catches a reconnecting client up from Last-Event-ID', async () => {
    const mine = await open(`/api/v0/events/?ticket=${await ticketFor('customer')}`);
    const key = await createIncident('own', 'Brute force on OWA');
    const created = await mine.waitFor((e) => e.key === key && e.type === 'incident.created');
    mine.close();
    // while the customer is away: the analyst comments
    const comment = await ctx.app.inject({
      method: 'POST',
      url: `/api/v0/soc/incs/${key}/comments/`,
      headers: { ...bearer(tokens.analyst!), 'content-type': 'multipart/form-data; boundary=X' },
      payload:
        '--X\r\nContent-Disposition: form-data; name="body"\r\n\r\nPlease confirm the source host.\r\n--X--\r\n',
    });
    expect(comment.statusCode, comment.body).toBe(201);
    const again = await open(`/api/v0/events/?ticket=${await ticketFor('customer')}`, {
      'last-event-id': String(created.id),
    });
    try {
      const missed = await again.waitFor((e) => e.type === 'comment.created' && e.key === key);
      expect(missed.from_soc).toBe(true);
      expect(again.events.some((e) => e.id === created.id)).toBe(false);
    } finally {
      again.close();
    }
  });

  it('refuses a missing or forged ticket, and an access token in its place', async () => {
    expect((await open('/api/v0/events/?ticket=nonsense')).status).toBe(401);
    expect((await open(`/api/v0/events/?ticket=${tokens.customer}`)).status).toBe(401);
    expect((await open('/api/v0/events/')).status).toBe(400);
    // and a ticket is no access token
    const ticket = await ticketFor('customer');
    const res = await ctx.app.inject({ method: 'GET', url: '/api/v0/soc/incs/', headers: bearer(ticket) });
    expect(res.statusCode).toBe(401);
  });

  it('needs a signed-in caller for a ticket', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/api/v0/events/ticket/' });
    expect(res.statusCode).toBe(401);
  });

  it('refuses a ticket to an API token: the stream would not keep the token’s system limit', async () => {
    const issued = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/admin/service_tokens/',
      headers: bearer(tokens.admin!),
      payload: { name: 'stream probe', user_id: analystId, systems: [systemIds.own] },
    });
    expect(issued.statusCode, issued.body).toBe(201);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/events/ticket/',
      headers: { ...bearer(issued.json<{ token: string }>().token), 'accept-language': 'en' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json<{ detail: string }>().detail).toMatch(/API tokens/);
  });
});

describe('tickets and stream limits', () => {
  it('opens one stream once: a second use of the ticket is refused, during and after the first stream', async () => {
    const ticket = await ticketFor('customer');
    const first = await open(`/api/v0/events/?ticket=${ticket}`);
    expect(first.status).toBe(200);
    const during = await open(`/api/v0/events/?ticket=${ticket}`);
    expect(during.status).toBe(401);
    first.close();
    await first.ended;
    expect((await open(`/api/v0/events/?ticket=${ticket}`)).status).toBe(401);
    // a fresh ticket still works
    const next = await open(`/api/v0/events/?ticket=${await ticketFor('customer')}`);
    expect(next.status).toBe(200);
    next.close();
  });

  it('refuses the second use on another instance of the same database, even at the same moment', async () => {
    const other = await buildApp({ config: ctx.config, database: ctx.database });
    try {
      await other.ready();
      const otherBase = await other.listen({ host: '127.0.0.1', port: 0 });
      const ticket = await ticketFor('customer');
      const attempts = await Promise.all(
        [base, otherBase, base, otherBase].map(
          (origin) =>
            new Promise<number>((resolve, reject) => {
              const req = http.get(`${origin}/api/v0/events/?ticket=${ticket}`, (res) => {
                resolve(res.statusCode ?? 0);
                req.destroy();
              });
              req.on('error', (err) => {
                if ((err as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(err);
              });
            }),
        ),
      );
      expect(attempts.sort()).toEqual([200, 401, 401, 401]);
    } finally {
      await other.close();
    }
  });

  it(`keeps at most ${EVENTS_MAX_STREAMS_PER_USER} streams per user: opening another ends the oldest`, async () => {
    const streams: Stream[] = [];
    for (let i = 0; i <= EVENTS_MAX_STREAMS_PER_USER; i++) {
      const stream = await open(`/api/v0/events/?ticket=${await ticketFor('customer')}`);
      expect(stream.status).toBe(200);
      streams.push(stream);
    }
    const theirs = await open(`/api/v0/events/?ticket=${await ticketFor('stranger')}`);
    try {
      await streams[0]!.ended;
      // the newest five and another user's stream are still served
      const key = await createIncident('own', 'Six tabs open');
      for (const s of streams.slice(1)) await s.waitFor((e) => e.key === key);
      const theirKey = await createIncident('other', 'The stranger still listens');
      await theirs.waitFor((e) => e.key === theirKey);
      expect(streams[0]!.events.some((e) => e.key === key)).toBe(false);
    } finally {
      for (const s of streams) s.close();
      theirs.close();
    }
  });
});
