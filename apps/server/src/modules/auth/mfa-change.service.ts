import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Language, MfaChangeProof, MfaCodeSent, TotpSetupResponse } from '@soc/contracts';
import { MFA_CHANGE_MESSAGES, MFA_MAX_FAILURES, MFA_MESSAGES } from '@soc/contracts';
import { audit } from '../../lib/audit.ts';
import { HttpError, badRequest, forbidden, tooManyRequests } from '../../lib/http-errors.ts';
import { fromTable } from '../../lib/messages.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import {
  base32Encode,
  matchTotp,
  newTotpSecret,
  openSecret,
  otpauthUrl,
  sealSecret,
} from '../../lib/totp.ts';
import type { UserRow } from './auth.repository.ts';
import type { CallerContext } from './auth.types.ts';
import type { MfaCodes } from './mfa-codes.ts';
import { PENDING_TTL_MS, hashToken } from './mfa-codes.ts';
import type { MfaRepository } from './mfa.repository.ts';
import type { MfaServiceDeps } from './auth.types.ts';

/**
 * Changes of a user's second factors: the authenticator app's setup, confirmation and removal,
 * each proven with the password and the factor's current code.
 */
export function createMfaChanges(
  { db, config, users }: Pick<MfaServiceDeps, 'db' | 'config' | 'users'>,
  repo: MfaRepository,
  { codeMac, checkHourlyCap, sendCode }: MfaCodes,
) {
  /**
   * The proof a change of second factors needs: the password and, while a factor is on, its
   * current code (the app's, else an SMS code from sendChangeCode). A wrong one answers 403,
   * is audited and counts towards the sign-in lock of the user and of the address.
   */
  async function checkChangeProof(
    user: UserRow,
    proof: MfaChangeProof,
    ctx: CallerContext,
    lang: Language,
    change: string,
  ): Promise<void> {
    const totpOn = Boolean(user.totpEnabledAt && user.totpSecret);
    if ((totpOn || user.mfaPhone) && !proof.otp)
      throw new HttpError(400, fromTable(MFA_CHANGE_MESSAGES, 'codeRequired'));
    const userKey = `u:${user.username.toLowerCase()}`;
    const ipKey = `ip:${ctx.ip}`;
    const wait = await users.lockedFor([userKey, ipKey]);
    if (wait > 0) throw tooManyRequests(wait);

    let failed: 'password' | 'code' | null = null;
    if (!(await verifyPassword(user.passwordHash, proof.password))) failed = 'password';
    else if (totpOn) {
      const step = matchTotp(
        openSecret(user.totpSecret!, config.jwtSecret, config.jwtPreviousSecret),
        proof.otp!,
      );
      if (step === null || !(await users.claimTotpStep(user.id, step))) failed = 'code';
    } else if (user.mfaPhone) {
      const challenge = await repo.findOpenChange(user.id);
      const live = Boolean(challenge?.codeExpiresAt && challenge.codeExpiresAt.getTime() > Date.now());
      const stored = challenge?.codeHash ? Buffer.from(challenge.codeHash, 'hex') : Buffer.alloc(32);
      const matches = timingSafeEqual(stored, codeMac(challenge?.id ?? '', proof.otp!));
      if (challenge && matches && live && (await repo.close(challenge.id))) failed = null;
      else {
        if (challenge) await repo.recordFailure(challenge.id, MFA_MAX_FAILURES);
        failed = 'code';
      }
    }
    if (!failed) return;
    await Promise.all([users.recordFailure(userKey), users.recordFailure(ipKey)]);
    await audit(db, {
      userId: user.id,
      action: 'auth.mfa_change_failed',
      objectType: 'user',
      objectId: user.id,
      ip: ctx.ip,
      userAgent: ctx.userAgent,
      details: { change, reason: failed },
    });
    throw forbidden(fromTable(MFA_CHANGE_MESSAGES, failed === 'password' ? 'wrongPassword' : 'wrongCode'));
  }

  return {
    /**
     * Sends an SMS code proving the phone before a change of second factors (when the SMS factor
     * is the active one). No token is handed out: the code cannot complete a sign-in.
     */
    async sendChangeCode(user: UserRow, ctx: CallerContext): Promise<MfaCodeSent> {
      if (!user.mfaPhone) throw badRequest({ non_field_errors: [MFA_MESSAGES.noSmsFactor] });
      const open = await repo.findOpenChange(user.id);
      const lastSent = open?.lastSentAt?.getTime() ?? 0;
      const remaining = Math.ceil((lastSent + config.mfa.resendTimeoutSeconds * 1000 - Date.now()) / 1000);
      if (remaining > 0) throw tooManyRequests(remaining);
      await checkHourlyCap(user.id);
      const challenge = await repo.insert({
        userId: user.id,
        tokenHash: hashToken(randomBytes(32).toString('base64url')),
        method: 'sms',
        purpose: 'mfa_change',
        expiresAt: new Date(Date.now() + PENDING_TTL_MS),
        ip: ctx.ip,
        userAgent: ctx.userAgent.slice(0, 512),
      });
      await sendCode(challenge, user, ctx);
      return { generate_challenge_timeout: config.mfa.resendTimeoutSeconds };
    },

    /**
     * A new authenticator secret, kept beside the active one (if any) until confirmed with a code:
     * needs the password and, while a factor is on, its current code.
     */
    async setupTotp(
      user: UserRow,
      proof: MfaChangeProof,
      ctx: CallerContext,
      lang: Language,
    ): Promise<TotpSetupResponse> {
      await checkChangeProof(user, proof, ctx, lang, 'totp_setup');
      const secret = newTotpSecret();
      await users.setTotp(user.id, { totpPendingSecret: sealSecret(secret, config.jwtSecret) });
      await audit(db, {
        userId: user.id,
        action: 'auth.totp_setup_started',
        objectType: 'user',
        objectId: user.id,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        details: { replacing: Boolean(user.totpEnabledAt) },
      });
      return {
        secret: base32Encode(secret),
        otpauth_url: otpauthUrl(config.branding.portalName, user.username, secret),
      };
    },

    /** Turns the pending authenticator secret on with a code it shows; it replaces the active one. */
    async confirmTotp(user: UserRow, otp: string, ctx: CallerContext): Promise<void> {
      if (!user.totpPendingSecret) throw badRequest({ otp: [MFA_MESSAGES.totpNotStarted] });
      const step = matchTotp(
        openSecret(user.totpPendingSecret, config.jwtSecret, config.jwtPreviousSecret),
        otp,
      );
      if (step === null) throw badRequest({ otp: [MFA_MESSAGES.wrongCode] });
      // the new secret has never been used: its step starts the replay guard afresh
      await users.setTotp(user.id, {
        totpSecret: user.totpPendingSecret,
        totpPendingSecret: null,
        totpEnabledAt: new Date(),
        totpLastStep: step,
      });
      await audit(db, {
        userId: user.id,
        action: user.totpEnabledAt ? 'auth.totp_replaced' : 'auth.totp_enabled',
        objectType: 'user',
        objectId: user.id,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
      });
    },

    /** Turns the authenticator app off (the SMS factor, if any, applies again): password and code. */
    async disableTotp(user: UserRow, proof: MfaChangeProof, ctx: CallerContext, lang: Language) {
      await checkChangeProof(user, proof, ctx, lang, 'totp_disable');
      await users.setTotp(user.id, {
        totpSecret: null,
        totpPendingSecret: null,
        totpEnabledAt: null,
        totpLastStep: null,
      });
      await audit(db, {
        userId: user.id,
        action: 'auth.totp_disabled',
        objectType: 'user',
        objectId: user.id,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
      });
    },
  };
}
