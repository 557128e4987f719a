import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncidentCard, IncidentListResponse } from '@soc/contracts';
import { attachments, comments, incidentLinks, incidents, systems, users } from '../../db/schema/index.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import { buildAnalyst, buildCustomer, buildIncident, buildSystem } from '../../test/builders.ts';

let ctx: TestContext;
const tokens: Record<string, string> = {};
/** An incident of the customer's system and another one of the same system. */
let key: number;
let customerId: number;
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
const card = (user = 'customer') => get<IncidentCard>(user, `incs/${key}/`);
const listed = async (user = 'customer') =>
  (await get<IncidentListResponse>(user, `incs/?key__in=${key}`)).results[0]!;

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  const [own, other] = [await buildSystem(ctx), await buildSystem(ctx)];
  systemId = own.id;
  const customer = await buildCustomer(ctx, [own.id]);
  customerId = customer.id;
  tokens.customer = await customer.login();
  tokens.analyst = await (await buildAnalyst(ctx)).login();
  tokens.stranger = await (await buildCustomer(ctx, [other.id])).login();
  ({ id, key } = await buildIncident(ctx, own.id));
  ({ id: otherId, key: otherKey } = await buildIncident(ctx, own.id));
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

    await db.update(incidents).set({ customerAssigneeId: customerId }).where(eq(incidents.id, id));
    await listed();
    await db.update(users).set({ firstName: 'Алиса', lastName: 'Новая' }).where(eq(users.id, customerId));
    expect((await listed()).customer_assignee?.full_name).toBe('Алиса Новая');
    expect((await card()).customer_assignee?.full_name).toBe('Алиса Новая');
  });

  it('keep what depends on the caller apart: role and systems', async () => {
    expect((await card('customer')).allowed_priorities).toEqual(['low', 'medium', 'high']);
    expect((await card('analyst')).allowed_priorities).toContain('critical');
    expect((await card('customer')).allowed_priorities).toEqual(['low', 'medium', 'high']);
    // the stranger is in another system: the card that the customer's request left in the cache is not theirs
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/v0/soc/incs/${key}/`,
      headers: bearer(tokens.stranger!),
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
    const before = await chat('customer');
    await chat('analyst');
    const [comment] = await ctx.database.db
      .insert(comments)
      .values({ incidentId: id, authorId: customerId, authorName: 'Customer', body: 'cached chat' })
      .returning({ id: comments.id });
    const mine = await chat('customer');
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
    expect((await chat('customer')).results.find((c) => c.body === 'cached chat')?.attachments).toHaveLength(
      1,
    );
  });
});
