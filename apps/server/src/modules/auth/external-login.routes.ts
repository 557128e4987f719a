import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  API_BASE,
  DetailErrorSchema,
  FieldErrorsSchema,
  OidcProviderSchema,
  TicketExchangeRequestSchema,
  TicketExchangeResponseSchema,
  resultsOf,
} from '@soc/contracts';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { OidcProviders } from '../../integrations/oidc/oidc-providers.ts';
import { notFound } from '../../lib/http-errors.ts';
import type { AuthService, CallerContext } from './auth.service.ts';
import type { ExternalLoginService } from './external-login.service.ts';
import { ExternalLoginError, safeReturnPath } from './external-login.service.ts';

/** The web app's route that exchanges the ticket and loads the user (spec 000 §7). */
export const WEB_CALLBACK_PATH = '/auth/callback';

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
        tags: ['auth'],
        summary: 'OIDC identity providers offered on the login screen',
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
        tags: ['auth'],
        summary: 'Start signing in with an OIDC provider (redirects to it)',
        params: z.object({ name: z.string().max(100) }),
        querystring: z.object({ next: z.string().max(500).optional() }),
        response: { 404: DetailErrorSchema },
      },
    },
    async (request, reply) => {
      const provider = providerOr404(request.params.name);
      try {
        const url = await external.startOidc(
          provider,
          callbackUri(request, provider.name),
          safeReturnPath(request.query.next),
        );
        return reply.header('cache-control', 'no-store').redirect(url.href, 302);
      } catch (error) {
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
        tags: ['auth'],
        summary: 'Redirect target of the OIDC provider; sends the browser on with a one-time ticket',
        params: z.object({ name: z.string().max(100) }),
        response: { 404: DetailErrorSchema },
      },
    },
    async (request, reply) => {
      const provider = providerOr404(request.params.name);
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      const url = new URL(`${callbackUri(request, provider.name)}${query}`);
      void reply.header('cache-control', 'no-store');
      try {
        const { ticket, returnTo } = await external.finishOidc(provider, url, caller(request));
        return reply.redirect(webCallback({ ticket, next: returnTo }), 302);
      } catch (error) {
        if (!(error instanceof ExternalLoginError)) throw error;
        return reply.redirect(
          webCallback({ error: error.reason === 'no_account' ? 'no_account' : 'oidc_failed' }),
          302,
        );
      }
    },
  );

  app.post(
    '/token/ticket/',
    {
      config: { public: true, rateLimit },
      schema: {
        tags: ['auth'],
        summary: 'Exchange the one-time ticket of an OIDC or SSO sign-in for tokens',
        body: TicketExchangeRequestSchema,
        response: { 200: TicketExchangeResponseSchema, 400: FieldErrorsSchema, 401: DetailErrorSchema },
      },
    },
    async (request) =>
      external.exchangeTicket(request.body.ticket, caller(request), (id) => auth.repo.findUserById(id)),
  );
};
