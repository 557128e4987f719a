import type { Language } from '@soc/contracts';

/**
 * Query keys of one incident's page. Everything of an incident hangs under
 * `incident(key)`, so that an action can refresh the card, its actions and its comments at once.
 */
export const incidentPageKeys = {
  all: ['incident'] as const,
  incident: (key: number) => [...incidentPageKeys.all, key] as const,
  cards: (key: number) => [...incidentPageKeys.incident(key), 'card'] as const,
  card: (key: number, language: Language) => [...incidentPageKeys.cards(key), language] as const,
  actions: (key: number) => [...incidentPageKeys.incident(key), 'available-actions'] as const,
  comments: (key: number) => [...incidentPageKeys.incident(key), 'comments'] as const,
  snapshots: (key: number) => [...incidentPageKeys.incident(key), 'snapshots'] as const,
  misconfigs: (key: number) => [...incidentPageKeys.incident(key), 'misconfigs'] as const,
  resolutions: (issueTypeId: number, language: Language) =>
    [...incidentPageKeys.all, 'resolutions', issueTypeId, language] as const,
  /** The card as staff see it (GET /analyst/incidents/{key}/): the customer card and the SOC assignee. */
  staffCards: (key: number) => [...incidentPageKeys.incident(key), 'staff-card'] as const,
  staffCard: (key: number, language: Language) => [...incidentPageKeys.staffCards(key), language] as const,
  notes: (key: number) => [...incidentPageKeys.incident(key), 'notes'] as const,
  staff: (search: string) => [...incidentPageKeys.all, 'staff', { search }] as const,
  users: (systemId: number, search: string) =>
    [...incidentPageKeys.all, 'users', systemId, { search }] as const,
};
