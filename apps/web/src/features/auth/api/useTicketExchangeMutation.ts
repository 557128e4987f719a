import { TicketExchangeResponseSchema } from '@soc/contracts';
import { apiRequest, authStore } from '@/shared/api/index.ts';
import type { PendingMfa } from '../lib/pendingMfa.ts';

/** Outcome of an OIDC or SSO ticket: a session, or the portal's second factor still to enter. */
export type TicketResult = { kind: 'authenticated' } | { kind: 'mfa-required'; pending: PendingMfa };

const exchanges = new Map<string, Promise<TicketResult>>();

/**
 * Exchanges the one-time ticket of an OIDC or SSO callback for tokens and stores them with
 * their token type (product §A7). A ticket works once, so a repeated call (React's strict-mode
 * double effect, a re-render) shares the first request instead of spending the ticket twice.
 * The browser's sign-in cookie goes along by itself (same origin).
 */
export function exchangeTicket(ticket: string): Promise<TicketResult> {
  let pending = exchanges.get(ticket);
  if (!pending) {
    pending = apiRequest('/auth/token/ticket/', {
      method: 'POST',
      body: { ticket },
      schema: TicketExchangeResponseSchema,
      auth: 'none',
      notify: false,
    }).then((answer): TicketResult => {
      if ('access' in answer) {
        authStore.setTokens({ access: answer.access, refresh: answer.refresh }, answer.token_type);
        return { kind: 'authenticated' };
      }
      return {
        kind: 'mfa-required',
        pending: {
          mfaToken: answer.mfa_token,
          method: answer.method ?? 'sms',
          challengeTimeoutSeconds: answer.generate_challenge_timeout,
          tokenType: answer.token_type,
        },
      };
    });
    exchanges.set(ticket, pending);
  }
  return pending;
}
