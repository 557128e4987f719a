import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import PostalMime from 'postal-mime';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, jobs, serviceTokens } from '../../db/schema/index.ts';
import { SECURITY_NOTICE_ACTIONS, SECURITY_NOTICE_JOB, audit } from '../../lib/audit.ts';
import { base32Decode, hotp, timeStep } from '../../lib/totp.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import type { BuiltUser } from '../../test/builders.ts';
import { BUILT_PASSWORD, buildCustomer, buildUser } from '../../test/builders.ts';

let ctx: TestContext;
/** Built accounts: `ru` and `en` customers read their notices in that language. */
let ru: BuiltUser;
let en: BuiltUser;
let other: BuiltUser;
let admin: BuiltUser;
beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  ru = await buildCustomer(ctx, [], { locale: 'ru', email: 'ru.customer@built.example' });
  en = await buildCustomer(ctx, [], { locale: 'en', email: 'en.customer@built.example' });
  other = await buildCustomer(ctx);
  admin = await buildUser(ctx, { role: 'admin' });
});
afterAll(() => ctx.close());

interface Sent {
  to: string;
  subject: string;
  text: string;
  raw: string;
}
const seen = new Set<string>();
/** The messages the embedded mailer wrote to its outbox since the last call. */
async function newMail(): Promise<Sent[]> {
  await ctx.app.jobs.runDue();
  const dir = ctx.config.mail.outboxDir;
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => !seen.has(f)).sort();
  const out: Sent[] = [];
  for (const file of files) {
    seen.add(file);
    const raw = await readFile(path.join(dir, file), 'utf8');
    const mail = await PostalMime.parse(raw);
    out.push({ to: mail.to?.[0]?.address ?? '', subject: mail.subject ?? '', text: mail.text ?? '', raw });
  }
  return out;
}
beforeEach(async () => {
  await newMail();
});

const api = (method: 'POST' | 'PUT' | 'PATCH', url: string, token: string, payload?: object) =>
  ctx.app.inject({ method, url: `/api/v0${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });

describe('security notices by e-mail (issue 25)', () => {
  it('mails exactly one notice, to the user concerned, for every action of the set', async () => {
    const [token] = await ctx.database.db
      .insert(serviceTokens)
      .values({
        userId: ru.id,
        createdBy: admin.id,
        kind: 'service',
        name: 'siem-export',
        prefix: 'socp_abcd',
        tokenHash: 'f'.repeat(64),
        role: 'customer',
      })
      .returning();
    for (const action of SECURITY_NOTICE_ACTIONS) {
      const onToken = action === 'token.create' || action === 'token.revoke';
      // written by an administrator about the customer: the notice goes to the customer
      await audit(ctx.database.db, {
        userId: admin.id,
        action,
        objectType: onToken ? 'service_token' : 'user',
        objectId: onToken ? token!.id : ru.id,
        ip: '203.0.113.7',
        details: onToken ? { kind: 'service', name: token!.name } : {},
      });
      const mail = await newMail();
      expect(
        mail.map((m) => m.to),
        action,
      ).toEqual(['ru.customer@built.example']);
      expect(mail[0]!.text).toContain('203.0.113.7');
      expect(mail[0]!.subject).toMatch(/^Уведомление безопасности: /);
      expect(mail[0]!.text).toContain('Если это сделали не вы');
      expect(mail[0]!.raw).not.toContain('socp_abcd');
      expect(mail[0]!.raw).not.toContain('f'.repeat(16));
    }
    // other audit actions mail nothing
    await audit(ctx.database.db, {
      userId: ru.id,
      action: 'auth.login',
      objectType: 'user',
      objectId: ru.id,
      ip: '203.0.113.7',
    });
    expect(await newMail()).toEqual([]);
  });

  it('follows the real writers: password change, authenticator app, SMS phone, administrator reset', async () => {
    const NEW = 'En-customer-new-long-passphrase-2026';
    let access = await en.login();
    const change = await api('PUT', '/auth/password_change/', access, {
      old_password: BUILT_PASSWORD,
      password: NEW,
      confirmed_password: NEW,
    });
    expect(change.statusCode, change.body).toBe(200);
    let mail = await newMail();
    expect(mail.map((m) => [m.to, m.subject])).toEqual([
      ['en.customer@built.example', 'Security notice: The password of your account was changed'],
    ]);
    expect(mail[0]!.text).toContain('If this was not you');
    // the sessions and personal tokens that ended with it are told in the same notice, not another
    expect(mail[0]!.text).toContain('Every session was ended and every personal API token revoked.');
    expect(mail[0]!.raw).not.toContain(NEW);
    expect(mail[0]!.raw).not.toContain(BUILT_PASSWORD);

    // the change ended the customer's sessions: they sign in again with the new password
    access = (await ctx.login(en.username, NEW)).access;
    const setup = await api('POST', '/auth/mfa/totp/setup/', access, { password: NEW });
    const secretText = setup.json<{ secret: string }>().secret;
    const code = hotp(base32Decode(secretText), timeStep());
    expect((await api('POST', '/auth/mfa/totp/confirm/', access, { otp: code })).statusCode).toBe(200);
    mail = await newMail();
    expect(mail.map((m) => m.subject)).toEqual([
      'Security notice: An authenticator app was set up for signing in',
    ]);
    expect(mail[0]!.raw).not.toContain(secretText);
    expect(mail[0]!.raw).not.toContain(code);

    const staff = await admin.login();
    const phone = await api('PATCH', `/admin/users/${en.id}/`, staff, { mfa_phone: '+79000000333' });
    expect(phone.statusCode, phone.body).toBe(200);
    mail = await newMail();
    expect(mail.map((m) => [m.to, m.subject])).toEqual([
      ['en.customer@built.example', 'Security notice: Sign-in codes by SMS were turned on'],
    ]);
    expect(mail[0]!.raw).not.toContain('79000000333');

    const reset = await api('POST', `/admin/users/${en.id}/reset_password/`, staff);
    const temporary = reset.json<{ temporary_password: string }>().temporary_password;
    mail = await newMail();
    expect(mail.map((m) => m.subject)).toEqual([
      'Security notice: An administrator gave your account a new temporary password',
    ]);
    expect(mail[0]!.raw).not.toContain(temporary);
  });

  it('queues the notice in the writer’s transaction: a rolled-back change mails nothing', async () => {
    await ctx.database.db
      .transaction(async (tx) => {
        await audit(tx, {
          userId: other.id,
          action: 'auth.password_change',
          objectType: 'user',
          objectId: other.id,
          ip: '198.51.100.1',
        });
        throw new Error('rollback');
      })
      .catch(() => undefined);
    expect(await newMail()).toEqual([]);
    const queued = await ctx.database.db.select().from(jobs).where(eq(jobs.type, SECURITY_NOTICE_JOB));
    const entries = await ctx.database.db.select().from(auditLog).where(eq(auditLog.ip, '198.51.100.1'));
    expect(entries).toEqual([]);
    expect(queued.every((j) => j.status === 'done')).toBe(true);
  });
});
