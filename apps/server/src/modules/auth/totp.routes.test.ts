import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MFA_MESSAGES } from '@soc/contracts';
import { smsOutbox } from '../../db/schema/index.ts';
import { base32Decode, hotp, timeStep } from '../../lib/totp.ts';
import type { TestContext } from '../../test/harness.ts';
import { DEMO_PASSWORD, bearer, createTestContext } from '../../test/harness.ts';

let ctx: TestContext;
let access: string;
beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  access = (await ctx.login('alice')).access;
});
afterAll(() => ctx.close());

const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
  ctx.app.inject({ method, url: `/api/v0/auth/${url}`, payload, headers: bearer(access) });
const publicPost = (url: string, payload: object) =>
  ctx.app.inject({ method: 'POST', url: `/api/v0/auth/${url}`, payload });

describe('authenticator app (TOTP) as the second factor', () => {
  let secret: Buffer;
  let confirmStep = 0;

  it('enrols from the profile: secret, then confirmation with a current code', async () => {
    expect((await call('GET', 'mfa/')).json()).toEqual({ sms: false, totp: false });
    const setup = await call('POST', 'mfa/totp/setup/');
    expect(setup.statusCode).toBe(200);
    const body = setup.json<{ secret: string; otpauth_url: string }>();
    expect(body.otpauth_url).toMatch(/^otpauth:\/\/totp\/SOC%20Portal%3Aalice\?secret=/);
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
    const start = await publicPost('token/obtain/', { username: 'alice', password: DEMO_PASSWORD });
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

    const again = await publicPost('token/obtain/', { username: 'alice', password: DEMO_PASSWORD });
    const reuse = await publicPost('token/mfa/obtain/', {
      mfa_token: again.json<{ mfa_token: string }>().mfa_token,
      otp: code,
    });
    expect(reuse.json()).toEqual({ otp: [MFA_MESSAGES.wrongCode] });
  });

  it('turns off only with the password; sign-in is then by password alone again', async () => {
    const wrong = await call('POST', 'mfa/totp/disable/', { password: 'not-it' });
    expect(wrong.statusCode).toBe(400);
    const ok = await call('POST', 'mfa/totp/disable/', { password: DEMO_PASSWORD });
    expect(ok.json()).toEqual({ sms: false, totp: false });
    const res = await publicPost('token/obtain/', { username: 'alice', password: DEMO_PASSWORD });
    expect(Object.keys(res.json<object>()).sort()).toEqual(['access', 'refresh']);
  });

  it('keeps the SMS factor for dave until an app is confirmed', async () => {
    const res = await publicPost('token/obtain/', { username: 'dave', password: DEMO_PASSWORD });
    expect(res.json()).toMatchObject({ method: 'sms', generate_challenge_timeout: 60 });
  });
});
