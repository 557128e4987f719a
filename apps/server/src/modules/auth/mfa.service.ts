import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { MfaPending, MfaStatus, TokenPair } from '@soc/contracts';
import { MFA_MAX_FAILURES, MFA_MESSAGES } from '@soc/contracts';
import { audit } from '../../lib/audit.ts';
import { HttpError, badRequest, tooManyRequests } from '../../lib/http-errors.ts';
import { msg } from '../../lib/messages.ts';
import { matchTotp, openSecret } from '../../lib/totp.ts';
import type { UserRow } from './auth.repository.ts';
import type { CallerContext, MfaServiceDeps } from './auth.types.ts';
import { createMfaChanges } from './mfa-change.service.ts';
import { PENDING_TTL_MS, auditChallenge, createMfaCodes, hashToken } from './mfa-codes.ts';
import { createMfaRepository } from './mfa.repository.ts';

/** The "new token" error (product §A4): the client drops its mfa_token and signs in again. */
const tokenInvalid = () => badRequest({ mfa_token: [MFA_MESSAGES.tokenInvalid] });

/**
 * The second step of a sign-in and, through mfa-change.service.ts, changes of second factors.
 * The SMS second factor: 6-digit codes, single use, valid for MFA_CODE_TTL_SECONDS, kept only as
 * an HMAC and compared in constant time; MFA_MAX_FAILURES wrong codes close the pending sign-in.
 */
export function createMfaService({ db, config, users, sms, issueTokens, log }: MfaServiceDeps) {
  const repo = createMfaRepository(db);
  const codes = createMfaCodes({ db, config, sms, log }, repo);
  const { codeMac, checkHourlyCap, sendCode } = codes;

  async function openChallenge(mfaToken: string) {
    const challenge = await repo.findOpen(hashToken(mfaToken));
    if (!challenge) throw tokenInvalid();
    const user = await users.findUserById(challenge.userId);
    if (!user?.isActive) {
      await repo.close(challenge.id);
      throw tokenInvalid();
    }
    return { challenge, user };
  }

  return {
    /** True when the user signs in with a second factor. */
    requiresSecondFactor: (user: UserRow): boolean => Boolean(user.totpEnabledAt || user.mfaPhone),

    /**
     * Starts the second step of a sign-in whose password was right: with a confirmed
     * authenticator app the user types its code; otherwise the first code goes out by SMS.
     */
    async start(user: UserRow, ctx: CallerContext): Promise<MfaPending> {
      if (user.totpEnabledAt && user.totpSecret) {
        const token = randomBytes(32).toString('base64url');
        await repo.insert({
          userId: user.id,
          tokenHash: hashToken(token),
          method: 'totp',
          expiresAt: new Date(Date.now() + PENDING_TTL_MS),
          ip: ctx.ip,
          userAgent: ctx.userAgent.slice(0, 512),
        });
        await auditChallenge(db, user.id, ctx, { method: 'totp' });
        return { mfa_token: token, generate_challenge_timeout: 0, method: 'totp' };
      }
      await checkHourlyCap(user.id);
      const token = randomBytes(32).toString('base64url');
      const challenge = await repo.insert({
        userId: user.id,
        tokenHash: hashToken(token),
        method: 'sms',
        expiresAt: new Date(Date.now() + PENDING_TTL_MS),
        ip: ctx.ip,
        userAgent: ctx.userAgent.slice(0, 512),
      });
      await sendCode(challenge, user, ctx);
      return { mfa_token: token, generate_challenge_timeout: config.mfa.resendTimeoutSeconds, method: 'sms' };
    },

    /** Checks a code; the right one ends the pending sign-in and opens a session. */
    async obtain(mfaToken: string, otp: string, ctx: CallerContext): Promise<TokenPair> {
      const { challenge, user } = await openChallenge(mfaToken);
      const userKey = `u:${user.username.toLowerCase()}`;
      const ipKey = `ip:${ctx.ip}`;
      const wait = await users.lockedFor([userKey, ipKey]);
      if (wait > 0) throw tooManyRequests(wait);

      let matches: boolean;
      let expired = false;
      if (challenge.method === 'totp') {
        // a code of the app works once: the accepted time step is claimed atomically
        const step = user.totpSecret
          ? matchTotp(openSecret(user.totpSecret, config.jwtSecret, config.jwtPreviousSecret), otp)
          : null;
        matches = step !== null && (await users.claimTotpStep(user.id, step));
      } else {
        expired = !challenge.codeExpiresAt || challenge.codeExpiresAt.getTime() <= Date.now();
        const stored = challenge.codeHash ? Buffer.from(challenge.codeHash, 'hex') : Buffer.alloc(32);
        matches = timingSafeEqual(stored, codeMac(challenge.id, otp));
      }
      if (matches && !expired) {
        if (!(await repo.close(challenge.id))) throw tokenInvalid();
        await Promise.all([
          users.clearFailures(userKey),
          users.clearFailures(ipKey),
          users.touchLogin(user.id),
        ]);
        await audit(db, {
          userId: user.id,
          action: 'auth.login',
          objectType: 'user',
          objectId: user.id,
          ip: ctx.ip,
          userAgent: ctx.userAgent,
          details: { method: `password+${challenge.method}` },
        });
        return issueTokens(user, ctx);
      }
      if (matches && expired) throw badRequest({ otp: [MFA_MESSAGES.codeExpired] });

      const failures = await repo.recordFailure(challenge.id, MFA_MAX_FAILURES);
      await Promise.all([users.recordFailure(userKey), users.recordFailure(ipKey)]);
      const locked = failures === null || failures >= MFA_MAX_FAILURES;
      await audit(db, {
        userId: user.id,
        action: locked ? 'auth.mfa_locked' : 'auth.mfa_failed',
        objectType: 'user',
        objectId: user.id,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        details: { failures },
      });
      if (locked) throw tokenInvalid();
      throw badRequest({ otp: [expired ? MFA_MESSAGES.codeExpired : MFA_MESSAGES.wrongCode] });
    },

    /** Sends a new code once the resend timeout has passed; earlier calls get 429 with the wait. */
    async resend(mfaToken: string, ctx: CallerContext): Promise<MfaPending> {
      const { challenge, user } = await openChallenge(mfaToken);
      if (challenge.method === 'totp') throw badRequest({ non_field_errors: [MFA_MESSAGES.totpNoResend] });
      const lastSent = challenge.lastSentAt?.getTime() ?? 0;
      const remaining = Math.ceil((lastSent + config.mfa.resendTimeoutSeconds * 1000 - Date.now()) / 1000);
      if (remaining > 0) {
        throw new HttpError(
          429,
          msg('mfaResendWait', remaining),
          undefined,
          { 'retry-after': String(remaining) },
          {
            detail: msg('mfaResendWait', remaining),
            generate_challenge_timeout: remaining,
          },
        );
      }
      await checkHourlyCap(user.id);
      await sendCode(challenge, user, ctx);
      return {
        mfa_token: mfaToken,
        generate_challenge_timeout: config.mfa.resendTimeoutSeconds,
        method: 'sms',
      };
    },

    status: (user: UserRow): MfaStatus => ({
      sms: Boolean(user.mfaPhone),
      totp: Boolean(user.totpEnabledAt),
    }),

    ...createMfaChanges({ db, config, users }, repo, codes),
  };
}

export type MfaService = ReturnType<typeof createMfaService>;
