import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type {
  PasswordChangeRequest,
  TokenObtainRequest,
  TokenObtainResponse,
  TokenPair,
} from '@soc/contracts';
import { TEMPORARY_PASSWORD_MESSAGES } from '@soc/contracts';
import { revokeAllCredentials } from '../tokens/index.ts';
import type { AuthServiceOptions } from '../../core/auth.ts';
import type { Config } from '../../core/config.ts';
import type { Db } from '../../db/client.ts';
import { audit } from '../../lib/audit.ts';
import { HttpError, badRequest, tooManyRequests } from '../../lib/http-errors.ts';
import { fromTable, msg } from '../../lib/messages.ts';
import {
  assertPasswordPolicy,
  burnPasswordCheck,
  hashPassword,
  verifyPassword,
} from '../../lib/passwords.ts';
import type { AuthRepository, UserRow } from './auth.repository.ts';
import type { CallerContext } from './auth.types.ts';
import { createAuthRepository } from './auth.repository.ts';
import type { SmsGateway } from '../../integrations/sms/sms-gateway.ts';
import { createMfaService } from './mfa.service.ts';
import { hashRefreshToken, newRefreshToken, signAccessToken } from './auth.tokens.ts';

/** A failed sign-in answers no sooner than this, whatever made it fail. */
const FAILURE_FLOOR_MS = 400;

export interface AuthServiceDeps {
  sms: SmsGateway;
  log?: FastifyBaseLogger;
  /**
   * Called once a change of a user's sessions committed, so that this instance's auth cache
   * forgets them before the next request (other instances learn it from the database's NOTIFY).
   */
  onSessionsChanged?: (userId: number) => void;
}

export function createAuthService(
  db: Db,
  config: Config,
  options: AuthServiceOptions,
  { sms, log, onSessionsChanged = () => undefined }: AuthServiceDeps,
) {
  const repo: AuthRepository = createAuthRepository(db);
  const floor = options.failureFloorMs ?? FAILURE_FLOOR_MS;
  const jitter = options.failureJitterMs ?? 200;

  async function issueTokens(user: UserRow, familyId: string, ctx: CallerContext): Promise<TokenPair> {
    const refresh = newRefreshToken();
    await repo.insertRefreshToken({
      userId: user.id,
      familyId,
      tokenHash: refresh.hash,
      expiresAt: new Date(Date.now() + config.refreshTokenTtlSeconds * 1000),
      ip: ctx.ip,
      userAgent: ctx.userAgent.slice(0, 512),
    });
    const access = await signAccessToken(
      { userId: user.id, sessionId: familyId },
      config.jwtSecret,
      config.accessTokenTtlSeconds,
    );
    return user.temporaryPasswordExpiresAt
      ? { access, refresh: refresh.token, must_change_password: true }
      : { access, refresh: refresh.token };
  }

  const mfa = createMfaService({
    db,
    config,
    users: repo,
    sms,
    log,
    issueTokens: (user, ctx) => issueTokens(user, randomUUID(), ctx),
  });

  return {
    repo,
    mfa,
    /** Opens a new session (a new refresh-token family) for a user signed in by other means. */
    startSession: (user: UserRow, ctx: CallerContext) => issueTokens(user, randomUUID(), ctx),

    /**
     * Password sign-in. Unknown user, wrong password and inactive account answer alike and
     * take as long; 10 failures in a row per username or per IP lock further tries. A user with
     * a second factor gets an mfa_token instead of tokens, and a code by SMS.
     */
    async obtain(input: TokenObtainRequest, ctx: CallerContext): Promise<TokenObtainResponse> {
      const started = Date.now();
      const userKey = `u:${input.username.trim().toLowerCase()}`;
      const ipKey = `ip:${ctx.ip}`;
      const wait = await repo.lockedFor([userKey, ipKey]);
      if (wait > 0) throw tooManyRequests(wait);

      const user = await repo.findUserByUsername(input.username.trim());
      const ok = user
        ? await verifyPassword(user.passwordHash, input.password)
        : (await burnPasswordCheck(input.password), false);
      if (!user || !ok || !user.isActive) {
        await Promise.all([repo.recordFailure(userKey), repo.recordFailure(ipKey)]);
        await audit(db, {
          userId: user?.id ?? null,
          action: 'auth.login_failed',
          objectType: 'user',
          objectId: user?.id ?? '',
          ip: ctx.ip,
          userAgent: ctx.userAgent,
          details: { username: input.username.slice(0, 150) },
        });
        // this failure started a lock (there was none a moment ago): one audit entry per lock
        const lockedFor = await repo.lockedFor([userKey, ipKey]);
        if (lockedFor > 0) {
          await audit(db, {
            userId: user?.id ?? null,
            action: 'auth.locked',
            objectType: 'user',
            objectId: user?.id ?? '',
            ip: ctx.ip,
            userAgent: ctx.userAgent,
            details: { username: input.username.slice(0, 150), seconds: lockedFor },
          });
        }
        const elapsed = Date.now() - started;
        await sleep(Math.max(0, floor - elapsed) + Math.floor(Math.random() * jitter));
        throw new HttpError(401, msg('invalidCredentials'));
      }
      if (user.temporaryPasswordExpiresAt && user.temporaryPasswordExpiresAt.getTime() <= Date.now()) {
        // the right password, but its time is over: only the administrator can give a new one
        await audit(db, {
          userId: user.id,
          action: 'auth.login_failed',
          objectType: 'user',
          objectId: user.id,
          ip: ctx.ip,
          userAgent: ctx.userAgent,
          details: { username: input.username.slice(0, 150), reason: 'temporary_password_expired' },
        });
        const detail = fromTable(TEMPORARY_PASSWORD_MESSAGES, 'expired');
        throw new HttpError(401, detail, undefined, {}, { detail, code: 'temporary_password_expired' });
      }
      if (mfa.requiresSecondFactor(user)) {
        // the failure counters stay: only a right code proves the caller
        return mfa.start(user, ctx);
      }
      await Promise.all([repo.clearFailures(userKey), repo.clearFailures(ipKey), repo.touchLogin(user.id)]);
      await audit(db, {
        userId: user.id,
        action: 'auth.login',
        objectType: 'user',
        objectId: user.id,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        details: { method: 'password' },
      });
      return issueTokens(user, randomUUID(), ctx);
    },

    /** Rotates a refresh token. Presenting an already rotated token ends its whole session. */
    async refresh(token: string, ctx: CallerContext): Promise<TokenPair> {
      const row = await repo.findRefreshToken(hashRefreshToken(token));
      if (!row || row.revokedAt || row.expiresAt.getTime() <= Date.now()) {
        throw new HttpError(401, msg('invalidRefresh'));
      }
      if (row.usedAt || !(await repo.markUsed(row.id))) {
        await repo.revokeFamily(row.familyId);
        onSessionsChanged(row.userId);
        await audit(db, {
          userId: row.userId,
          action: 'auth.refresh_reuse',
          objectType: 'session',
          objectId: row.familyId,
          ip: ctx.ip,
          userAgent: ctx.userAgent,
        });
        throw new HttpError(401, msg('invalidRefresh'));
      }
      const user = await repo.findUserById(row.userId);
      if (!user?.isActive) {
        await repo.revokeFamily(row.familyId);
        onSessionsChanged(row.userId);
        throw new HttpError(401, msg('invalidRefresh'));
      }
      return issueTokens(user, row.familyId, ctx);
    },

    /** Ends the session the refresh token belongs to; unknown tokens are ignored. */
    async logout(token: string, ctx: CallerContext): Promise<void> {
      const row = await repo.findRefreshToken(hashRefreshToken(token));
      if (!row) return;
      await repo.revokeFamily(row.familyId);
      onSessionsChanged(row.userId);
      await audit(db, {
        userId: row.userId,
        action: 'auth.logout',
        objectType: 'session',
        objectId: row.familyId,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
      });
    },

    /**
     * Checks the old password and the password policy, stores the new one and, in the same
     * transaction, ends every session of the user (this one too) and revokes their personal API
     * tokens: whoever held a credential of the old password must sign in again.
     */
    async changePassword(
      userId: number,
      _sessionId: string | null,
      input: PasswordChangeRequest,
      ctx: CallerContext,
    ): Promise<void> {
      const user = await repo.findUserById(userId);
      if (!user) throw new HttpError(401, msg('invalidCredentials'));
      if (!(await verifyPassword(user.passwordHash, input.old_password))) {
        throw badRequest({ old_password: [msg('oldPasswordWrong')] });
      }
      if (input.old_password === input.password) {
        throw badRequest({ password: [msg('sameAsOldPassword')] });
      }
      assertPasswordPolicy(input.password, user);
      const passwordHash = await hashPassword(input.password);
      await db.transaction(async (tx) => {
        await createAuthRepository(tx).setPassword(userId, passwordHash);
        await revokeAllCredentials(tx, userId, {
          actorId: userId,
          reason: 'password_change',
          ip: ctx.ip,
          userAgent: ctx.userAgent,
        });
        await audit(tx, {
          userId,
          action: 'auth.password_change',
          objectType: 'user',
          objectId: userId,
          ip: ctx.ip,
          userAgent: ctx.userAgent,
        });
      });
      onSessionsChanged(userId);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
