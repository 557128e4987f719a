import { createHash, createHmac, randomInt } from 'node:crypto';
import { MFA_MESSAGES, MFA_PIN_LENGTH } from '@soc/contracts';
import { audit } from '../../lib/audit.ts';
import { HttpError, tooManyRequests } from '../../lib/http-errors.ts';
import { msg } from '../../lib/messages.ts';
import { fillTemplate, maskPhone } from '../../integrations/sms/sms-gateway.ts';
import type { UserRow } from './auth.repository.ts';
import type { CallerContext, MfaServiceDeps } from './auth.types.ts';
import type { MfaChallengeRow, MfaRepository } from './mfa.repository.ts';

/** A pending sign-in lives this long in all, however many codes are sent. */
export const PENDING_TTL_MS = 15 * 60_000;

/** The audit entry of a second-factor challenge sent or asked for. */
export const auditChallenge = (
  db: Parameters<typeof audit>[0],
  userId: number,
  ctx: CallerContext,
  details: Record<string, unknown>,
) =>
  audit(db, {
    userId,
    action: 'auth.mfa_challenge',
    objectType: 'user',
    objectId: userId,
    ip: ctx.ip,
    userAgent: ctx.userAgent,
    details,
  });

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** The SMS codes of sign-ins and of changes of second factors: made, kept as an HMAC, sent, capped. */
export function createMfaCodes(
  { db, config, sms, log }: Pick<MfaServiceDeps, 'db' | 'config' | 'sms' | 'log'>,
  repo: MfaRepository,
) {
  const codeMac = (challengeId: string, code: string): Buffer =>
    createHmac('sha256', config.jwtSecret).update(`mfa:${challengeId}:${code}`).digest();

  async function checkHourlyCap(userId: number): Promise<void> {
    if ((await repo.sendsInLastHour(userId)) >= config.sms.maxPerUserPerHour) throw tooManyRequests(3600);
  }

  /** Generates and sends a new code; the previous one stops working. */
  async function sendCode(challenge: MfaChallengeRow, user: UserRow, ctx: CallerContext): Promise<void> {
    const phone = user.mfaPhone;
    const code = String(randomInt(0, 10 ** MFA_PIN_LENGTH)).padStart(MFA_PIN_LENGTH, '0');
    const minutes = Math.max(1, Math.round(config.mfa.codeTtlSeconds / 60));
    await repo.storeCode(
      challenge.id,
      codeMac(challenge.id, code).toString('hex'),
      new Date(Date.now() + config.mfa.codeTtlSeconds * 1000),
    );
    try {
      if (!phone) throw new Error('The user has no phone number for the second factor');
      await sms.send({
        to: phone,
        text:
          challenge.purpose === 'sign_in'
            ? fillTemplate(config.sms.textTemplate, { code, minutes: String(minutes) })
            : msg('smsMfaChangeCode', code, minutes).in(ctx.lang ?? 'en'),
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
    await auditChallenge(db, user.id, ctx, {
      method: 'sms',
      phone: maskPhone(phone),
      resend: challenge.sends > 0,
    });
  }

  return { codeMac, checkHourlyCap, sendCode };
}

export type MfaCodes = ReturnType<typeof createMfaCodes>;
