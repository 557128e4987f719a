import http from 'node:http';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  InboxCount,
  InboxItem,
  InboxListResponse,
  NotificationPreferencesResponse,
  PortalEvent,
} from '@soc/contracts';
import { inboxItems, incidents, reports, tasks, userSystems } from '../../db/schema/index.ts';
import type { BuiltUser } from '../../test/builders.ts';
import {
  buildAnalyst,
  buildComment,
  buildCustomer,
  buildIncident,
  buildReport,
  buildSystem,
  forgetBuiltEvents,
} from '../../test/builders.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import { createInboxRepository } from './inbox.repository.ts';
import { cappedCount } from './inbox.service.ts';

let ctx: TestContext;
let base: string;
/** alice and carol: customers of system A; bob: of system B; analyst: staff. */
const users = {} as Record<'alice' | 'carol' | 'bob' | 'analyst', BuiltUser>;
const tokens: Record<string, string> = {};
const sys = { a: 0, b: 0 };

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  base = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  sys.a = (await buildSystem(ctx)).id;
  sys.b = (await buildSystem(ctx)).id;
  users.alice = await buildCustomer(ctx, [sys.a]);
  users.carol = await buildCustomer(ctx, [sys.a]);
  users.bob = await buildCustomer(ctx, [sys.b]);
  users.analyst = await buildAnalyst(ctx);
  for (const [name, user] of Object.entries(users)) tokens[name] = await user.login();
  await forgetBuiltEvents(ctx);
});
afterAll(async () => {
  await ctx.close();
});

const call = (user: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  ctx.app.inject({
    method,
    url: `/api/v0/notifications${url}`,
    headers: bearer(tokens[user]!),
    ...(payload ? { payload } : {}),
  });
const items = async (user: string, query = '') => {
  const res = await call(user, 'GET', `/inbox/${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<InboxListResponse>();
};
const unread = async (user: string) => (await call(user, 'GET', '/inbox/count/')).json<InboxCount>().unread;
const kinds = async (user: string) => (await items(user)).results.map((i) => i.kind);

/** Runs the dispatch and the jobs it queued (notify.inbox among them). */
const dispatch = () => ctx.app.jobs.runDue();

describe('the notification centre', () => {
  let key = 0;
  let incidentId = '';

  it('tells the customers of the system about a new incident, not its reporter, another tenant or staff', async () => {
    const incident = await buildIncident(ctx, sys.a, { reporterId: users.alice.id });
    key = incident.key;
    incidentId = incident.id;
    await buildIncident(ctx, sys.b);
    await dispatch();
    const [item] = (await items('carol')).results;
    expect(item).toMatchObject({ kind: 'incident_created', read: false, incident: { key } });
    expect(await kinds('alice')).toEqual([]);
    // bob's new incident is of system B: he gets it, and nothing of A
    expect((await items('bob')).results.map((i) => i.incident?.key)).not.toContain(key);
    expect(await kinds('bob')).toEqual(['incident_created']);
    expect(await kinds('analyst')).toEqual([]);
  });

  it('tells the followers of an incident about comments by others and status changes', async () => {
    await buildComment(ctx, incidentId);
    await dispatch();
    // alice registered it: she follows; carol does not
    expect(await kinds('alice')).toEqual(['comment']);
    expect(await kinds('carol')).toEqual(['incident_created']);

    // carol comments: alice hears of it, carol (the author) does not, and carol now follows
    await buildComment(ctx, incidentId, { authorId: users.carol.id, authorName: 'Carol' });
    await dispatch();
    expect(await kinds('alice')).toEqual(['comment', 'comment']);
    expect(await kinds('carol')).toEqual(['incident_created']);

    await ctx.database.db.update(incidents).set({ status: 'work_in_progress' }).where(eq(incidents.key, key));
    await dispatch();
    const [change] = (await items('carol')).results;
    expect(change).toMatchObject({ kind: 'status_changed', status: 'work_in_progress', incident: { key } });
    expect((await kinds('alice'))[0]).toBe('status_changed');
    expect(await kinds('bob')).toEqual(['incident_created']);
  });

  it('tells no one of their own status change or comment, and the other followers of both', async () => {
    const own = await buildIncident(ctx, sys.a, {
      reporterId: users.alice.id,
      status: 'waiting_for_customer',
    });
    await buildComment(ctx, own.id, { authorId: users.carol.id, authorName: 'Carol' });
    await dispatch();
    /** The kinds of a user's newest items about this incident, sorted. */
    const ofOwn = async (user: string) =>
      (await items(user, '?page_size=20')).results
        .filter((i) => i.incident?.key === own.key)
        .map((i) => i.kind)
        .sort();
    const base = { alice: await ofOwn('alice'), carol: await ofOwn('carol') };
    const added = async (user: 'alice' | 'carol') => {
      const now = await ofOwn(user);
      for (const k of base[user]) now.splice(now.indexOf(k), 1);
      return now;
    };
    const boundary = '----inbox-boundary';
    const post = (user: string, url: string, payload: object | string, multipart = false) =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/v0${url}`,
        headers: {
          ...bearer(tokens[user]!),
          ...(multipart ? { 'content-type': `multipart/form-data; boundary=${boundary}` } : {}),
        },
        payload,
      });

    // carol answers in Waiting for customer: her comment hands the incident to the SOC
    const answer = await post(
      'carol',
      `/soc/incs/${own.key}/comments/`,
      `--${boundary}\r\nContent-Disposition: form-data; name="body"\r\n\r\nDone on our side\r\n--${boundary}--\r\n`,
      true,
    );
    expect(answer.statusCode, answer.body).toBe(201);
    await dispatch();
    expect(await added('alice')).toEqual(['comment', 'status_changed']);
    expect(await added('carol')).toEqual([]);

    // the SOC's answer hands it back: both hear of it
    const soc = await post('analyst', `/analyst/incidents/${own.key}/comments/`, { body: 'Please confirm' });
    expect(soc.statusCode, soc.body).toBe(201);
    await dispatch();
    expect(await added('alice')).toEqual(['comment', 'comment', 'status_changed', 'status_changed']);
    expect(await added('carol')).toEqual(['comment', 'status_changed']);

    // alice confirms with the card's action: carol hears of it, alice does not
    const confirmed = await post('alice', `/soc/incs/${own.key}/confirm/`, { comment: 'Confirmed' });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    await dispatch();
    expect(await added('alice')).toEqual(['comment', 'comment', 'status_changed', 'status_changed']);
    expect(await added('carol')).toEqual(['comment', 'comment', 'status_changed', 'status_changed']);
  });

  it('leaves out the kinds a user turned off, and keeps the choice when a client does not send it', async () => {
    const saved = await call('alice', 'PUT', '/preferences/', {
      events: ['incident_created'],
      scope: 'all',
      language: 'en',
      portal_events: ['status_changed', 'report_ready', 'task_answer'],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    // an older client saves its e-mail choice without the portal's
    await call('alice', 'PUT', '/preferences/', { events: ['soc_comment'], scope: 'all', language: 'en' });
    const prefs = (await call('alice', 'GET', '/preferences/')).json<NotificationPreferencesResponse>();
    expect(prefs).toMatchObject({
      events: ['soc_comment'],
      portal_events: ['status_changed', 'report_ready', 'task_answer'],
    });
    expect(
      (await call('bob', 'GET', '/preferences/')).json<NotificationPreferencesResponse>().portal_events,
    ).toEqual(['incident_created', 'status_changed', 'comment', 'report_ready', 'task_answer']);

    const before = (await items('alice')).total;
    await buildComment(ctx, incidentId);
    await dispatch();
    expect((await items('alice')).total).toBe(before);
    expect((await kinds('carol'))[0]).toBe('comment');
  });

  it('tells the author that a report is ready and that the SOC answered a request', async () => {
    const report = await buildReport(ctx, [sys.a], { status: 'queued', createdById: users.alice.id });
    const [task] = await ctx.database.db
      .insert(tasks)
      .values({
        systemId: sys.a,
        type: 'rule_development',
        subject: 'Firewall rule review',
        description: 'Please review',
        authorId: users.alice.id,
        authorName: 'Alice',
      })
      .returning({ id: tasks.id });
    await dispatch();
    await ctx.database.db.update(reports).set({ status: 'ready' }).where(eq(reports.id, report.id));
    // the SOC's message: the count moves and the last word is the SOC's
    await ctx.database.db
      .update(tasks)
      .set({ messagesCount: 1, lastFromSoc: true })
      .where(eq(tasks.id, task!.id));
    // alice's own message afterwards is no answer
    await ctx.database.db
      .update(tasks)
      .set({ messagesCount: 2, lastFromSoc: false })
      .where(eq(tasks.id, task!.id));
    await dispatch();
    const [answer, ready] = (await items('alice')).results;
    expect(ready).toMatchObject({ kind: 'report_ready', report: { id: report.id } });
    expect(answer).toMatchObject({
      kind: 'task_answer',
      task: { id: task!.id, type: 'rule_development', subject: 'Firewall rule review' },
    });
    expect(await kinds('carol')).not.toContain('report_ready');
    expect(await kinds('carol')).not.toContain('task_answer');
  });

  it('writes nothing twice when the job runs again', async () => {
    const before = (await items('carol')).total;
    const repo = createInboxRepository(ctx.database.db);
    const [newest] = (await items('carol')).results;
    expect(newest).toBeDefined();
    const [row] = await ctx.database.db
      .select({ eventId: inboxItems.eventId, kind: inboxItems.kind })
      .from(inboxItems)
      .where(eq(inboxItems.id, newest!.id));
    expect(await repo.fanOut(row!.eventId, row!.kind as PortalEvent)).toEqual([]);
    expect((await items('carol')).total).toBe(before);
  });

  it('pages newest first and filters the unread', async () => {
    const all = await items('alice');
    expect(all.total).toBeGreaterThanOrEqual(4);
    const first = await items('alice', '?page_size=2');
    expect(first.results.map((i) => i.id)).toEqual(all.results.slice(0, 2).map((i) => i.id));
    expect(first.next).toContain('page=2');
    const second = await items('alice', '?page_size=2&page=2');
    expect(second.results.map((i) => i.id)).toEqual(all.results.slice(2, 4).map((i) => i.id));
    expect(second.previous).toContain('page=1');
    expect((await items('alice', '?unread=true')).total).toBe(await unread('alice'));
    expect((await call('alice', 'GET', '/inbox/?page_size=500')).statusCode).toBe(400);
  });

  it('marks the caller’s own item read; another user’s or a missing one is a 404', async () => {
    const [item] = (await items('alice')).results as [InboxItem];
    const count = await unread('alice');
    expect((await call('bob', 'POST', `/inbox/${item.id}/read/`)).statusCode).toBe(404);
    expect((await call('carol', 'POST', `/inbox/${item.id}/read/`)).statusCode).toBe(404);
    expect((await call('alice', 'POST', '/inbox/999999999/read/')).statusCode).toBe(404);
    expect(await unread('alice')).toBe(count);
    const res = await call('alice', 'POST', `/inbox/${item.id}/read/`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<InboxCount>()).toEqual({ unread: count - 1, unread_exact: true });
    expect((await items('alice')).results[0]).toMatchObject({ id: item.id, read: true });
    // again: still read, still 200
    expect((await call('alice', 'POST', `/inbox/${item.id}/read/`)).json<InboxCount>().unread).toBe(
      count - 1,
    );
  });

  it('marks all read up to the id the user saw: what came after stays unread', async () => {
    const list = (await items('carol')).results;
    expect(list.length).toBeGreaterThanOrEqual(3);
    const upTo = list[1]!.id;
    const res = await call('carol', 'POST', '/inbox/read_all/', { up_to: upTo });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<InboxCount>()).toEqual({ unread: 1, unread_exact: true });
    const after = (await items('carol')).results;
    expect(after.filter((i) => !i.read).map((i) => i.id)).toEqual([list[0]!.id]);
    // alice's items are hers: carol's read_all left them alone
    expect(await unread('alice')).toBeGreaterThan(0);
  });

  it('hides the items of a system the user no longer belongs to', async () => {
    const bobs = await items('bob');
    expect(bobs.total).toBe(1);
    await ctx.database.db.delete(userSystems).where(eq(userSystems.userId, users.bob.id));
    tokens.bob = await users.bob.login();
    expect((await items('bob')).total).toBe(0);
    expect(await unread('bob')).toBe(0);
    expect((await call('bob', 'POST', `/inbox/${bobs.results[0]!.id}/read/`)).statusCode).toBe(404);
  });
});

describe('the unread count', () => {
  it('stops counting past the cap and says so', async () => {
    const repo = createInboxRepository(ctx.database.db);
    const n = await unread('alice');
    expect(n).toBeGreaterThanOrEqual(3);
    // counted up to cap + 1 rows, however many there are
    expect(await repo.count(users.alice.id, [sys.a], true, 2)).toBe(3);
    expect(await repo.count(users.alice.id, [sys.a], true, n)).toBe(n);
    expect(cappedCount(3, 2)).toEqual({ unread: 2, unread_exact: false });
    expect(cappedCount(2, 2)).toEqual({ unread: 2, unread_exact: true });
  });
});

describe('the live signal', () => {
  /** The raw text of a user's event stream, with a wait for a part of it. */
  async function stream(user: string) {
    const ticket = (
      await ctx.app.inject({ method: 'POST', url: '/api/v0/events/ticket/', headers: bearer(tokens[user]!) })
    ).json<{
      ticket: string;
    }>().ticket;
    let text = '';
    const waiters: (() => void)[] = [];
    const req = http.get(`${base}/api/v0/events/?ticket=${encodeURIComponent(ticket)}`, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        for (const w of waiters.splice(0)) w();
      });
    });
    const has = (part: string) =>
      new Promise<void>((resolve) => {
        const check = () => (text.includes(part) ? resolve() : waiters.push(check));
        check();
      });
    await has('retry:');
    return { has, text: () => text, close: () => req.destroy() };
  }

  it('reaches only the user whose centre changed', async () => {
    const alice = await stream('alice');
    const carol = await stream('carol');
    try {
      const [item] = (await items('alice')).results;
      await call('alice', 'POST', `/inbox/${item!.id}/read/`);
      await alice.has('event: inbox.updated');
      // carol's stream, on the same bus, got a heartbeat-free nothing
      await call('carol', 'GET', '/inbox/count/');
      expect(carol.text()).not.toContain('inbox.updated');
    } finally {
      alice.close();
      carol.close();
    }
  });
});
