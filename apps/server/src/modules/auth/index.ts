/**
 * The auth module: sign-in (password, second factor, OIDC and the SSO proxy), sessions, the dev
 * SMS outbox and the mail about security events. Also what the auth plugin and other modules use
 * of it.
 */
import { API_BASE } from '@soc/contracts';
import type { AppContext, AppModule } from '../app-module.ts';
import { SECURITY_NOTICE_JOB } from '../../lib/audit.ts';
import type { AuthPluginOptions } from '../../plugins/auth.ts';
import { createTokensService } from '../tokens/index.ts';
import { authRoutes } from './auth.routes.ts';
import { createAuthService } from './auth.service.ts';
import { externalLoginRoutes } from './external-login.routes.ts';
import { createExternalLoginService } from './external-login.service.ts';
import { createSecurityNoticeJob } from './security-notice.ts';
import { smsOutboxRoutes } from './sms-outbox.routes.ts';

export type { AuthUser } from '../../core/auth.ts';
import { createAuthRepository } from './auth.repository.ts';
import { verifyAccessToken } from './auth.tokens.ts';

export { createAuthRepository } from './auth.repository.ts';
export { keyId, keysForToken, verifyAccessToken } from './auth.tokens.ts';
export type { AuthServiceOptions } from '../../core/auth.ts';
export { DEMO_USERNAMES, createDemoAccountsRepository } from './sms-outbox.repository.ts';

/** The password sign-in and the sign-in through an identity provider, over one session store. */
function createSignIn(ctx: AppContext) {
  const auth = createAuthService(ctx.db, ctx.config, ctx.authOptions, {
    sms: ctx.sms,
    log: ctx.log,
    onSessionsChanged: ctx.forgetAuth,
  });
  const external = createExternalLoginService({
    db: ctx.db,
    oidc: ctx.oidc,
    startSession: auth.startSession,
    secondFactor: auth.mfa,
    mfaPolicy: ctx.config.externalLoginMfa,
    log: ctx.log,
  });
  return { auth, external };
}

/** The auth plugin's options: sessions, and the API tokens and OIDC bearer tokens it also takes. */
export function authPluginOptions(ctx: AppContext): AuthPluginOptions {
  const { external } = createSignIn(ctx);
  const tokens = createTokensService(ctx.db);
  const repo = createAuthRepository(ctx.db);
  return {
    loadAuthUser: (userId, sessionId) => repo.loadAuthUser(userId, sessionId),
    verifyAccessToken: (token) =>
      verifyAccessToken(token, ctx.config.jwtSecret, ctx.config.jwtPreviousSecret),
    cache: ctx.authCache,
    verifyApiToken: (token, ip) => tokens.authenticate(token, ip),
    verifyOidcToken: async (token) => {
      const verified = await ctx.oidc.verifyToken(token);
      if (!verified) return null;
      // only accounts already linked or matched: a bare API call never creates one
      const user = await external.resolveUser(verified.claims, verified.provider, false).catch(() => null);
      return user ? { userId: user.id } : null;
    },
  };
}

export const authModule: AppModule = async (app, { ctx }) => {
  const { config } = ctx;
  const { auth, external } = createSignIn(ctx);
  await app.register(authRoutes, {
    prefix: `${API_BASE}/auth`,
    auth,
    ratePerMinute: config.authRateLimitPerMinute,
  });
  await app.register(externalLoginRoutes, {
    prefix: `${API_BASE}/auth`,
    config,
    oidc: ctx.oidc,
    external,
    auth,
    ratePerMinute: config.authRateLimitPerMinute,
  });
  await app.register(smsOutboxRoutes, { db: ctx.db, enabled: config.sms.outbox && !ctx.smsReplaced });
  ctx.jobs.handle(SECURITY_NOTICE_JOB, createSecurityNoticeJob({ db: ctx.db, mailer: ctx.mailer }));
};
