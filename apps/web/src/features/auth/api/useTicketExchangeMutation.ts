import { TicketExchangeResponseSchema } from '@soc/contracts';
import { apiRequest, authStore } from '../../../shared/api/index.ts';

const exchanges = new Map<string, Promise<void>>();

/**
 * Exchanges the one-time ticket of an OIDC or SSO callback for tokens and stores them with
 * their token type (spec 000 §7). A ticket works once, so a repeated call (React's strict-mode
 * double effect, a re-render) shares the first request instead of spending the ticket twice.
 */
export function exchangeTicket(ticket: string): Promise<void> {
  let pending = exchanges.get(ticket);
  if (!pending) {
    pending = apiRequest('/auth/token/ticket/', {
      method: 'POST',
      body: { ticket },
      schema: TicketExchangeResponseSchema,
      auth: 'none',
      notify: false,
    }).then((answer) => {
      authStore.setTokens({ access: answer.access, refresh: answer.refresh }, answer.token_type);
    });
    exchanges.set(ticket, pending);
  }
  return pending;
}
