import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import PostalMime from 'postal-mime';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, jobs, serviceTokens, users } from '../../db/schema/index.ts';
import { SECURITY_NOTICE_ACTIONS, SECURITY_NOTICE_JOB, audit } from '../../lib/audit.ts';
import { base32Decode, hotp, timeStep } from '../../lib/totp.ts';
import type { TestContext } from '../../test/harness.ts';
import { DEMO_PASSWORD, bearer, createTestContext } from '../../test/harness.ts';

let ctx: TestContext;
const ids: Record<string, number> = {};
beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  for (const row of await ctx.database.db.select({ id: users.id, username: users.username }).from(users)) {
    ids[row.username] = row.id;
  }
  await ctx.database.db.update(users).set({ locale: 'en' }).where(eq(users.username, 'carol'));
  await ctx.database.db.update(users).set({ locale: 'ru' }).where(eq(users.username, 'bob'));
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
        userId: ids.bob!,
        createdBy: ids.admin!,
        kind: 'service',
        name: 'siem-export',
        prefix: 'socp_abcd',
        tokenHash: 'f'.repeat(64),
        role: 'customer',
      })
      .returning();
    for (const action of SECURITY_NOTICE_ACTIONS) {
      const onToken = action === 'token.create' || action === 'token.revoke';
      // written by an administrator about bob: the notice goes to bob
      await audit(ctx.database.db, {
        userId: ids.admin!,
        action,
        objectType: onToken ? 'service_token' : 'user',
        objectId: onToken ? token!.id : ids.bob!,
        ip: '203.0.113.7',
        details: onToken ? { kind: 'service', name: token!.name } : {},
      });
      const mail = await newMail();
      expect(
        mail.map((m) => m.to),
        action,
      ).toEqual(['bob@customer2.example']);
      expect(mail[0]!.text).toContain('203.0.113.7');
      expect(mail[0]!.subject).toMatch(/^Уведомление безопасности: /);
      expect(mail[0]!.text).toContain('Если это сделали не вы');
      expect(mail[0]!.raw).not.toContain('socp_abcd');
      expect(mail[0]!.raw).not.toContain('f'.repeat(16));
    }
    // other audit actions mail nothing
    await audit(ctx.database.db, {
      userId: ids.bob!,
      action: 'auth.login',
      objectType: 'user',
      objectId: ids.bob!,
      ip: '203.0.113.7',
    });
    expect(await newMail()).toEqual([]);
  });

  it('follows the real writers: password change, authenticator app, SMS phone, administrator reset', async () => {
    const NEW = 'Carol-new-long-passphrase-2026';
    let carol = (await ctx.login('carol')).access;
    const change = await api('PUT', '/auth/password_change/', carol, {
      old_password: DEMO_PASSWORD,
      password: NEW,
      confirmed_password: NEW,
    });
    expect(change.statusCode, change.body).toBe(200);
    let mail = await newMail();
    expect(mail.map((m) => [m.to, m.subject])).toEqual([
      ['carol@customer3.example', 'Security notice: The password of your account was changed'],
    ]);
    expect(mail[0]!.text).toContain('If this was not you');
    // the sessions and personal tokens that ended with it are told in the same notice, not another
    expect(mail[0]!.text).toContain('Every session was ended and every personal API token revoked.');
    expect(mail[0]!.raw).not.toContain(NEW);
    expect(mail[0]!.raw).not.toContain(DEMO_PASSWORD);

    // the change ended carol's sessions: she signs in again with the new password
    carol = (await ctx.login('carol', NEW)).access;
    const setup = await api('POST', '/auth/mfa/totp/setup/', carol, { password: NEW });
    const secretText = setup.json<{ secret: string }>().secret;
    const code = hotp(base32Decode(secretText), timeStep());
    expect((await api('POST', '/auth/mfa/totp/confirm/', carol, { otp: code })).statusCode).toBe(200);
    mail = await newMail();
    expect(mail.map((m) => m.subject)).toEqual([
      'Security notice: An authenticator app was set up for signing in',
    ]);
    expect(mail[0]!.raw).not.toContain(secretText);
    expect(mail[0]!.raw).not.toContain(code);

    const admin = (await ctx.login('admin')).access;
    const phone = await api('PATCH', `/admin/users/${ids.carol}/`, admin, { mfa_phone: '+79000000333' });
    expect(phone.statusCode, phone.body).toBe(200);
    mail = await newMail();
    expect(mail.map((m) => [m.to, m.subject])).toEqual([
      ['carol@customer3.example', 'Security notice: Sign-in codes by SMS were turned on'],
    ]);
    expect(mail[0]!.raw).not.toContain('79000000333');

    const reset = await api('POST', `/admin/users/${ids.carol}/reset_password/`, admin);
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
          userId: ids.alice!,
          action: 'auth.password_change',
          objectType: 'user',
          objectId: ids.alice!,
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
