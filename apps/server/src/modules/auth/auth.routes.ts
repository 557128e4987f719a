import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CurrentUserSchema,
  DetailErrorSchema,
  DetailSchema,
  FieldErrorsSchema,
  LogoutRequestSchema,
  MfaChallengeRequestSchema,
  MfaChallengeTooEarlySchema,
  MfaCodeSentSchema,
  MfaObtainRequestSchema,
  MfaPendingSchema,
  MfaStatusSchema,
  TotpConfirmRequestSchema,
  TotpDisableRequestSchema,
  TotpSetupRequestSchema,
  TotpSetupResponseSchema,
  PasswordChangeRequestSchema,
  TokenObtainRequestSchema,
  TokenObtainResponseSchema,
  TokenPairSchema,
  TokenRefreshRequestSchema,
} from '@soc/contracts';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { unauthorized } from '../../lib/http-errors.ts';
import { msg } from '../../lib/messages.ts';
import { requestLanguage } from '../../plugins/auth.ts';
import { requireAuth } from '../../lib/request-auth.ts';
import { presentCurrentUser } from './auth.presenter.ts';
import type { AuthService } from './auth.service.ts';
import type { CallerContext } from './auth.types.ts';

const caller = (request: FastifyRequest): CallerContext => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'] ?? '',
  lang: requestLanguage(request),
});

export const authRoutes: FastifyPluginAsyncZod<{ auth: AuthService; ratePerMinute: number }> = async (
  app,
  { auth, ratePerMinute },
) => {
  /** Per-IP request ceiling on the credential endpoints, on top of the failure lock. */
  const credentialRateLimit = { max: ratePerMinute, timeWindow: '1 minute' };

  app.post(
    '/token/obtain/',
    {
      config: { public: true, rateLimit: credentialRateLimit },
      schema: {
        operationId: 'obtainToken',
        tags: ['auth'],
        summary: 'Sign in with username and password',
        body: TokenObtainRequestSchema,
        response: {
          200: TokenObtainResponseSchema,
          400: FieldErrorsSchema,
          401: DetailErrorSchema.extend({ code: z.literal('temporary_password_expired').optional() }),
          429: DetailErrorSchema,
          503: FieldErrorsSchema,
        },
      },
    },
    async (request) => auth.obtain(request.body, caller(request)),
  );

  app.post(
    '/token/mfa/obtain/',
    {
      config: { public: true, rateLimit: credentialRateLimit },
      schema: {
        operationId: 'obtainTokenWithMfa',
        tags: ['auth'],
        summary: 'Complete a sign-in with the second-factor code',
        description:
          'A wrong code answers 400 under `otp`; an unknown, used, expired or locked (5 wrong codes) ' +
          'mfa_token answers 400 under `mfa_token`, and the client must sign in again.',
        body: MfaObtainRequestSchema,
        response: {
          200: TokenPairSchema,
          400: FieldErrorsSchema,
          429: DetailErrorSchema,
        },
      },
    },
    async (request) => auth.mfa.obtain(request.body.mfa_token, request.body.otp, caller(request)),
  );

  app.post(
    '/token/mfa/generate_challenge/',
    {
      config: { public: true, rateLimit: credentialRateLimit },
      schema: {
        operationId: 'generateMfaChallenge',
        tags: ['auth'],
        summary: 'Send a new second-factor code once the resend timeout has passed',
        body: MfaChallengeRequestSchema,
        response: {
          200: MfaPendingSchema,
          400: FieldErrorsSchema,
          429: MfaChallengeTooEarlySchema.or(DetailErrorSchema),
          503: FieldErrorsSchema,
        },
      },
    },
    async (request) => auth.mfa.resend(request.body.mfa_token, caller(request)),
  );

  app.post(
    '/token/refresh/',
    {
      config: { public: true, rateLimit: credentialRateLimit },
      schema: {
        operationId: 'refreshToken',
        tags: ['auth'],
        summary: 'Exchange a refresh token for a new token pair (rotation)',
        body: TokenRefreshRequestSchema,
        response: { 200: TokenPairSchema, 400: FieldErrorsSchema, 401: DetailErrorSchema },
      },
    },
    async (request) => auth.refresh(request.body.refresh, caller(request)),
  );

  app.post(
    '/logout/',
    {
      config: { public: true, duringPasswordChange: true },
      schema: {
        operationId: 'logout',
        tags: ['auth'],
        summary: 'End the session of a refresh token',
        body: LogoutRequestSchema,
        response: { 200: DetailSchema, 400: FieldErrorsSchema },
      },
    },
    async (request) => {
      await auth.logout(request.body.refresh, caller(request));
      return { detail: msg('loggedOut').in(requestLanguage(request)) };
    },
  );

  app.get(
    '/user/',
    {
      config: { duringPasswordChange: true },
      schema: {
        operationId: 'getCurrentUser',
        tags: ['auth'],
        summary: 'The signed-in user',
        response: { 200: CurrentUserSchema, 401: DetailErrorSchema },
      },
    },
    async (request) => {
      const user = await auth.repo.findUserById(requireAuth(request).userId);
      if (!user) throw unauthorized();
      return presentCurrentUser(user);
    },
  );

  app.put(
    '/password_change/',
    {
      config: { rateLimit: credentialRateLimit, duringPasswordChange: true },
      schema: {
        operationId: 'changePassword',
        tags: ['auth'],
        summary: 'Change the password of the signed-in user',
        body: PasswordChangeRequestSchema,
        response: { 200: DetailSchema, 400: FieldErrorsSchema, 401: DetailErrorSchema },
      },
    },
    async (request) => {
      const me = requireAuth(request);
      await auth.changePassword(me.userId, me.sessionId, request.body, caller(request));
      return { detail: msg('passwordChanged').in(requestLanguage(request)) };
    },
  );

  /** The signed-in user's row (the hook has already checked the session). */
  const me = async (request: FastifyRequest) => {
    const user = await auth.repo.findUserById(requireAuth(request).userId);
    if (!user) throw unauthorized();
    return user;
  };

  app.get(
    '/mfa/',
    {
      schema: {
        operationId: 'getMfa',
        tags: ['auth'],
        summary: 'Second factors of the signed-in user',
        response: { 200: MfaStatusSchema, 401: DetailErrorSchema },
      },
    },
    async (request) => auth.mfa.status(await me(request)),
  );

  app.post(
    '/mfa/code/',
    {
      config: { rateLimit: credentialRateLimit },
      schema: {
        operationId: 'sendMfaChangeCode',
        tags: ['auth'],
        summary: 'Send an SMS code that confirms a change of second factors (SMS factor on)',
        response: {
          200: MfaCodeSentSchema,
          400: FieldErrorsSchema,
          401: DetailErrorSchema,
          429: DetailErrorSchema,
          503: FieldErrorsSchema,
        },
      },
    },
    async (request) => auth.mfa.sendChangeCode(await me(request), caller(request)),
  );

  app.post(
    '/mfa/totp/setup/',
    {
      config: { rateLimit: credentialRateLimit },
      schema: {
        operationId: 'setupTotp',
        tags: ['auth'],
        summary: 'Start enrolling or replacing an authenticator app: a new secret, active once confirmed',
        description:
          "Needs the password and, while a second factor is on, its current code (`otp`: the app's, " +
          'or an SMS code from `POST /auth/mfa/code/`). A wrong one answers 403 and counts towards ' +
          'the sign-in lock. An app already on stays on until the new one is confirmed.',
        body: TotpSetupRequestSchema,
        response: {
          200: TotpSetupResponseSchema,
          400: DetailErrorSchema.or(FieldErrorsSchema),
          401: DetailErrorSchema,
          403: DetailErrorSchema,
          429: DetailErrorSchema,
        },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return auth.mfa.setupTotp(await me(request), request.body, caller(request), requestLanguage(request));
    },
  );

  app.post(
    '/mfa/totp/confirm/',
    {
      config: { rateLimit: credentialRateLimit },
      schema: {
        operationId: 'confirmTotp',
        tags: ['auth'],
        summary: 'Confirm the authenticator app with a code it shows; it then replaces the SMS',
        body: TotpConfirmRequestSchema,
        response: { 200: MfaStatusSchema, 400: FieldErrorsSchema, 401: DetailErrorSchema },
      },
    },
    async (request) => {
      const user = await me(request);
      await auth.mfa.confirmTotp(user, request.body.otp, caller(request));
      return auth.mfa.status(await me(request));
    },
  );

  app.post(
    '/mfa/totp/disable/',
    {
      config: { rateLimit: credentialRateLimit },
      schema: {
        operationId: 'disableTotp',
        tags: ['auth'],
        summary: 'Turn the authenticator app off (needs the password and its current code)',
        body: TotpDisableRequestSchema,
        response: {
          200: MfaStatusSchema,
          400: DetailErrorSchema.or(FieldErrorsSchema),
          401: DetailErrorSchema,
          403: DetailErrorSchema,
          429: DetailErrorSchema,
        },
      },
    },
    async (request) => {
      await auth.mfa.disableTotp(await me(request), request.body, caller(request), requestLanguage(request));
      return auth.mfa.status(await me(request));
    },
  );
};
