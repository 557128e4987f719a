import { DOCUMENT_KIND_PATHS, type DocumentKind } from '@soc/contracts';

/** Tabs of the documentation hub (product §B2), in the order of its left panel. */
export const DOCS_TABS = ['instructions', 'responseInstructions', 'articles', 'rules'] as const;
export type DocsTab = (typeof DOCS_TABS)[number];

/** The tabs that list documents (rules come with the rules release). */
export type DocumentTab = Exclude<DocsTab, 'rules'>;

export const isDocsTab = (value: string | undefined): value is DocsTab =>
  (DOCS_TABS as readonly string[]).includes(value ?? '');

/** What differs between the three kinds of documents on the web side. */
export interface DocumentKindView {
  kind: DocumentKind;
  tab: DocumentTab;
  /** Path of the hub's list, e.g. `/docs/instructions`. */
  listPath: string;
  /** Path prefix of a card, e.g. `/instruction` (+ `/{id}`). */
  cardPath: string;
  /** API path of the list under /api/v0, e.g. `/soc/instructions/`. */
  apiPath: string;
  /** Entry of the list under the `filters` storage key. */
  filterEntity: string;
  /** Only instructions carry sensors (product §B3). */
  hasSensors: boolean;
  /** Response instructions and articles keep a version history (product §B7). */
  hasHistory: boolean;
  /** Page-title key of a card. */
  titleKey: 'pages.instruction' | 'pages.responseInstruction' | 'pages.article';
}

const view = (
  kind: DocumentKind,
  tab: DocumentTab,
  cardPath: string,
  titleKey: DocumentKindView['titleKey'],
): DocumentKindView => ({
  kind,
  tab,
  listPath: `/docs/${tab}`,
  cardPath,
  apiPath: `/soc/${DOCUMENT_KIND_PATHS[kind]}/`,
  filterEntity: `docs-${tab}`,
  hasSensors: kind === 'instruction',
  hasHistory: kind !== 'instruction',
  titleKey,
});

/** The kinds by their hub tab. */
export const DOCUMENT_VIEWS: Record<DocumentTab, DocumentKindView> = {
  instructions: view('instruction', 'instructions', '/instruction', 'pages.instruction'),
  responseInstructions: view(
    'response_instruction',
    'responseInstructions',
    '/responseInstruction',
    'pages.responseInstruction',
  ),
  articles: view('article', 'articles', '/article', 'pages.article'),
};

/** The view of a kind as the API names it. */
export const viewOfKind = (kind: DocumentKind): DocumentKindView =>
  Object.values(DOCUMENT_VIEWS).find((entry) => entry.kind === kind) ?? DOCUMENT_VIEWS.instructions;
