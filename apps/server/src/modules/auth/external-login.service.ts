import { createHash, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { MfaPending, TokenPair } from '@soc/contracts';
import { EXTERNAL_LOGIN_MESSAGES } from '@soc/contracts';
import type { ExternalLoginMfa, OidcProviderConfig } from '../../core/config.ts';
import type { Db } from '../../db/client.ts';
import type { IdentityClaims, OidcProviders } from '../../integrations/oidc/oidc-providers.ts';
import { audit } from '../../lib/audit.ts';
import { HttpError } from '../../lib/http-errors.ts';
import { msg } from '../../lib/messages.ts';
import { NO_PASSWORD, hasUsablePassword } from '../../lib/passwords.ts';
import type { UserRow } from './auth.repository.ts';
import type { CallerContext } from './auth.types.ts';
import { createExternalLoginRepository } from './external-login.repository.ts';

/** An authorization-code flow must come back within this time. */
const FLOW_TTL_MS = 10 * 60_000;
/** The web app exchanges its one-time ticket right after the redirect. */
const TICKET_TTL_MS = 60_000;

const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

/** A new random value for the sign-in cookie of the browser that starts a flow. */
export const newBrowserNonce = (): string => randomBytes(32).toString('base64url');

/** The stored hash of a browser nonce matches the cookie the browser sent (if any). */
const sameBrowser = (storedHash: string, nonce: string | undefined): boolean =>
  typeof nonce === 'string' && nonce.length > 0 && sha256(nonce) === storedHash;

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
  /** The portal's second factor (the pending sign-in of the password flow). */
  secondFactor: {
    requiresSecondFactor: (user: UserRow) => boolean;
    start: (user: UserRow, ctx: CallerContext) => Promise<MfaPending>;
  };
  /** `portal`: a user with a portal second factor completes it after OIDC/SSO; `idp`: the IdP's MFA is relied on. */
  mfaPolicy: ExternalLoginMfa;
  log?: FastifyBaseLogger;
}

type TicketKind = 'OIDC' | 'SSO';

/**
 * Sign-in through an OIDC provider (authorization code + PKCE, state, nonce) or the trusted
 * SSO proxy. Both end with a one-time ticket that the web app exchanges for portal tokens, so
 * that no token ever travels in a URL.
 */
export function createExternalLoginService({
  db,
  oidc,
  startSession,
  secondFactor,
  mfaPolicy,
  log,
}: ExternalLoginDeps) {
  const repo = createExternalLoginRepository(db);

  /** Records a refused external sign-in (never the ticket, state or any token). */
  const auditRefusal = (ctx: CallerContext, details: Record<string, unknown>) =>
    audit(db, {
      userId: null,
      action: 'auth.login_failed',
      objectType: 'user',
      ip: ctx.ip,
      userAgent: ctx.userAgent,
      details,
    });

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
     *
     * Matching by e-mail and creating an account both need `email_verified: true` from the
     * provider; an account with a portal password of its own is never linked by e-mail, nor
     * is a second account created with its e-mail: whoever controls an identity at some
     * provider must not take over a local account that way (issue 25, item 14).
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
      const byEmail = provider.match === 'email' || (provider.auto_create && allowCreate);
      if (!byEmail) throw new ExternalLoginError('no_account');
      if (!claims.email || !claims.emailVerified) throw new ExternalLoginError('email_unverified');
      const matches = await repo.findUsersByEmail(claims.email);
      if (matches.length > 1) throw new ExternalLoginError('ambiguous_email');
      let user = matches[0];
      if (user && (provider.match !== 'email' || hasUsablePassword(user.passwordHash))) {
        throw new ExternalLoginError('email_taken');
      }
      if (!user && provider.auto_create && allowCreate) {
        user = await repo.insertUser({
          username: await uniqueUsername(claims, provider),
          email: claims.email,
          firstName: claims.givenName,
          lastName: claims.familyName,
          passwordHash: NO_PASSWORD,
          role: 'customer',
        });
        log?.info({ userId: user.id, provider: provider.name }, 'account created on first OIDC sign-in');
      }
      if (!user) throw new ExternalLoginError('no_account');
      if (!user.isActive) throw new ExternalLoginError('inactive');
      await repo.linkIdentity(user.id, claims.issuer, claims.subject);
      return user;
    },

    /**
     * Starts the authorization-code flow: the URL to send the browser to. The state is bound
     * to `browserNonce`, the value of the sign-in cookie set on this browser (login CSRF).
     */
    async startOidc(
      provider: OidcProviderConfig,
      redirectUri: string,
      returnTo: string,
      browserNonce: string,
    ): Promise<URL> {
      const request = await oidc.authorizationRequest(provider, redirectUri);
      await repo.insertState({
        stateHash: sha256(request.state),
        provider: provider.name,
        nonce: request.nonce,
        codeVerifier: request.codeVerifier,
        returnTo: safeReturnPath(returnTo),
        browserHash: sha256(browserNonce),
        expiresAt: new Date(Date.now() + FLOW_TTL_MS),
      });
      return request.url;
    },

    /**
     * Completes the flow at the callback; returns a ticket (bound to the same browser) and where
     * to go afterwards. A callback from another browser than the one that started the flow
     * (no sign-in cookie, or another one) is refused: an attacker cannot sign a victim in to
     * the attacker's account by sending them the attacker's callback link.
     */
    async finishOidc(
      provider: OidcProviderConfig,
      callbackUrl: URL,
      browserNonce: string | undefined,
      ctx: CallerContext,
    ): Promise<{ ticket: string; returnTo: string }> {
      try {
        const state = callbackUrl.searchParams.get('state');
        const flow = state ? await repo.takeState(sha256(state)) : undefined;
        if (!state || !flow || flow.provider !== provider.name) throw new ExternalLoginError('unknown_state');
        if (!sameBrowser(flow.browserHash, browserNonce)) throw new ExternalLoginError('other_browser');
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
          details: { method: 'oidc', provider: provider.name, ...this.pendingFactor(user) },
        });
        return { ticket: await this.issueTicket(user, 'OIDC', flow.browserHash), returnTo: flow.returnTo };
      } catch (error) {
        if (!(error instanceof ExternalLoginError)) throw error;
        await auditRefusal(ctx, { method: 'oidc', provider: provider.name, reason: error.reason });
        throw error;
      }
    },

    /**
     * Single sign-on behind the trusted reverse proxy: the proxy has authenticated the user and
     * names them (username or e-mail) in a header. Only existing, active accounts sign in.
     */
    async finishSso(
      identity: string,
      match: 'username' | 'email',
      browserNonce: string,
      ctx: CallerContext,
    ): Promise<string> {
      const value = identity.trim();
      const candidates =
        match === 'email' ? await repo.findUsersByEmail(value) : await repo.findUsersByUsername(value);
      const user = candidates.length === 1 ? candidates[0] : undefined;
      if (!user?.isActive) {
        await auditRefusal(ctx, {
          method: 'sso',
          identity: value.slice(0, 150),
          reason: user ? 'inactive' : 'no_account',
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
        details: { method: 'sso', ...this.pendingFactor(user) },
      });
      return this.issueTicket(user, 'SSO', sha256(browserNonce));
    },

    /** Audit detail of a sign-in that still needs the portal's second factor. */
    pendingFactor(user: UserRow): { second_factor?: 'pending' } {
      return mfaPolicy === 'portal' && secondFactor.requiresSecondFactor(user)
        ? { second_factor: 'pending' }
        : {};
    },

    async issueTicket(user: UserRow, kind: TicketKind, browserHash: string): Promise<string> {
      const ticket = randomBytes(32).toString('base64url');
      await repo.insertTicket({
        ticketHash: sha256(ticket),
        userId: user.id,
        kind,
        browserHash,
        expiresAt: new Date(Date.now() + TICKET_TTL_MS),
      });
      return ticket;
    },

    /**
     * Exchanges a one-time ticket for a portal session, only in the browser it was issued to.
     * Where the portal's second factor applies (EXTERNAL_LOGIN_MFA=portal and the user has
     * one), the answer is the pending sign-in of the password flow instead of tokens.
     */
    async exchangeTicket(
      ticket: string,
      browserNonce: string | undefined,
      ctx: CallerContext,
      loadUser: (id: number) => Promise<UserRow | undefined>,
    ): Promise<(TokenPair | MfaPending) & { token_type: TicketKind }> {
      const row = await repo.takeTicket(sha256(ticket));
      if (row && !sameBrowser(row.browserHash, browserNonce)) {
        await auditRefusal(ctx, { method: row.kind.toLowerCase(), reason: 'other_browser' });
        throw new HttpError(403, EXTERNAL_LOGIN_MESSAGES.otherBrowser);
      }
      const user = row ? await loadUser(row.userId) : undefined;
      if (!row || !user?.isActive) throw new HttpError(401, msg('signInLinkInvalid'));
      // the provider vouched for the user, who never needs the administrator's temporary password:
      // it ends here rather than lock the session on a change screen it cannot pass (issue 25)
      if (await repo.voidTemporaryPassword(user.id, NO_PASSWORD)) {
        await audit(db, {
          userId: user.id,
          action: 'auth.temporary_password_void',
          objectType: 'user',
          objectId: user.id,
          ip: ctx.ip,
          userAgent: ctx.userAgent,
          details: { method: row.kind.toLowerCase() },
        });
      }
      if (this.pendingFactor(user).second_factor) {
        return { ...(await secondFactor.start(user, ctx)), token_type: row.kind };
      }
      return { ...(await startSession(user, ctx)), token_type: row.kind };
    },
  };
}

export type ExternalLoginService = ReturnType<typeof createExternalLoginService>;
