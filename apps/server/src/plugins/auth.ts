import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { API_BASE, API_TOKEN_PREFIX, TEMPORARY_PASSWORD_MESSAGES } from '@soc/contracts';
import type { Language } from '@soc/contracts';
import type { AuthCache, AuthContext, AuthUser } from '../core/auth.ts';
import { HttpError, forbidden } from '../lib/http-errors.ts';
import type { Message } from '../lib/messages.ts';
import { fromTable, msg } from '../lib/messages.ts';

/**
 * Every route requires a valid access token unless its config says `public: true`.
 * The user is re-read on each request (or taken from the auth cache, which every committed change
 * empties) so that a deactivated account or an ended session stops working at once.
 */
export interface AuthPluginOptions {
  /** The session check: the user of a session (null: an OIDC caller, who has none), read from the database. */
  loadAuthUser: (userId: number, sessionId: string | null) => Promise<AuthUser | undefined>;
  /** The claims of a portal access token signed with the current or the previous key, or null. */
  verifyAccessToken: (token: string) => Promise<{ userId: number; sessionId: string | null } | null>;
  /**
   * Resolves a token issued by a configured OIDC provider (signature against its JWKS, issuer,
   * audience, expiry) to the linked portal user, or null.
   */
  verifyOidcToken?: (token: string) => Promise<{ userId: number } | null>;
  /** Resolves an API token (`socp_…`) to its credentials, or null when it is not usable. */
  verifyApiToken?: (token: string, ip: string) => Promise<AuthContext | null>;
  /** Recent answers of the session check, kept exact by notifications (absent: read on every request). */
  cache?: AuthCache;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Tells clients which schemes the API takes (product §A7: OIDC tokens with a realm). */
const WWW_AUTHENTICATE = 'Bearer realm="api", OIDC realm="api"';
const refuse = (detail: Message = msg('invalidToken')) =>
  new HttpError(401, detail, undefined, { 'www-authenticate': WWW_AUTHENTICATE });

/** Until an administrator's temporary password is changed, only routes marked for it answer. */
function refuseDuringPasswordChange(request: FastifyRequest, user: AuthUser): void {
  if (user.mustChangePassword && !request.routeOptions.config.duringPasswordChange) {
    throw forbidden(fromTable(TEMPORARY_PASSWORD_MESSAGES, 'mustChange'));
  }
}

/**
 * Every route requires a valid token unless its config says `public: true` (deny by default):
 * `Bearer <portal access token>`, or `OIDC <token>` for OIDC sign-ins, where the token is the
 * portal access token of an OIDC sign-in or a JWT issued by a configured provider. The user is
 * re-read on each request, or taken from `cache` (see auth-cache.ts), so that a deactivated account
 * or an ended session stops working at once.
 */
export const authPlugin = fp(async (app: FastifyInstance, opts: AuthPluginOptions) => {
  const { cache, loadAuthUser } = opts;
  const loadUser = (userId: number, sessionId: string | null) =>
    cache
      ? cache.load(userId, sessionId, () => loadAuthUser(userId, sessionId))
      : loadAuthUser(userId, sessionId);
  app.decorateRequest('auth', null);
  app.addHook('onSend', async (request, reply) => {
    // a shared cache or the browser's history must never keep a caller's data (issue 25, item 17)
    const declared = String(reply.getHeader('cache-control') ?? '');
    if (request.is404 || /\b(no-store|private)\b/.test(declared)) return;
    const publicRoute = request.routeOptions.config.public === true;
    // a public route may choose its own caching (the portal's settings, the app's files)
    if (publicRoute && (declared || !request.routeOptions.url?.startsWith(`${API_BASE}/`))) return;
    void reply.header('cache-control', 'no-store');
  });
  app.addHook('onRequest', async (request) => {
    // decided on the route the router matched, never on the URL text: the router decodes and
    // normalises the path, so a prefix test on the raw URL misses `/%61pi/…` (issue 25)
    if (isPublicRoute(request)) return;
    const header = request.headers.authorization;
    if (!header) throw refuse(msg('notAuthenticated'));
    const [scheme, token, extra] = header.split(' ');
    if ((scheme !== 'Bearer' && scheme !== 'OIDC') || !token || extra !== undefined) throw refuse();

    if (scheme === 'Bearer' && token.startsWith(API_TOKEN_PREFIX) && opts.verifyApiToken) {
      // revoked, expired and deactivated-user tokens are refused here, on every request
      const credential = await opts.verifyApiToken(token, request.ip);
      if (!credential) throw refuse();
      if (credential.readOnly && !SAFE_METHODS.has(request.method)) throw forbidden(msg('readOnlyToken'));
      request.auth = credential;
      return;
    }

    const claims = await opts.verifyAccessToken(token);
    if (claims) {
      const user = await loadUser(claims.userId, claims.sessionId);
      if (!user?.isActive || !user.sessionAlive) throw refuse();
      refuseDuringPasswordChange(request, user);
      request.auth = {
        userId: user.id,
        username: user.username,
        role: user.role,
        sessionId: claims.sessionId,
        // a copy: the cached answer is shared by the requests of the session
        systemIds: [...user.systemIds],
      };
      return;
    }
    if (scheme !== 'OIDC' || !opts.verifyOidcToken) throw refuse();
    const identity = await opts.verifyOidcToken(token);
    // an IdP token has no portal session: its own expiry bounds it
    const user = identity ? await loadUser(identity.userId, null) : undefined;
    if (!user?.isActive) throw refuse();
    // no gate for the administrator's temporary password: the provider, not a password, signed in
    request.auth = {
      userId: user.id,
      username: user.username,
      role: user.role,
      sessionId: null,
      systemIds: [...user.systemIds],
    };
  });
});

/**
 * The request reached a route declared `public: true`, or no route at all (the not-found
 * handler answers 404 without looking at credentials).
 */
export const isPublicRoute = (request: FastifyRequest): boolean =>
  request.is404 || request.routeOptions.config.public === true;

/** An `onRoute` hook that declares every route of its scope reachable without signing in. */
export const declarePublic = (route: RouteOptions): void => {
  route.config = { ...route.config, public: true };
};

const LANGUAGES: readonly Language[] = ['ru', 'en'];
const isLanguage = (value: unknown): value is Language => LANGUAGES.includes(value as Language);

/**
 * The first supported language of an Accept-Language header by its q-values (`en-GB;q=0.8,
 * ru;q=0.9` is Russian); undefined when it names none of ours.
 */
export function acceptedLanguage(header: string | undefined): Language | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [range = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p)?.[1]).find(Boolean);
      return { primary: range.trim().toLowerCase().split('-')[0], q: q === undefined ? 1 : Number(q), index };
    })
    .filter((r) => r.q > 0 && isLanguage(r.primary))
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked[0]?.primary as Language | undefined;
}

/**
 * The caller's language, for localised titles and every message the server sends to be read:
 * `explicit` (a route's parsed `language`), else the query's `?language=`, else Accept-Language,
 * else Russian.
 */
export function requestLanguage(request: FastifyRequest, explicit?: Language): Language {
  if (explicit) return explicit;
  const query: unknown = request.query;
  const asked = query && typeof query === 'object' ? (query as { language?: unknown }).language : undefined;
  if (isLanguage(asked)) return asked;
  const header = request.headers['accept-language'];
  return acceptedLanguage(typeof header === 'string' ? header : undefined) ?? 'ru';
}
