import type { Language } from '@soc/contracts';

/**
 * Query keys of the incidents area. Lists are keyed by their normalised filter query string
 * and the language of the titles, so equal filters share a cache entry and a change of either
 * starts a new one.
 */
export const incidentKeys = {
  all: ['incidents'] as const,
  lists: () => [...incidentKeys.all, 'list'] as const,
  list: (filters: string, language: Language) => [...incidentKeys.lists(), { filters, language }] as const,
  filterChoices: (language: Language) => [...incidentKeys.all, 'filter-choices', language] as const,
  lookups: () => [...incidentKeys.all, 'lookup'] as const,
  issueTypes: (search: string, language: Language) =>
    [...incidentKeys.lookups(), 'issue-types', { search, language }] as const,
  categories: (issueTypeId: number, search: string, language: Language) =>
    [...incidentKeys.lookups(), 'categories', issueTypeId, { search, language }] as const,
};
