import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { categories, issueTypes, systems, users } from '../../db/schema/index.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';

let ctx: TestContext;
let smtp: SMTPServer;
const received: { to: string[]; raw: Buffer }[] = [];
const tokens: Record<string, string> = {};

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  ctx = await createTestContext({
    incidents: 20,
    config: {
      mail: {
        smtpUrl: `smtp://127.0.0.1:${port}`,
        from: 'soc@test.local',
        outboxDir: '',
        attachmentMaxBytes: 1024 * 1024,
      },
    },
  });
  for (const u of ['alice', 'bob', 'carol', 'analyst']) tokens[u] = (await ctx.login(u)).access;
});
afterAll(async () => {
  await ctx.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

const prefs = (user: string, body?: object) =>
  ctx.app.inject({
    method: body ? 'PUT' : 'GET',
    url: '/api/v0/notifications/preferences/',
    headers: bearer(tokens[user]!),
    ...(body ? { payload: body } : {}),
  });

async function createIncident(isId: string, summary: string): Promise<number> {
  const db = ctx.database.db;
  const [system] = await db.select().from(systems).where(eq(systems.isId, isId));
  const [type] = await db.select().from(issueTypes).where(eq(issueTypes.code, 'incident'));
  const [category] = await db.select().from(categories).where(eq(categories.issueTypeId, type!.id)).limit(1);
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v0/soc/incs/',
    headers: bearer(tokens.analyst!),
    payload: {
      system: system!.id,
      summary,
      issuetype: type!.id,
      priority: 'high',
      description: 'x',
      primary_category: category!.id,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ key: number }>().key;
}

const mailsTo = async (address: string) =>
  Promise.all(received.filter((m) => m.to.includes(address)).map((m) => PostalMime.parse(m.raw)));

describe('notification preferences', () => {
  it('answers the defaults, then what the user saved; refuses unknown events', async () => {
    const initial = (await prefs('bob')).json<{
      events: string[];
      scope: string;
      language: string;
      email: string;
    }>();
    expect(initial).toMatchObject({ scope: 'assigned', language: 'en', email: 'bob@customer2.example' });
    expect(initial.events).toContain('incident_created');
    const saved = await prefs('bob', {
      events: ['incident_created', 'soc_comment'],
      scope: 'all',
      language: 'en',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await prefs('bob')).json()).toMatchObject({
      events: ['incident_created', 'soc_comment'],
      scope: 'all',
    });
    const bad = await prefs('bob', { events: ['everything'], scope: 'all', language: 'en' });
    expect(bad.statusCode).toBe(400);
  });
});

describe('notification e-mails', () => {
  it('reach a real SMTP peer in each user’s language, only for the users’ own systems and choices', async () => {
    await prefs('alice', { events: ['incident_created', 'soc_comment'], scope: 'all', language: 'ru' });
    await prefs('carol', { events: ['incident_created'], scope: 'all', language: 'en' });
    await prefs('bob', { events: ['incident_created', 'soc_comment'], scope: 'all', language: 'en' });
    const key = await createIncident('IS-0001', 'Credential dumping on DC01');
    await ctx.app.jobs.runDue();

    const [alice] = await mailsTo('alice@customer1.example');
    expect(alice?.subject).toBe(`[INC-${key}] Новый инцидент: Credential dumping on DC01`);
    expect(alice?.text).toContain('Зарегистрирован новый инцидент');
    expect(alice?.text).toContain(`/inc/${key}`);
    const [carol] = await mailsTo('carol@customer3.example');
    expect(carol?.subject).toBe(`[INC-${key}] New incident: Credential dumping on DC01`);
    expect(carol?.text).toContain('A new information security incident has been registered.');
    // bob belongs to another system
    expect((await mailsTo('bob@customer2.example')).length).toBe(0);

    // a SOC comment: alice chose it, carol did not
    const comment = await ctx.app.inject({
      method: 'POST',
      url: `/api/v0/soc/incs/${key}/comments/`,
      headers: { ...bearer(tokens.analyst!), 'content-type': 'multipart/form-data; boundary=X' },
      payload:
        '--X\r\nContent-Disposition: form-data; name="body"\r\n\r\nИзолируйте DC01 от сети.\r\n--X--\r\n',
    });
    expect(comment.statusCode, comment.body).toBe(201);
    await ctx.app.jobs.runDue();
    const aliceMails = await mailsTo('alice@customer1.example');
    const soc = aliceMails.find((m) => m.subject?.startsWith(`[INC-${key}] Новый комментарий SOC`));
    expect(soc?.text).toContain('Изолируйте DC01 от сети.');
    expect((await mailsTo('carol@customer3.example')).length).toBe(1);
  });

  it('sends nothing to a deactivated account', async () => {
    await prefs('alice', { events: ['incident_created'], scope: 'all', language: 'ru' });
    await ctx.database.db.update(users).set({ isActive: false }).where(eq(users.username, 'alice'));
    const before = (await mailsTo('alice@customer1.example')).length;
    await createIncident('IS-0001', 'Nobody should hear of this');
    await ctx.app.jobs.runDue();
    expect((await mailsTo('alice@customer1.example')).length).toBe(before);
    await ctx.database.db.update(users).set({ isActive: true }).where(eq(users.username, 'alice'));
  });
});
