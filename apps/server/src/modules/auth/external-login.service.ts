import { createHash, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { TokenPair } from '@soc/contracts';
import type { OidcProviderConfig } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { IdentityClaims, OidcProviders } from '../../integrations/oidc/oidc-providers.ts';
import { audit } from '../../lib/audit.ts';
import { HttpError } from '../../lib/http-errors.ts';
import { hashPassword } from '../../lib/passwords.ts';
import type { UserRow } from './auth.repository.ts';
import type { CallerContext } from './auth.service.ts';
import { createExternalLoginRepository } from './external-login.repository.ts';

/** An authorization-code flow must come back within this time. */
const FLOW_TTL_MS = 10 * 60_000;
/** The web app exchanges its one-time ticket right after the redirect. */
const TICKET_TTL_MS = 60_000;

export const INVALID_TICKET = 'The sign-in link is invalid or has expired. Please sign in again.';

const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

/** Why an external sign-in was refused (audited; the browser only learns that it failed). */
export class ExternalLoginError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'ExternalLoginError';
  }
}

/** Only a portal path may follow a sign-in: never another origin. */
export const safeReturnPath = (value: unknown): string =>
  typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') && !value.includes('\\')
    ? value.slice(0, 500)
    : '/';

export interface ExternalLoginDeps {
  db: Db;
  oidc: OidcProviders;
  startSession: (user: UserRow, ctx: CallerContext) => Promise<TokenPair>;
  log?: FastifyBaseLogger;
}

/**
 * Sign-in through an OIDC provider (authorization code + PKCE, state, nonce) or the trusted
 * SSO proxy. Both end with a one-time ticket that the web app exchanges for portal tokens, so
 * that no token ever travels in a URL.
 */
export function createExternalLoginService({ db, oidc, startSession, log }: ExternalLoginDeps) {
  const repo = createExternalLoginRepository(db);

  async function uniqueUsername(claims: IdentityClaims, provider: OidcProviderConfig): Promise<string> {
    const base = (
      claims.preferredUsername ??
      claims.email?.split('@')[0] ??
      `${provider.name}-${claims.subject}`
    )
      .toLowerCase()
      .replace(/[^a-z0-9._-]/g, '-')
      .slice(0, 100);
    for (let n = 0; n < 50; n++) {
      const candidate = n === 0 ? base : `${base}-${n + 1}`;
      if (!(await repo.usernameTaken(candidate))) return candidate;
    }
    throw new ExternalLoginError('no_free_username');
  }

  return {
    /**
     * The portal user of an external identity: an earlier link by issuer and subject, else
     * (when the provider allows it) the one user with the same verified e-mail, else a new
     * customer account where `auto_create` is on. The found link is remembered.
     */
    async resolveUser(
      claims: IdentityClaims,
      provider: OidcProviderConfig,
      allowCreate = true,
    ): Promise<UserRow> {
      const linked = await repo.findUserByIdentity(claims.issuer, claims.subject);
      if (linked) {
        if (!linked.isActive) throw new ExternalLoginError('inactive');
        return linked;
      }
      let user: UserRow | undefined;
      if (provider.match === 'email' && claims.email && claims.emailVerified) {
        const matches = await repo.findUsersByEmail(claims.email);
        if (matches.length > 1) throw new ExternalLoginError('ambiguous_email');
        user = matches[0];
      }
      if (!user && provider.auto_create && allowCreate) {
        user = await repo.insertUser({
          username: await uniqueUsername(claims, provider),
          email: claims.email ?? '',
          firstName: claims.givenName,
          lastName: claims.familyName,
          // no password sign-in for such an account: nobody knows this one
          passwordHash: await hashPassword(randomBytes(32).toString('base64url')),
          role: 'customer',
        });
        log?.info({ userId: user.id, provider: provider.name }, 'account created on first OIDC sign-in');
      }
      if (!user) throw new ExternalLoginError('no_account');
      if (!user.isActive) throw new ExternalLoginError('inactive');
      await repo.linkIdentity(user.id, claims.issuer, claims.subject);
      return user;
    },

    /** Starts the authorization-code flow: the URL to send the browser to. */
    async startOidc(provider: OidcProviderConfig, redirectUri: string, returnTo: string): Promise<URL> {
      const request = await oidc.authorizationRequest(provider, redirectUri);
      await repo.insertState({
        stateHash: sha256(request.state),
        provider: provider.name,
        nonce: request.nonce,
        codeVerifier: request.codeVerifier,
        returnTo: safeReturnPath(returnTo),
        expiresAt: new Date(Date.now() + FLOW_TTL_MS),
      });
      return request.url;
    },

    /** Completes the flow at the callback; returns a ticket and where to go afterwards. */
    async finishOidc(
      provider: OidcProviderConfig,
      callbackUrl: URL,
      ctx: CallerContext,
    ): Promise<{ ticket: string; returnTo: string }> {
      try {
        const state = callbackUrl.searchParams.get('state');
        const flow = state ? await repo.takeState(sha256(state)) : undefined;
        if (!state || !flow || flow.provider !== provider.name) throw new ExternalLoginError('unknown_state');
        if (callbackUrl.searchParams.has('error')) throw new ExternalLoginError('idp_error');
        let claims: IdentityClaims;
        try {
          claims = await oidc.completeAuthorization(provider, callbackUrl, {
            state,
            nonce: flow.nonce,
            codeVerifier: flow.codeVerifier,
          });
        } catch (error) {
          log?.warn({ provider: provider.name, err: (error as Error).message }, 'OIDC code exchange refused');
          throw new ExternalLoginError('token_exchange');
        }
        const user = await this.resolveUser(claims, provider);
        await audit(db, {
          userId: user.id,
          action: 'auth.login',
          objectType: 'user',
          objectId: user.id,
          ip: ctx.ip,
          userAgent: ctx.userAgent,
          details: { method: 'oidc', provider: provider.name },
        });
        return { ticket: await this.issueTicket(user, 'OIDC'), returnTo: flow.returnTo };
      } catch (error) {
        if (!(error instanceof ExternalLoginError)) throw error;
        await audit(db, {
          userId: null,
          action: 'auth.login_failed',
          objectType: 'user',
          ip: ctx.ip,
          userAgent: ctx.userAgent,
          details: { method: 'oidc', provider: provider.name, reason: error.reason },
        });
        throw error;
      }
    },

    /**
     * Single sign-on behind the trusted reverse proxy: the proxy has authenticated the user and
     * names them (username or e-mail) in a header. Only existing, active accounts sign in.
     */
    async finishSso(identity: string, match: 'username' | 'email', ctx: CallerContext): Promise<string> {
      const value = identity.trim();
      const candidates =
        match === 'email' ? await repo.findUsersByEmail(value) : await repo.findUsersByUsername(value);
      const user = candidates.length === 1 ? candidates[0] : undefined;
      if (!user?.isActive) {
        await audit(db, {
          userId: null,
          action: 'auth.login_failed',
          objectType: 'user',
          ip: ctx.ip,
          userAgent: ctx.userAgent,
          details: { method: 'sso', identity: value.slice(0, 150), reason: user ? 'inactive' : 'no_account' },
        });
        throw new ExternalLoginError('no_account');
      }
      await audit(db, {
        userId: user.id,
        action: 'auth.login',
        objectType: 'user',
        objectId: user.id,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        details: { method: 'sso' },
      });
      return this.issueTicket(user, 'SSO');
    },

    async issueTicket(user: UserRow, kind: 'OIDC' | 'SSO'): Promise<string> {
      const ticket = randomBytes(32).toString('base64url');
      await repo.insertTicket({
        ticketHash: sha256(ticket),
        userId: user.id,
        kind,
        expiresAt: new Date(Date.now() + TICKET_TTL_MS),
      });
      return ticket;
    },

    /** Exchanges a one-time ticket for a portal session. */
    async exchangeTicket(
      ticket: string,
      ctx: CallerContext,
      loadUser: (id: number) => Promise<UserRow | undefined>,
    ): Promise<TokenPair & { token_type: 'OIDC' | 'SSO' }> {
      const row = await repo.takeTicket(sha256(ticket));
      const user = row ? await loadUser(row.userId) : undefined;
      if (!row || !user?.isActive) throw new HttpError(401, INVALID_TICKET);
      return { ...(await startSession(user, ctx)), token_type: row.kind };
    },
  };
}

export type ExternalLoginService = ReturnType<typeof createExternalLoginService>;
