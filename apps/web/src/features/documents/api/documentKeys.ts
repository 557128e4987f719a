import type { DocumentKind, Language } from '@soc/contracts';

/**
 * Query keys of the documentation hub. Everything of one document hangs under
 * `document(kind, id)`, so that a new comment can refresh the card and its comments at once.
 */
export const documentKeys = {
  all: ['documents'] as const,
  kind: (kind: DocumentKind) => [...documentKeys.all, kind] as const,
  lists: (kind: DocumentKind) => [...documentKeys.kind(kind), 'list'] as const,
  list: (kind: DocumentKind, filters: string, language: Language) =>
    [...documentKeys.lists(kind), { filters, language }] as const,
  languages: (kind: DocumentKind) => [...documentKeys.kind(kind), 'languages'] as const,
  choices: (kind: DocumentKind, field: 'tags' | 'sensors') =>
    [...documentKeys.kind(kind), 'choices', field] as const,
  document: (kind: DocumentKind, id: number) => [...documentKeys.kind(kind), 'item', id] as const,
  card: (kind: DocumentKind, id: number) => [...documentKeys.document(kind, id), 'card'] as const,
  comments: (kind: DocumentKind, id: number) => [...documentKeys.document(kind, id), 'comments'] as const,
  history: (kind: DocumentKind, id: number) => [...documentKeys.document(kind, id), 'history'] as const,
};
