import { z } from 'zod';

const PendingMfaSchema = z.object({
  mfaToken: z.string(),
  method: z.enum(['sms', 'totp']),
  challengeTimeoutSeconds: z.number(),
  /** How the tokens are stored once the code is accepted (OIDC sign-ins send `OIDC {token}`). */
  tokenType: z.enum(['SOCPortal', 'SSO', 'OIDC']),
});

/**
 * A sign-in waiting for its second factor that another screen hands to the login screen: the
 * OIDC/SSO callback, when the portal's second factor applies after the provider
 * (EXTERNAL_LOGIN_MFA=portal). Travels in the router's location state.
 */
export type PendingMfa = z.infer<typeof PendingMfaSchema>;

const LocationStateSchema = z.object({ pendingMfa: PendingMfaSchema });

/** The location state that hands `pendingMfa` to the login screen. */
export const pendingMfaState = (pendingMfa: PendingMfa) => ({ pendingMfa });

/** The pending second factor in a location state, if it carries one. */
export const pendingMfaFrom = (state: unknown): PendingMfa | null =>
  LocationStateSchema.safeParse(state).data?.pendingMfa ?? null;
