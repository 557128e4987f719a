import type {
  Comment,
  IncidentCard,
  IncidentFilters,
  IncidentListItem,
  IncidentOrdering,
  Language,
} from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import type { CachedAnswer, VersionSources } from '../../lib/cache/cached-answer.ts';
import type { VersionedCache } from '../../lib/cache/versioned-cache.ts';
import { createVersionedCache, keepVersioned, scopeKey } from '../../lib/cache/versioned-cache.ts';
import type { SystemScope } from '../../lib/scope.ts';
import { readResponseVersion } from './incidents-cache.repository.ts';
import { filterEntries } from './incident-filters.repository.ts';

export const CARD_CACHE_MAX_ENTRIES = 2000;
export const PAGE_CACHE_MAX_ENTRIES = 500;
export const COMMENTS_CACHE_MAX_ENTRIES = 2000;

export const INCIDENT_RESPONSE_VERSION_SOURCES: VersionSources = {
  epoch: true,
  events: '*',
  counters: [],
  rows: [],
};

/** What a list row shows: the incident, the names beside it and its number of comments. */
const LIST_ROW_READS = [
  'incidents',
  'systems',
  'services',
  'issue_types',
  'categories',
  'resolutions',
  'users',
  'comments',
] as const;

export const INCIDENT_CARD_ANSWER: CachedAnswer = {
  name: 'incident card',
  reads: [...LIST_ROW_READS, 'attachments', 'incident_links'],
  version: INCIDENT_RESPONSE_VERSION_SOURCES,
};

export const INCIDENT_PAGE_ANSWER: CachedAnswer = {
  name: 'incident list page',
  // the rule filter reads the rules' names; the totals of single filters, the count table; the
  // total of a lone search, the search table
  reads: [...LIST_ROW_READS, 'rules', 'incident_counts', 'incident_search'],
  version: INCIDENT_RESPONSE_VERSION_SOURCES,
};

export const INCIDENT_COMMENTS_ANSWER: CachedAnswer = {
  name: 'incident chat page',
  reads: ['incidents', 'comments', 'attachments'],
  version: INCIDENT_RESPONSE_VERSION_SOURCES,
};

/** A list page with its total, exact or where counting stopped. */
export interface IncidentListPage {
  total: number;
  exact: boolean;
  results: IncidentListItem[];
}

export interface CommentPage {
  total: number;
  results: Comment[];
}

/**
 * Incident cards, list pages and chat pages kept until their version moves (see `readResponseVersion`). A hit costs one
 * small statement instead of the page or card statement and its presentation. As for the list
 * totals (count-cache.ts), every event NOTIFYed by any instance empties both caches (two writers
 * committing out of order), and nothing is kept or served while that channel is down. A value is
 * computed after reading the version, so that what is kept is never older than its version.
 */
export interface IncidentResponseCache {
  card(
    key: number,
    scope: SystemScope,
    role: string,
    lang: Language,
    build: () => Promise<IncidentCard>,
  ): Promise<IncidentCard>;
  page(
    filters: IncidentFilters,
    scope: SystemScope,
    ordering: IncidentOrdering,
    limit: number,
    offset: number,
    lang: Language,
    build: () => Promise<IncidentListPage>,
  ): Promise<IncidentListPage>;
  /** A page of an incident's chat; `is_mine` makes it the caller's own. */
  comments(
    key: number,
    scope: SystemScope,
    userId: number,
    query: object,
    build: () => Promise<CommentPage>,
  ): Promise<CommentPage>;
  invalidate(): void;
  setLive(live: boolean): void;
  readonly size: number;
}

export function createIncidentResponseCache(
  db: Db,
  { cards = CARD_CACHE_MAX_ENTRIES, pages = PAGE_CACHE_MAX_ENTRIES, chats = COMMENTS_CACHE_MAX_ENTRIES } = {},
): IncidentResponseCache {
  const cardCache: VersionedCache<IncidentCard> = createVersionedCache(cards, { name: 'incident_cards' });
  const pageCache: VersionedCache<IncidentListPage> = createVersionedCache(pages, { name: 'incident_pages' });
  const commentCache: VersionedCache<CommentPage> = createVersionedCache(chats, { name: 'incident_chats' });
  const caches = [cardCache, pageCache, commentCache];
  const version = () => readResponseVersion(db);
  const keep = <T>(
    cache: VersionedCache<T>,
    key: string,
    build: () => Promise<T>,
    keepIt?: (value: T) => boolean,
  ) => keepVersioned(cache, key, version, build, keepIt);
  return {
    card(key, scope, role, lang, build) {
      // a send to the national centre shows as processing for a while: that depends on the clock
      return keep(
        cardCache,
        `${key}|${lang}|${role}|${scopeKey(scope)}`,
        build,
        (card) => card.gossopka_state !== 'processing',
      );
    },
    page(filters, scope, ordering, limit, offset, lang, build) {
      return keep(
        pageCache,
        JSON.stringify([scopeKey(scope), filterEntries(filters), ordering, limit, offset, lang]),
        build,
      );
    },
    comments(key, scope, userId, query, build) {
      return keep(commentCache, JSON.stringify([key, scopeKey(scope), userId, query]), build);
    },
    invalidate() {
      for (const cache of caches) cache.invalidate();
    },
    setLive(live) {
      for (const cache of caches) cache.setLive(live);
    },
    get size() {
      return caches.reduce((n, cache) => n + cache.size, 0);
    },
  };
}
