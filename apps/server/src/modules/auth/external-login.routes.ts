import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  API_BASE,
  DetailErrorSchema,
  EXTERNAL_LOGIN_ERRORS,
  FieldErrorsSchema,
  LanguageSchema,
  OidcProviderSchema,
  TicketExchangeRequestSchema,
  TicketExchangeResponseSchema,
  resultsOf,
} from '@soc/contracts';
import { createHash, timingSafeEqual } from 'node:crypto';
import { parseCookie, stringifySetCookie } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../core/config.ts';
import type { OidcProviders } from '../../integrations/oidc/oidc-providers.ts';
import { notFound } from '../../lib/http-errors.ts';
import type { AuthService } from './auth.service.ts';
import type { CallerContext } from './auth.types.ts';
import type { ExternalLoginService } from './external-login.service.ts';
import { ExternalLoginError, newBrowserNonce, safeReturnPath } from './external-login.service.ts';
import { redirectAnswer } from '../../plugins/openapi.ts';

/** The web app's route that exchanges the ticket and loads the user (product §A7). */
export const WEB_CALLBACK_PATH = '/auth/callback';

/**
 * The cookie that binds an OIDC flow and its ticket, or an SSO ticket, to the browser that
 * started the sign-in (login CSRF). Sent only to the sign-in routes, never readable by scripts.
 */
export const LOGIN_COOKIE = 'soc_login';
const LOGIN_COOKIE_PATH = `${API_BASE}/auth/`;
/** Long enough for a sign-in at the provider (the flow state lives 10 minutes). */
const LOGIN_COOKIE_MAX_AGE_S = 10 * 60;

/** Reasons of a refused sign-in that the web app explains; others read "sign-in failed". */
const EXPLAINED: ReadonlySet<string> = new Set(EXTERNAL_LOGIN_ERRORS);

const caller = (request: FastifyRequest): CallerContext => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'] ?? '',
});

const webCallback = (params: Record<string, string>) =>
  `${WEB_CALLBACK_PATH}?${new URLSearchParams(params).toString()}`;

export interface ExternalLoginRoutesOptions {
  config: Config;
  oidc: OidcProviders;
  external: ExternalLoginService;
  auth: AuthService;
  ratePerMinute: number;
}

/** OIDC and SSO sign-in: provider list, start and callback of the code flow, ticket exchange. */
export const externalLoginRoutes: FastifyPluginAsyncZod<ExternalLoginRoutesOptions> = async (
  app,
  { config, oidc, external, auth, ratePerMinute },
) => {
  const rateLimit = { max: ratePerMinute, timeWindow: '1 minute' };
  const origin = (request: FastifyRequest) =>
    config.publicUrl?.replace(/\/$/, '') ?? `${request.protocol}://${request.host}`;
  const callbackUri = (request: FastifyRequest, name: string) =>
    `${origin(request)}${API_BASE}/auth/oidc/${encodeURIComponent(name)}/callback/`;
  const secureCookie = config.publicUrl?.startsWith('https:') ?? false;
  const loginCookie = (request: FastifyRequest): string | undefined =>
    parseCookie(request.headers.cookie ?? '')[LOGIN_COOKIE];
  const setLoginCookie = (reply: FastifyReply, value: string) =>
    reply.header(
      'set-cookie',
      stringifySetCookie({
        name: LOGIN_COOKIE,
        value,
        httpOnly: true,
        sameSite: 'lax',
        secure: secureCookie,
        path: LOGIN_COOKIE_PATH,
        maxAge: value ? LOGIN_COOKIE_MAX_AGE_S : 0,
      }),
    );
  /** A new nonce for this browser, sent as the sign-in cookie. */
  const bindBrowser = (reply: FastifyReply): string => {
    const nonce = newBrowserNonce();
    setLoginCookie(reply, nonce);
    return nonce;
  };
  const providerOr404 = (name: string) => {
    const provider = oidc.byName(name);
    if (!provider) throw notFound();
    return provider;
  };

  app.get(
    '/oidc_providers/',
    {
      config: { public: true },
      schema: {
        operationId: 'listOidcProviders',
        tags: ['auth'],
        summary: 'OIDC identity providers offered on the login screen',
        querystring: z.strictObject({ language: LanguageSchema.optional() }),
        response: { 200: resultsOf(OidcProviderSchema) },
      },
    },
    async () => ({
      results: oidc.list().map((p) => ({
        client_id: p.client_id,
        configuration_url: `${p.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`,
        name: p.name,
      })),
    }),
  );

  app.get(
    '/oidc/:name/start/',
    {
      config: { public: true, rateLimit },
      schema: {
        operationId: 'startOidcLogin',
        tags: ['auth'],
        summary: 'Start signing in with an OIDC provider (redirects to it)',
        params: z.object({ name: z.string().max(100) }),
        querystring: z.object({ next: z.string().max(500).optional() }),
        response: {
          302: redirectAnswer(
            'To the identity provider, or to the web app with a one-time ticket or an error',
          ),
          404: DetailErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const provider = providerOr404(request.params.name);
      try {
        const url = await external.startOidc(
          provider,
          callbackUri(request, provider.name),
          safeReturnPath(request.query.next),
          bindBrowser(reply),
        );
        return reply.header('cache-control', 'no-store').redirect(url.href, 302);
      } catch (error) {
        setLoginCookie(reply, '');
        request.log.warn(
          { provider: provider.name, err: (error as Error).message },
          'OIDC provider unavailable',
        );
        return reply.redirect(webCallback({ error: 'oidc_unavailable' }), 302);
      }
    },
  );

  app.get(
    '/oidc/:name/callback/',
    {
      config: { public: true, rateLimit },
      schema: {
        operationId: 'completeOidcLogin',
        tags: ['auth'],
        summary: 'Redirect target of the OIDC provider; sends the browser on with a one-time ticket',
        params: z.object({ name: z.string().max(100) }),
        response: {
          302: redirectAnswer(
            'To the identity provider, or to the web app with a one-time ticket or an error',
          ),
          404: DetailErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const provider = providerOr404(request.params.name);
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      const url = new URL(`${callbackUri(request, provider.name)}${query}`);
      void reply.header('cache-control', 'no-store');
      try {
        // the cookie stays: the ticket is bound to it as well, and the exchange clears it
        const { ticket, returnTo } = await external.finishOidc(
          provider,
          url,
          loginCookie(request),
          caller(request),
        );
        return reply.redirect(webCallback({ ticket, next: returnTo }), 302);
      } catch (error) {
        if (!(error instanceof ExternalLoginError)) throw error;
        setLoginCookie(reply, '');
        return reply.redirect(
          webCallback({ error: EXPLAINED.has(error.reason) ? error.reason : 'oidc_failed' }),
          302,
        );
      }
    },
  );

  /** The proxy proves itself by the shared secret or by its address (never X-Forwarded-For). */
  const trustedProxy = (request: FastifyRequest): boolean => {
    const { sharedSecret, secretHeader, trustedProxies } = config.sso;
    if (sharedSecret) {
      const presented = request.headers[secretHeader];
      if (typeof presented !== 'string') return false;
      const a = createHash('sha256').update(presented).digest();
      const b = createHash('sha256').update(sharedSecret).digest();
      return timingSafeEqual(a, b);
    }
    const peer = request.socket.remoteAddress ?? '';
    return trustedProxies.includes(peer) || trustedProxies.includes(peer.replace(/^::ffff:/, ''));
  };

  app.get(
    '/sso/',
    {
      config: { public: true, rateLimit },
      schema: {
        operationId: 'completeSsoLogin',
        tags: ['auth'],
        summary: 'Single sign-on callback behind the trusted reverse proxy (redirects with a ticket)',
        querystring: z.object({ next: z.string().max(500).optional() }),
        response: {
          302: redirectAnswer(
            'To the identity provider, or to the web app with a one-time ticket or an error',
          ),
          404: DetailErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const header = config.sso.header;
      if (!header) throw notFound();
      void reply.header('cache-control', 'no-store');
      const identity = request.headers[header];
      if (!trustedProxy(request) || typeof identity !== 'string' || !identity.trim()) {
        request.log.warn({ ip: request.ip }, 'SSO request without a trusted proxy or identity');
        return reply.redirect(webCallback({ error: 'sso_failed' }), 302);
      }
      try {
        const ticket = await external.finishSso(
          identity,
          config.sso.match,
          bindBrowser(reply),
          caller(request),
        );
        return reply.redirect(webCallback({ ticket, next: safeReturnPath(request.query.next) }), 302);
      } catch (error) {
        if (!(error instanceof ExternalLoginError)) throw error;
        setLoginCookie(reply, '');
        return reply.redirect(webCallback({ error: 'no_account' }), 302);
      }
    },
  );

  app.post(
    '/token/ticket/',
    {
      config: { public: true, rateLimit },
      schema: {
        operationId: 'exchangeLoginTicket',
        tags: ['auth'],
        summary: 'Exchange the one-time ticket of an OIDC or SSO sign-in for tokens',
        description:
          'Only in the browser the ticket was issued to: its sign-in cookie (HttpOnly, set when the ' +
          'sign-in started) must come along, else 403. A user whose portal second factor applies ' +
          '(EXTERNAL_LOGIN_MFA=portal) gets `{mfa_token, generate_challenge_timeout, method}` and ' +
          'completes the sign-in at `POST /auth/token/mfa/obtain/`.',
        body: TicketExchangeRequestSchema,
        response: {
          200: TicketExchangeResponseSchema,
          400: FieldErrorsSchema,
          401: DetailErrorSchema,
          403: DetailErrorSchema,
          429: DetailErrorSchema,
          503: FieldErrorsSchema,
        },
      },
    },
    async (request, reply) => {
      const nonce = loginCookie(request);
      // used once, whatever the outcome
      if (nonce !== undefined) setLoginCookie(reply, '');
      return external.exchangeTicket(request.body.ticket, nonce, caller(request), (id) =>
        auth.repo.findUserById(id),
      );
    },
  );
};
