import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type {
  Language,
  MfaChangeProof,
  MfaCodeSent,
  MfaPending,
  MfaStatus,
  TokenPair,
  TotpSetupResponse,
} from '@soc/contracts';
import { MFA_CHANGE_MESSAGES, MFA_MAX_FAILURES, MFA_MESSAGES, MFA_PIN_LENGTH } from '@soc/contracts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { SmsGateway } from '../../integrations/sms/sms-gateway.ts';
import { fillTemplate, maskPhone } from '../../integrations/sms/sms-gateway.ts';
import { audit } from '../../lib/audit.ts';
import { HttpError, badRequest, forbidden, tooManyRequests } from '../../lib/http-errors.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import {
  base32Encode,
  matchTotp,
  newTotpSecret,
  openSecret,
  otpauthUrl,
  sealSecret,
} from '../../lib/totp.ts';
import type { AuthRepository, UserRow } from './auth.repository.ts';
import type { CallerContext } from './auth.service.ts';
import type { MfaChallengeRow } from './mfa.repository.ts';
import { createMfaRepository } from './mfa.repository.ts';

/** A pending sign-in lives this long in all, however many codes are sent. */
const PENDING_TTL_MS = 15 * 60_000;

const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** The "new token" error (spec 000 §4): the client drops its mfa_token and signs in again. */
const tokenInvalid = () => badRequest({ mfa_token: [MFA_MESSAGES.tokenInvalid] });

export interface MfaServiceDeps {
  db: Db;
  config: Config;
  users: AuthRepository;
  sms: SmsGateway;
  issueTokens: (user: UserRow, ctx: CallerContext) => Promise<TokenPair>;
  log?: FastifyBaseLogger;
}

/**
 * The SMS second factor: 6-digit codes, single use, valid for MFA_CODE_TTL_SECONDS, kept only as
 * an HMAC and compared in constant time; MFA_MAX_FAILURES wrong codes close the pending sign-in.
 */
export function createMfaService({ db, config, users, sms, issueTokens, log }: MfaServiceDeps) {
  const repo = createMfaRepository(db);
  const codeMac = (challengeId: string, code: string): Buffer =>
    createHmac('sha256', config.jwtSecret).update(`mfa:${challengeId}:${code}`).digest();

  async function checkHourlyCap(userId: number): Promise<void> {
    if ((await repo.sendsInLastHour(userId)) >= config.sms.maxPerUserPerHour) throw tooManyRequests(3600);
  }

  /** Generates and sends a new code; the previous one stops working. */
  async function sendCode(challenge: MfaChallengeRow, user: UserRow, ctx: CallerContext): Promise<void> {
    const phone = user.mfaPhone;
    const code = String(randomInt(0, 10 ** MFA_PIN_LENGTH)).padStart(MFA_PIN_LENGTH, '0');
    await repo.storeCode(
      challenge.id,
      codeMac(challenge.id, code).toString('hex'),
      new Date(Date.now() + config.mfa.codeTtlSeconds * 1000),
    );
    try {
      if (!phone) throw new Error('The user has no phone number for the second factor');
      await sms.send({
        to: phone,
        text: fillTemplate(config.sms.textTemplate, {
          code,
          minutes: String(Math.max(1, Math.round(config.mfa.codeTtlSeconds / 60))),
        }),
      });
      log?.info({ userId: user.id, phone: maskPhone(phone) }, 'sign-in code sent by SMS');
    } catch (error) {
      await repo.close(challenge.id);
      log?.error({ userId: user.id, err: (error as Error).message }, 'sign-in code could not be sent');
      await audit(db, {
        userId: user.id,
        action: 'auth.mfa_send_failed',
        objectType: 'user',
        objectId: user.id,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
      });
      throw new HttpError(
        503,
        MFA_MESSAGES.sendFailed,
        undefined,
        {},
        {
          mfa_token: [MFA_MESSAGES.sendFailed],
        },
      );
    }
    await audit(db, {
      userId: user.id,
      action: 'auth.mfa_challenge',
      objectType: 'user',
      objectId: user.id,
      ip: ctx.ip,
      userAgent: ctx.userAgent,
      details: { method: 'sms', phone: maskPhone(phone), resend: challenge.sends > 0 },
    });
  }

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
    const messages = MFA_CHANGE_MESSAGES[lang];
    const totpOn = Boolean(user.totpEnabledAt && user.totpSecret);
    if ((totpOn || user.mfaPhone) && !proof.otp) throw new HttpError(400, messages.codeRequired);
    const userKey = `u:${user.username.toLowerCase()}`;
    const ipKey = `ip:${ctx.ip}`;
    const wait = await users.lockedFor([userKey, ipKey]);
    if (wait > 0) throw tooManyRequests(wait);

    let failed: 'password' | 'code' | null = null;
    if (!(await verifyPassword(user.passwordHash, proof.password))) failed = 'password';
    else if (totpOn) {
      const step = matchTotp(openSecret(user.totpSecret!, config.jwtSecret), proof.otp!);
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
    throw forbidden(failed === 'password' ? messages.wrongPassword : messages.wrongCode);
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
        await audit(db, {
          userId: user.id,
          action: 'auth.mfa_challenge',
          objectType: 'user',
          objectId: user.id,
          ip: ctx.ip,
          userAgent: ctx.userAgent,
          details: { method: 'totp' },
        });
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
        const step = user.totpSecret ? matchTotp(openSecret(user.totpSecret, config.jwtSecret), otp) : null;
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
          `A new code may be requested in ${remaining} seconds.`,
          undefined,
          { 'retry-after': String(remaining) },
          {
            detail: `A new code may be requested in ${remaining} seconds.`,
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
      const step = matchTotp(openSecret(user.totpPendingSecret, config.jwtSecret), otp);
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

export type MfaService = ReturnType<typeof createMfaService>;
