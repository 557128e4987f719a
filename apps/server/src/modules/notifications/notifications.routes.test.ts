import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { categories, issueTypes, users } from '../../db/schema/index.ts';
import type { BuiltUser } from '../../test/builders.ts';
import { buildAnalyst, buildCustomer, buildSystem } from '../../test/builders.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';

let ctx: TestContext;
let smtp: SMTPServer;
const received: { to: string[]; raw: Buffer }[] = [];
const tokens: Record<string, string> = {};
/** The customers' e-mail addresses. */
const mail: Record<string, string> = {};
/** System A (customer and twoSystems), B (otherTenant) and C (twoSystems). */
const sys: Record<string, number> = {};

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
    incidents: 0,
    config: {
      mail: {
        smtpUrl: `smtp://127.0.0.1:${port}`,
        from: 'soc@test.local',
        outboxDir: '',
        attachmentMaxBytes: 1024 * 1024,
      },
    },
  });
  const [a, b, c] = [await buildSystem(ctx), await buildSystem(ctx), await buildSystem(ctx)];
  Object.assign(sys, { a: a.id, b: b.id, c: c.id });
  const built: Record<string, BuiltUser> = {
    customer: await buildCustomer(ctx, [a.id]),
    otherTenant: await buildCustomer(ctx, [b.id], { locale: 'en' }),
    twoSystems: await buildCustomer(ctx, [a.id, c.id]),
    analyst: await buildAnalyst(ctx),
  };
  for (const [name, user] of Object.entries(built)) {
    tokens[name] = await user.login();
    mail[name] = `${user.username}@test.example`;
  }
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

async function createIncident(systemId: number, summary: string): Promise<number> {
  const db = ctx.database.db;
  const [type] = await db.select().from(issueTypes).where(eq(issueTypes.code, 'incident'));
  const [category] = await db.select().from(categories).where(eq(categories.issueTypeId, type!.id)).limit(1);
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v0/soc/incs/',
    headers: bearer(tokens.analyst!),
    payload: {
      system: systemId,
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
    const initial = (await prefs('otherTenant')).json<{
      events: string[];
      scope: string;
      language: string;
      email: string;
    }>();
    expect(initial).toMatchObject({ scope: 'assigned', language: 'en', email: mail.otherTenant });
    expect(initial.events).toContain('incident_created');
    const saved = await prefs('otherTenant', {
      events: ['incident_created', 'soc_comment'],
      scope: 'all',
      language: 'en',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await prefs('otherTenant')).json()).toMatchObject({
      events: ['incident_created', 'soc_comment'],
      scope: 'all',
    });
    const bad = await prefs('otherTenant', { events: ['everything'], scope: 'all', language: 'en' });
    expect(bad.statusCode).toBe(400);
  });
});

describe('notification e-mails', () => {
  it('reach a real SMTP peer in each user’s language, only for the users’ own systems and choices', async () => {
    await prefs('customer', { events: ['incident_created', 'soc_comment'], scope: 'all', language: 'ru' });
    await prefs('twoSystems', { events: ['incident_created'], scope: 'all', language: 'en' });
    await prefs('otherTenant', { events: ['incident_created', 'soc_comment'], scope: 'all', language: 'en' });
    const key = await createIncident(sys.a!, 'Credential dumping on DC01');
    await ctx.app.jobs.runDue();

    const [toCustomer] = await mailsTo(mail.customer!);
    expect(toCustomer?.subject).toBe(`[INC-${key}] Новый инцидент: Credential dumping on DC01`);
    expect(toCustomer?.text).toContain('Зарегистрирован новый инцидент');
    expect(toCustomer?.text).toContain(`/inc/${key}`);
    const [toTwoSystems] = await mailsTo(mail.twoSystems!);
    expect(toTwoSystems?.subject).toBe(`[INC-${key}] New incident: Credential dumping on DC01`);
    expect(toTwoSystems?.text).toContain('A new information security incident has been registered.');
    // otherTenant belongs to another system
    expect((await mailsTo(mail.otherTenant!)).length).toBe(0);

    // a SOC comment: the customer chose it, twoSystems did not
    const comment = await ctx.app.inject({
      method: 'POST',
      url: `/api/v0/soc/incs/${key}/comments/`,
      headers: { ...bearer(tokens.analyst!), 'content-type': 'multipart/form-data; boundary=X' },
      payload:
        '--X\r\nContent-Disposition: form-data; name="body"\r\n\r\nИзолируйте DC01 от сети.\r\n--X--\r\n',
    });
    expect(comment.statusCode, comment.body).toBe(201);
    await ctx.app.jobs.runDue();
    const customerMails = await mailsTo(mail.customer!);
    const soc = customerMails.find((m) => m.subject?.startsWith(`[INC-${key}] Новый комментарий SOC`));
    expect(soc?.text).toContain('Изолируйте DC01 от сети.');
    expect((await mailsTo(mail.twoSystems!)).length).toBe(1);
  });

  it('sends nothing to a deactivated account', async () => {
    await prefs('customer', { events: ['incident_created'], scope: 'all', language: 'ru' });
    await ctx.database.db.update(users).set({ isActive: false }).where(eq(users.email, mail.customer!));
    const before = (await mailsTo(mail.customer!)).length;
    await createIncident(sys.a!, 'Nobody should hear of this');
    await ctx.app.jobs.runDue();
    expect((await mailsTo(mail.customer!)).length).toBe(before);
    await ctx.database.db.update(users).set({ isActive: true }).where(eq(users.email, mail.customer!));
  });
});
