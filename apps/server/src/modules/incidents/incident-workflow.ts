import type { IncidentAction, IncidentStatus, Role } from '@soc/contracts';
import { INCIDENT_ACTIONS } from '@soc/contracts';

interface Transition {
  from: readonly IncidentStatus[];
  to: IncidentStatus;
  roles: readonly Role[];
}

const STAFF: readonly Role[] = ['analyst', 'admin'];
const OPEN: readonly IncidentStatus[] = ['waiting_for_customer', 'waiting_for_support', 'work_in_progress'];

/**
 * The status flow of design §5. Confirm and close are the customer's verdicts; reopen brings a
 * finished incident back to the SOC; analysts complete or cancel.
 */
export const TRANSITIONS: Record<IncidentAction, Transition> = {
  confirm: { from: ['waiting_for_customer'], to: 'work_in_progress', roles: ['customer'] },
  close: { from: OPEN, to: 'closed', roles: ['customer'] },
  reopen: {
    from: ['closed', 'completed', 'customer_completed', 'canceled'],
    to: 'waiting_for_support',
    roles: ['customer', ...STAFF],
  },
  complete: { from: [...OPEN, 'customer_completed'], to: 'completed', roles: STAFF },
  cancel: { from: OPEN, to: 'canceled', roles: STAFF },
};

/** Statuses in which the incident has been handled: it may be rated. */
export const HANDLED_STATUSES: readonly IncidentStatus[] = [
  'closed',
  'completed',
  'customer_completed',
  'canceled',
];

/** Statuses in which work is still going on. */
export const OPEN_STATUSES = OPEN;

export function availableActions(status: IncidentStatus, role: Role): IncidentAction[] {
  return INCIDENT_ACTIONS.filter(
    (a) => TRANSITIONS[a].from.includes(status) && TRANSITIONS[a].roles.includes(role),
  );
}

/**
 * The status a new comment leads to (design §5), or null for no change: `issue_completed` ends
 * an open incident as customer completed; a customer's answer in Waiting for customer hands the
 * incident back to the SOC; an analyst's answer in Waiting for support hands it to the customer.
 */
export function statusAfterComment(
  status: IncidentStatus,
  byStaff: boolean,
  issueCompleted: boolean,
): IncidentStatus | null {
  if (issueCompleted) return OPEN.includes(status) ? 'customer_completed' : null;
  if (!byStaff && status === 'waiting_for_customer') return 'waiting_for_support';
  if (byStaff && status === 'waiting_for_support') return 'waiting_for_customer';
  return null;
}
