import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { MFA_MESSAGES } from '@soc/contracts';
import { auditLog, loginThrottle, mfaChallenges, smsOutbox } from '../../db/schema/index.ts';
import { testConfig } from '../../config.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import type { BuiltUser } from '../../test/builders.ts';
import { BUILT_PASSWORD, buildCustomer } from '../../test/builders.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({
    incidents: 0,
    config: { sms: { ...testConfig().sms, maxPerUserPerHour: 1000 } },
  });
});
afterAll(() => ctx.close());

const PHONE = '+79000000004';
/** A customer who signs in with a code sent to `PHONE`. */
let smsUser: BuiltUser;
beforeAll(async () => {
  smsUser = await buildCustomer(ctx, [], { mfaPhone: PHONE });
});
let nextIp = 1;
/** Each test signs in from its own address, so that the per-IP counters of one do not lock another. */
const freshIp = () => `10.7.${Math.floor(nextIp / 250)}.${(nextIp++ % 250) + 1}`;

const post = (url: string, payload: object, remoteAddress: string) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/v0/auth/${url}`,
    payload,
    remoteAddress,
    headers: { 'user-agent': 'mfa-test-agent' },
  });

/** The code in the newest outbox message to the SMS user's phone. */
async function lastCode(): Promise<string> {
  const rows = await ctx.database.db
    .select()
    .from(smsOutbox)
    .where(eq(smsOutbox.phone, PHONE))
    .orderBy(desc(smsOutbox.id))
    .limit(1);
  const code = /\b(\d{6})\b/.exec(rows[0]?.body ?? '')?.[1];
  if (!code) throw new Error('no code in the outbox');
  return code;
}

async function startSignIn(ip: string) {
  await ctx.database.db.delete(loginThrottle).where(eq(loginThrottle.key, `u:${smsUser.username}`));
  const res = await post('token/obtain/', { username: smsUser.username, password: BUILT_PASSWORD }, ip);
  expect(res.statusCode).toBe(200);
  const body = res.json<{ mfa_token: string; generate_challenge_timeout: number }>();
  return { mfaToken: body.mfa_token, timeout: body.generate_challenge_timeout };
}

/** A code of six digits that is not `code`. */
const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('SMS second factor', () => {
  it('answers the password step with an mfa_token and sends a 6-digit code; the code gives tokens', async () => {
    const ip = freshIp();
    const { mfaToken, timeout } = await startSignIn(ip);
    expect(timeout).toBe(60);
    const code = await lastCode();
    expect(code).toMatch(/^\d{6}$/);
    const [sms] = await ctx.database.db.select().from(smsOutbox).orderBy(desc(smsOutbox.id)).limit(1);
    expect(sms?.body).toBe(`${code} is your SOC Portal sign-in code. It expires in 5 minutes.`);

    const res = await post('token/mfa/obtain/', { mfa_token: mfaToken, otp: code }, ip);
    expect(res.statusCode).toBe(200);
    const pair = res.json<{ access: string; refresh: string }>();
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/auth/user/',
      headers: bearer(pair.access),
    });
    expect(me.json<{ username: string }>().username).toBe(smsUser.username);
  });

  it('stores neither the code nor the token in clear', async () => {
    const ip = freshIp();
    const { mfaToken } = await startSignIn(ip);
    const code = await lastCode();
    const rows = await ctx.database.db.select().from(mfaChallenges);
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(mfaToken);
    expect(dump).not.toContain(code);
  });

  it('refuses a reused code and a reused mfa_token', async () => {
    const ip = freshIp();
    const { mfaToken } = await startSignIn(ip);
    const code = await lastCode();
    expect((await post('token/mfa/obtain/', { mfa_token: mfaToken, otp: code }, ip)).statusCode).toBe(200);
    const again = await post('token/mfa/obtain/', { mfa_token: mfaToken, otp: code }, ip);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ mfa_token: [MFA_MESSAGES.tokenInvalid] });
  });

  it('says a wrong code is wrong and still accepts the right one afterwards', async () => {
    const ip = freshIp();
    const { mfaToken } = await startSignIn(ip);
    const code = await lastCode();
    const wrong = await post('token/mfa/obtain/', { mfa_token: mfaToken, otp: otherCode(code) }, ip);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ otp: [MFA_MESSAGES.wrongCode] });
    expect((await post('token/mfa/obtain/', { mfa_token: mfaToken, otp: code }, ip)).statusCode).toBe(200);
  });

  it('validates the code format: exactly 6 digits', async () => {
    for (const otp of ['12345', '1234567', 'abcdef', '']) {
      const res = await post('token/mfa/obtain/', { mfa_token: 'x', otp }, freshIp());
      expect(res.statusCode, otp).toBe(400);
      expect(Object.keys(res.json<object>())).toEqual(['otp']);
    }
  });

  it('invalidates the mfa_token after 5 wrong codes: even the right code is refused then', async () => {
    const ip = freshIp();
    const { mfaToken } = await startSignIn(ip);
    const code = await lastCode();
    for (let i = 1; i <= 4; i++) {
      const res = await post('token/mfa/obtain/', { mfa_token: mfaToken, otp: otherCode(code) }, ip);
      expect(res.json(), `attempt ${i}`).toEqual({ otp: [MFA_MESSAGES.wrongCode] });
    }
    const fifth = await post('token/mfa/obtain/', { mfa_token: mfaToken, otp: otherCode(code) }, ip);
    expect(fifth.statusCode).toBe(400);
    expect(fifth.json()).toEqual({ mfa_token: [MFA_MESSAGES.tokenInvalid] });
    const right = await post('token/mfa/obtain/', { mfa_token: mfaToken, otp: code }, ip);
    expect(right.json()).toEqual({ mfa_token: [MFA_MESSAGES.tokenInvalid] });
    const resend = await post('token/mfa/generate_challenge/', { mfa_token: mfaToken }, ip);
    expect(resend.json()).toEqual({ mfa_token: [MFA_MESSAGES.tokenInvalid] });
    const audit = await ctx.database.db.select().from(auditLog).where(eq(auditLog.action, 'auth.mfa_locked'));
    expect(audit.length).toBeGreaterThan(0);
  });

  it('refuses an expired code, and accepts the new code sent after the timeout', async () => {
    const ip = freshIp();
    const { mfaToken } = await startSignIn(ip);
    const code = await lastCode();
    const past = new Date(Date.now() - 1000);
    // the code is older than 5 minutes and the resend timeout has passed
    await ctx.database.db
      .update(mfaChallenges)
      .set({ codeExpiresAt: past, lastSentAt: new Date(Date.now() - 301_000) })
      .where(eq(mfaChallenges.userId, smsUser.id));
    const expired = await post('token/mfa/obtain/', { mfa_token: mfaToken, otp: code }, ip);
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toEqual({ otp: [MFA_MESSAGES.codeExpired] });

    const resend = await post('token/mfa/generate_challenge/', { mfa_token: mfaToken }, ip);
    expect(resend.statusCode).toBe(200);
    expect(resend.json()).toEqual({ mfa_token: mfaToken, generate_challenge_timeout: 60, method: 'sms' });
    const fresh = await lastCode();
    const ok = await post('token/mfa/obtain/', { mfa_token: mfaToken, otp: fresh }, ip);
    expect(ok.statusCode).toBe(200);
  });

  it('refuses a resend before the timeout with the remaining seconds', async () => {
    const ip = freshIp();
    const { mfaToken } = await startSignIn(ip);
    const before = await ctx.database.db.select().from(smsOutbox);
    const res = await post('token/mfa/generate_challenge/', { mfa_token: mfaToken }, ip);
    expect(res.statusCode).toBe(429);
    const body = res.json<{ detail: string; generate_challenge_timeout: number }>();
    expect(body.generate_challenge_timeout).toBeGreaterThan(55);
    expect(body.generate_challenge_timeout).toBeLessThanOrEqual(60);
    expect(res.headers['retry-after']).toBe(String(body.generate_challenge_timeout));
    expect(await ctx.database.db.select().from(smsOutbox)).toHaveLength(before.length);
  });

  it('makes the previous code useless once a new one is sent', async () => {
    const ip = freshIp();
    const { mfaToken } = await startSignIn(ip);
    const first = await lastCode();
    await ctx.database.db
      .update(mfaChallenges)
      .set({ lastSentAt: new Date(Date.now() - 61_000) })
      .where(eq(mfaChallenges.userId, smsUser.id));
    expect((await post('token/mfa/generate_challenge/', { mfa_token: mfaToken }, ip)).statusCode).toBe(200);
    const second = await lastCode();
    if (second !== first) {
      const old = await post('token/mfa/obtain/', { mfa_token: mfaToken, otp: first }, ip);
      expect(old.json()).toEqual({ otp: [MFA_MESSAGES.wrongCode] });
    }
    expect((await post('token/mfa/obtain/', { mfa_token: mfaToken, otp: second }, ip)).statusCode).toBe(200);
  });

  it('refuses an unknown mfa_token with the new-token error', async () => {
    const res = await post('token/mfa/obtain/', { mfa_token: 'no-such-token', otp: '123456' }, freshIp());
    expect(res.json()).toEqual({ mfa_token: [MFA_MESSAGES.tokenInvalid] });
  });

  it('counts wrong codes towards the per-user lock of the password step', async () => {
    const ip = freshIp();
    const { mfaToken } = await startSignIn(ip);
    const code = await lastCode();
    await post('token/mfa/obtain/', { mfa_token: mfaToken, otp: otherCode(code) }, ip);
    const [row] = await ctx.database.db
      .select()
      .from(loginThrottle)
      .where(eq(loginThrottle.key, `u:${smsUser.username}`));
    expect(row?.failures).toBe(1);
  });

  it('audits the challenge and the sign-in with address and user agent, never the code', async () => {
    const ip = freshIp();
    const { mfaToken } = await startSignIn(ip);
    const code = await lastCode();
    await post('token/mfa/obtain/', { mfa_token: mfaToken, otp: code }, ip);
    const rows = await ctx.database.db.select().from(auditLog).where(eq(auditLog.ip, ip));
    const actions = rows.map((r) => r.action);
    expect(actions).toContain('auth.mfa_challenge');
    expect(actions).toContain('auth.login');
    expect(rows.every((r) => r.userAgent === 'mfa-test-agent')).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(code);
  });
});

describe('embedded SMS outbox', () => {
  it('lists the messages as JSON and as a page while no gateway is configured', async () => {
    await startSignIn(freshIp());
    const code = await lastCode();
    const json = await ctx.app.inject({ method: 'GET', url: '/api/v0/dev/sms_outbox/' });
    expect(json.statusCode).toBe(200);
    expect(json.json<{ results: Array<{ phone: string; body: string }> }>().results[0]).toMatchObject({
      phone: PHONE,
    });
    const page = await ctx.app.inject({ method: 'GET', url: '/dev/sms-outbox' });
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain(code);
  });

  it('is not served when the outbox is off', async () => {
    const other = await createTestContext({
      incidents: 0,
      config: { sms: { ...testConfig().sms, outbox: false } },
    });
    try {
      // like every unknown path, it does not exist
      expect((await other.app.inject({ method: 'GET', url: '/api/v0/dev/sms_outbox/' })).statusCode).toBe(
        404,
      );
      expect((await other.app.inject({ method: 'GET', url: '/dev/sms-outbox' })).statusCode).toBe(404);
      // no way to deliver a code: the sign-in of an SMS user fails cleanly
      const { username } = await buildCustomer(other, [], { mfaPhone: PHONE });
      const res = await other.app.inject({
        method: 'POST',
        url: '/api/v0/auth/token/obtain/',
        payload: { username, password: BUILT_PASSWORD },
      });
      expect(res.statusCode).toBe(503);
    } finally {
      await other.close();
    }
  });
});
