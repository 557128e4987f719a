import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { MFA_CHANGE_MESSAGES, MFA_MESSAGES } from '@soc/contracts';
import { testConfig } from '../../config.ts';
import { auditLog, loginThrottle, mfaChallenges, smsOutbox, users } from '../../db/schema/index.ts';
import { base32Decode, hotp, timeStep } from '../../lib/totp.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import type { BuiltUser } from '../../test/builders.ts';
import { BUILT_PASSWORD, buildCustomer } from '../../test/builders.ts';

let ctx: TestContext;
const access: Record<string, string> = {};
const SMS_PHONE = '+79000000004';
/** Built customers: `app` and `second` enrol an app; `sms` signs in with codes sent to SMS_PHONE. */
const u = {} as Record<'app' | 'second' | 'sms', BuiltUser>;
beforeAll(async () => {
  ctx = await createTestContext({
    incidents: 0,
    config: { sms: { ...testConfig().sms, maxPerUserPerHour: 1000 } },
  });
  u.app = await buildCustomer(ctx);
  u.second = await buildCustomer(ctx);
  u.sms = await buildCustomer(ctx, [], { mfaPhone: SMS_PHONE });
  access.app = await u.app.login();
  access.second = await u.second.login();
});
afterAll(() => ctx.close());

const call = (
  method: 'GET' | 'POST',
  url: string,
  payload?: object,
  { user = 'app', lang }: { user?: string; lang?: 'ru' | 'en' } = {},
) =>
  ctx.app.inject({
    method,
    url: `/api/v0/auth/${url}`,
    payload,
    headers: { ...bearer(access[user]!), ...(lang ? { 'accept-language': lang } : {}) },
  });
const publicPost = (url: string, payload: object) =>
  ctx.app.inject({ method: 'POST', url: `/api/v0/auth/${url}`, payload });

/** Signs in with the password and the app code of `step`; answers the token pair or throws. */
async function signInWithApp(username: string, secret: Buffer, step: number) {
  const start = await publicPost('token/obtain/', { username, password: BUILT_PASSWORD });
  const { mfa_token } = start.json<{ mfa_token: string; method: string }>();
  expect(start.json()).toMatchObject({ method: 'totp' });
  return publicPost('token/mfa/obtain/', { mfa_token, otp: hotp(secret, step) });
}

const failures = async (username: string) =>
  (
    await ctx.database.db
      .select()
      .from(loginThrottle)
      .where(eq(loginThrottle.key, `u:${username}`))
  )[0]?.failures ?? 0;

describe('authenticator app (TOTP) as the second factor', () => {
  let secret: Buffer;
  let confirmStep = 0;
  let replacedSecret: Buffer;

  it('enrols from the profile with the password: secret, then confirmation with a current code', async () => {
    expect((await call('GET', 'mfa/')).json()).toEqual({ sms: false, totp: false });
    expect((await call('POST', 'mfa/totp/setup/')).statusCode).toBe(400);
    const setup = await call('POST', 'mfa/totp/setup/', { password: BUILT_PASSWORD });
    expect(setup.statusCode).toBe(200);
    expect(setup.headers['cache-control']).toBe('no-store');
    const body = setup.json<{ secret: string; otpauth_url: string }>();
    expect(body.otpauth_url).toMatch(
      new RegExp(`^otpauth://totp/SOC%20Portal%3A${u.app.username}\\?secret=`),
    );
    secret = base32Decode(body.secret);

    const wrong = await call('POST', 'mfa/totp/confirm/', { otp: hotp(secret, timeStep() - 5) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ otp: [MFA_MESSAGES.wrongCode] });
    confirmStep = timeStep() - 1;
    const ok = await call('POST', 'mfa/totp/confirm/', { otp: hotp(secret, confirmStep) });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ sms: false, totp: true });
  });

  it('asks for the app code at sign-in, sends no SMS, and takes each code once', async () => {
    const before = (await ctx.database.db.select().from(smsOutbox)).length;
    const start = await publicPost('token/obtain/', { username: u.app.username, password: BUILT_PASSWORD });
    const pending = start.json<{ mfa_token: string; generate_challenge_timeout: number; method: string }>();
    expect(pending).toMatchObject({ generate_challenge_timeout: 0, method: 'totp' });
    expect(await ctx.database.db.select().from(smsOutbox)).toHaveLength(before);

    const resend = await publicPost('token/mfa/generate_challenge/', { mfa_token: pending.mfa_token });
    expect(resend.json()).toEqual({ non_field_errors: [MFA_MESSAGES.totpNoResend] });

    // the code used for the confirmation is spent
    const replay = await publicPost('token/mfa/obtain/', {
      mfa_token: pending.mfa_token,
      otp: hotp(secret, confirmStep),
    });
    expect(replay.json()).toEqual({ otp: [MFA_MESSAGES.wrongCode] });
    const code = hotp(secret, timeStep());
    const ok = await publicPost('token/mfa/obtain/', { mfa_token: pending.mfa_token, otp: code });
    expect(ok.statusCode).toBe(200);

    const again = await publicPost('token/obtain/', { username: u.app.username, password: BUILT_PASSWORD });
    const reuse = await publicPost('token/mfa/obtain/', {
      mfa_token: again.json<{ mfa_token: string }>().mfa_token,
      otp: code,
    });
    expect(reuse.json()).toEqual({ otp: [MFA_MESSAGES.wrongCode] });
  });

  it('never resets an active app without the password and its current code (issue 25, item 2)', async () => {
    // the attack: a stolen session calls set-up on an account with an app; the factor stayed off
    const bare = await call('POST', 'mfa/totp/setup/', { password: BUILT_PASSWORD }, { lang: 'en' });
    expect(bare.statusCode).toBe(400);
    expect(bare.json()).toEqual({ detail: MFA_CHANGE_MESSAGES.en.codeRequired });
    const before = await failures(u.app.username);
    const wrongPassword = await call('POST', 'mfa/totp/setup/', {
      password: 'not-the-password',
      otp: hotp(secret, timeStep() + 1),
    });
    expect(wrongPassword.statusCode).toBe(403);
    // Russian unless the client asks for English
    expect(wrongPassword.json()).toEqual({ detail: MFA_CHANGE_MESSAGES.ru.wrongPassword });
    const wrongCode = await call(
      'POST',
      'mfa/totp/setup/',
      { password: BUILT_PASSWORD, otp: hotp(secret, timeStep() - 5) },
      { lang: 'en' },
    );
    expect(wrongCode.statusCode).toBe(403);
    expect(wrongCode.json()).toEqual({ detail: MFA_CHANGE_MESSAGES.en.wrongCode });
    // counted like failed sign-ins, and audited without the secrets
    expect(await failures(u.app.username)).toBe(before + 2);
    const entries = await ctx.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'auth.mfa_change_failed'))
      .orderBy(desc(auditLog.id));
    expect(entries.slice(0, 2).map((e) => e.details)).toEqual([
      { change: 'totp_setup', reason: 'code' },
      { change: 'totp_setup', reason: 'password' },
    ]);
    expect((await call('GET', 'mfa/')).json()).toEqual({ sms: false, totp: true });

    const replace = await call('POST', 'mfa/totp/setup/', {
      password: BUILT_PASSWORD,
      otp: hotp(secret, timeStep() + 1),
    });
    expect(replace.statusCode).toBe(200);
    const next = base32Decode(replace.json<{ secret: string }>().secret);
    // the active app stays on, and alone signs in, until the new one is confirmed
    expect((await call('GET', 'mfa/')).json()).toEqual({ sms: false, totp: true });
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, u.app.id));
    expect(row?.totpEnabledAt).not.toBeNull();
    const withNew = await signInWithApp(u.app.username, next, timeStep());
    expect(withNew.json()).toEqual({ otp: [MFA_MESSAGES.wrongCode] });

    const confirm = await call('POST', 'mfa/totp/confirm/', { otp: hotp(next, timeStep()) });
    expect(confirm.json()).toEqual({ sms: false, totp: true });
    const replaced = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'auth.totp_replaced'), eq(auditLog.objectId, String(row!.id))));
    expect(replaced).toHaveLength(1);
    expect((await signInWithApp(u.app.username, secret, timeStep() + 1)).statusCode).toBe(400);
    expect((await signInWithApp(u.app.username, next, timeStep() + 1)).statusCode).toBe(200);
    replacedSecret = secret;
    secret = next;
    await ctx.database.db.delete(loginThrottle).where(eq(loginThrottle.key, `u:${u.app.username}`));
  });

  it('turns off only with the password and the current code; sign-in is then by password alone', async () => {
    // as if the codes used above were older: each code works once, and the window is ±1 step
    await ctx.database.db
      .update(users)
      .set({ totpLastStep: timeStep() - 2 })
      .where(eq(users.id, u.app.id));
    const noCode = await call('POST', 'mfa/totp/disable/', { password: BUILT_PASSWORD });
    expect(noCode.statusCode).toBe(400);
    const wrong = await call('POST', 'mfa/totp/disable/', {
      password: 'not-it',
      otp: hotp(secret, timeStep() + 1),
    });
    expect(wrong.statusCode).toBe(403);
    expect((await call('GET', 'mfa/')).json()).toEqual({ sms: false, totp: true });
    // a code of the app that was replaced does not count
    const old = await call('POST', 'mfa/totp/disable/', {
      password: BUILT_PASSWORD,
      otp: hotp(replacedSecret, timeStep()),
    });
    expect(old.statusCode).toBe(403);
    const right = await call('POST', 'mfa/totp/disable/', {
      password: BUILT_PASSWORD,
      otp: hotp(secret, timeStep()),
    });
    expect(right.json()).toEqual({ sms: false, totp: false });
    const res = await publicPost('token/obtain/', { username: u.app.username, password: BUILT_PASSWORD });
    expect(Object.keys(res.json<object>()).sort()).toEqual(['access', 'refresh']);
    await ctx.database.db.delete(loginThrottle).where(eq(loginThrottle.key, `u:${u.app.username}`));
  });

  it('needs only the password while no factor is on', async () => {
    const wrong = await call('POST', 'mfa/totp/setup/', { password: 'nope-nope' }, { user: 'second' });
    expect(wrong.statusCode).toBe(403);
    const ok = await call('POST', 'mfa/totp/setup/', { password: BUILT_PASSWORD }, { user: 'second' });
    expect(ok.statusCode).toBe(200);
    expect((await call('GET', 'mfa/', undefined, { user: 'second' })).json()).toEqual({
      sms: false,
      totp: false,
    });
    await ctx.database.db.delete(loginThrottle).where(eq(loginThrottle.key, `u:${u.second.username}`));
  });
});

describe('changing the second factor while only the SMS factor is on', () => {
  let smsAccess = '';

  const lastCode = async () => {
    const [row] = await ctx.database.db
      .select()
      .from(smsOutbox)
      .where(eq(smsOutbox.phone, SMS_PHONE))
      .orderBy(desc(smsOutbox.id))
      .limit(1);
    return /\b(\d{6})\b/.exec(row?.body ?? '')![1]!;
  };
  const smsCall = (url: string, payload?: object) =>
    ctx.app.inject({ method: 'POST', url: `/api/v0/auth/${url}`, payload, headers: bearer(smsAccess) });

  it('keeps the SMS factor for the SMS user until an app is confirmed', async () => {
    const res = await publicPost('token/obtain/', { username: u.sms.username, password: BUILT_PASSWORD });
    expect(res.json()).toMatchObject({ method: 'sms', generate_challenge_timeout: 60 });
    const done = await publicPost('token/mfa/obtain/', {
      mfa_token: res.json<{ mfa_token: string }>().mfa_token,
      otp: await lastCode(),
    });
    smsAccess = done.json<{ access: string }>().access;
    expect(smsAccess).toBeTruthy();
  });

  it('needs an SMS code sent for the change, which cannot complete a sign-in', async () => {
    expect((await smsCall('mfa/totp/setup/', { password: BUILT_PASSWORD })).statusCode).toBe(400);
    const signIn = await publicPost('token/obtain/', { username: u.sms.username, password: BUILT_PASSWORD });
    const signInCode = await lastCode();
    const sent = await smsCall('mfa/code/');
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({ generate_challenge_timeout: 60 });
    expect((await smsCall('mfa/code/')).statusCode).toBe(429);
    const code = await lastCode();
    // a change code never completes a sign-in, nor a sign-in code a change
    const asSignIn = await publicPost('token/mfa/obtain/', {
      mfa_token: signIn.json<{ mfa_token: string }>().mfa_token,
      otp: code,
    });
    expect(asSignIn.json()).toEqual({ otp: [MFA_MESSAGES.wrongCode] });
    if (signInCode !== code) {
      const asChange = await smsCall('mfa/totp/setup/', { password: BUILT_PASSWORD, otp: signInCode });
      expect(asChange.statusCode).toBe(403);
    }
    const other = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    expect((await smsCall('mfa/totp/setup/', { password: BUILT_PASSWORD, otp: other })).statusCode).toBe(403);
    const ok = await smsCall('mfa/totp/setup/', { password: BUILT_PASSWORD, otp: code });
    expect(ok.statusCode).toBe(200);
    // the code is used up
    expect((await smsCall('mfa/totp/setup/', { password: BUILT_PASSWORD, otp: code })).statusCode).toBe(403);
    const start = await publicPost('token/obtain/', { username: u.sms.username, password: BUILT_PASSWORD });
    expect(start.json()).toMatchObject({ method: 'sms' });
    await ctx.database.db.delete(loginThrottle).where(eq(loginThrottle.key, `u:${u.sms.username}`));
  });

  it('words a change code apart from a sign-in code, in the caller’s language', async () => {
    const newestSms = async () =>
      (
        await ctx.database.db
          .select()
          .from(smsOutbox)
          .where(eq(smsOutbox.phone, SMS_PHONE))
          .orderBy(desc(smsOutbox.id))
          .limit(1)
      )[0]!.body;
    await publicPost('token/obtain/', { username: u.sms.username, password: BUILT_PASSWORD });
    const signIn = await lastCode();
    expect(await newestSms()).toBe(`${signIn} is your SOC Portal sign-in code. It expires in 5 minutes.`);
    for (const lang of ['en', 'ru'] as const) {
      // the resend pause of the change code already sent is over
      await ctx.database.db
        .update(mfaChallenges)
        .set({ lastSentAt: new Date(Date.now() - 3_600_000) })
        .where(eq(mfaChallenges.userId, u.sms.id));
      const sent = await ctx.app.inject({
        method: 'POST',
        url: '/api/v0/auth/mfa/code/',
        headers: { ...bearer(smsAccess), 'accept-language': lang },
      });
      expect(sent.statusCode, sent.body).toBe(200);
      const code = await lastCode();
      expect(await newestSms()).toBe(
        lang === 'en'
          ? `${code} is your SOC Portal code to CHANGE the second factor of your account. It expires in 5 minutes. Never share it with anyone; if you did not ask for it, change your password.`
          : `${code} — код SOC Portal для СМЕНЫ второго фактора вашей учётной записи. Действует 5 мин. Никому не сообщайте его; если вы его не запрашивали, смените пароль.`,
      );
    }
    await ctx.database.db.delete(loginThrottle).where(eq(loginThrottle.key, `u:${u.sms.username}`));
  });

  it('refuses the change code to an account without a phone', async () => {
    const res = await call('POST', 'mfa/code/');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ non_field_errors: [MFA_MESSAGES.noSmsFactor] });
  });
});
