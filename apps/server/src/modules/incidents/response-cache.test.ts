import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncidentCard, IncidentListResponse } from '@soc/contracts';
import { queryRows } from '../../db/client.ts';
import {
  attachments,
  comments,
  incidentLinks,
  incidents,
  issueTypes,
  systems,
  users,
} from '../../db/schema/index.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';

let ctx: TestContext;
const tokens: Record<string, string> = {};
/** An incident of alice's system IS-0001 and another one of the same system. */
let key: number;
let id: string;
let otherId: string;
let otherKey: number;
let systemId: number;

const get = async <T>(user: string, url: string): Promise<T> => {
  const res = await ctx.app.inject({
    method: 'GET',
    url: `/api/v0/soc/${url}`,
    headers: { ...bearer(tokens[user]!), 'accept-language': 'en' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<T>();
};
const card = (user = 'alice') => get<IncidentCard>(user, `incs/${key}/`);
const listed = async (user = 'alice') =>
  (await get<IncidentListResponse>(user, `incs/?key__in=${key}`)).results[0]!;

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 40 });
  for (const user of ['alice', 'analyst']) tokens[user] = (await ctx.login(user)).access;
  const rows = await ctx.database.db
    .select({ id: incidents.id, key: incidents.key, systemId: incidents.systemId })
    .from(incidents)
    .innerJoin(systems, eq(systems.id, incidents.systemId))
    .innerJoin(issueTypes, eq(issueTypes.id, incidents.issueTypeId))
    .where(and(eq(systems.isId, 'IS-0001'), eq(issueTypes.code, 'incident')))
    .orderBy(incidents.key)
    .limit(2);
  ({ id, key, systemId } = rows[0]!);
  ({ id: otherId, key: otherKey } = rows[1]!);
});
afterAll(() => ctx.close());

describe('cached incident cards and list pages', () => {
  it('are served from the cache while nothing they show has changed', async () => {
    const before = await card();
    const beforeListed = await listed();
    // a change that no trigger sees (the incident triggers are off for it): the kept answers stay
    await ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`ALTER TABLE incidents DISABLE TRIGGER USER`);
      await tx.update(incidents).set({ summary: 'Unseen by the triggers' }).where(eq(incidents.id, id));
      await tx.execute(sql`ALTER TABLE incidents ENABLE TRIGGER USER`);
    });
    expect((await card()).summary).toBe(before.summary);
    expect((await listed()).summary).toBe(beforeListed.summary);
    // the same change made normally writes an event: the next answers read it
    await ctx.database.db.update(incidents).set({ summary: 'Seen by everyone' }).where(eq(incidents.id, id));
    expect((await card()).summary).toBe('Seen by everyone');
    expect((await listed()).summary).toBe('Seen by everyone');
  });

  it('show new files, links, comments and renamed systems and assignees at once', async () => {
    const db = ctx.database.db;
    await card();
    await listed();
    await db.insert(attachments).values({
      incidentId: id,
      filename: 'evidence.txt',
      contentType: 'text/plain',
      size: 8,
      storageKey: 'test/evidence.txt',
      sha256: '0'.repeat(64),
    });
    expect((await card()).attachments.map((a) => a.filename)).toContain('evidence.txt');

    await db.insert(incidentLinks).values({ incidentId: id, relatedId: otherId });
    expect((await card()).related_incidents.map((r) => r.key)).toContain(otherKey);

    const comments0 = (await listed()).comments_count;
    await db.insert(comments).values({ incidentId: id, authorName: 'analyst', body: 'one more' });
    expect((await listed()).comments_count).toBe(comments0 + 1);

    await db.update(systems).set({ fullName: 'Renamed system' }).where(eq(systems.id, systemId));
    expect((await card()).system.full_name).toBe('Renamed system');
    expect((await listed()).system.full_name).toBe('Renamed system');

    const [alice] = await queryRows<{ id: number }>(db, sql`SELECT id FROM users WHERE username = 'alice'`);
    await db.update(incidents).set({ customerAssigneeId: alice!.id }).where(eq(incidents.id, id));
    await listed();
    await db.update(users).set({ firstName: 'Алиса', lastName: 'Новая' }).where(eq(users.id, alice!.id));
    expect((await listed()).customer_assignee?.full_name).toBe('Алиса Новая');
    expect((await card()).customer_assignee?.full_name).toBe('Алиса Новая');
  });

  it('keep what depends on the caller apart: role and systems', async () => {
    expect((await card('alice')).allowed_priorities).toEqual(['low', 'medium', 'high']);
    expect((await card('analyst')).allowed_priorities).toContain('critical');
    expect((await card('alice')).allowed_priorities).toEqual(['low', 'medium', 'high']);
    // bob is in another system: the card that alice's request left in the cache is not his
    const bob = (await ctx.login('bob')).access;
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/v0/soc/incs/${key}/`,
      headers: bearer(bob),
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('cached chat pages', () => {
  it('show a new comment and a new file at once, and is_mine to its author only', async () => {
    const chat = (user: string) =>
      get<{ total: number; results: { body: string; is_mine: boolean; attachments: unknown[] }[] }>(
        user,
        `incs/${key}/comments/?page=1&page_size=50`,
      );
    const before = await chat('alice');
    await chat('analyst');
    const [alice] = await queryRows<{ id: number }>(
      ctx.database.db,
      sql`SELECT id FROM users WHERE username = 'alice'`,
    );
    const [comment] = await ctx.database.db
      .insert(comments)
      .values({ incidentId: id, authorId: alice!.id, authorName: 'alice', body: 'cached chat' })
      .returning({ id: comments.id });
    const mine = await chat('alice');
    expect(mine.total).toBe(before.total + 1);
    expect(mine.results.find((c) => c.body === 'cached chat')?.is_mine).toBe(true);
    expect((await chat('analyst')).results.find((c) => c.body === 'cached chat')?.is_mine).toBe(false);
    await ctx.database.db.insert(attachments).values({
      incidentId: id,
      commentId: comment!.id,
      filename: 'chat.txt',
      contentType: 'text/plain',
      size: 4,
      storageKey: 'test/chat.txt',
      sha256: '0'.repeat(64),
    });
    expect((await chat('alice')).results.find((c) => c.body === 'cached chat')?.attachments).toHaveLength(1);
  });
});
