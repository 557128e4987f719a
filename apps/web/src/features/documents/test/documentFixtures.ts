import {
  DOCUMENTS_PAGE_SIZE,
  type DocumentCard,
  type DocumentComment,
  type DocumentKind,
  type DocumentListItem,
  type DocumentListResponse,
  type DocumentVersion,
} from '@soc/contracts';
import type { MockRequest, MockResponse } from '../../../test/fetchMock.ts';

const BASE_TIME = Date.UTC(2026, 0, 15, 9, 30);
const iso = (time: number) => new Date(time).toISOString();

/** A list item; `id` also seeds the times so that items differ. */
export function makeDocument(
  id: number,
  overrides: Partial<DocumentListItem> = {},
  kind: DocumentKind = 'instruction',
): DocumentListItem {
  return {
    id,
    kind,
    document: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    language: 'en',
    title: `Document ${id}`,
    tags: ['vpn'],
    sensors: kind === 'instruction' ? ['ids'] : [],
    created: iso(BASE_TIME - id * 60_000),
    updated: iso(BASE_TIME - id * 30_000),
    author: 'SOC analyst',
    attachments: [],
    languages: [{ language: 'en', id }],
    summary: `Summary of document ${id}`,
    ...overrides,
  };
}

/** One page of a list as the server answers it. */
export function documentPage(
  ids: readonly number[],
  { total = ids.length, page = 1 }: { total?: number; page?: number } = {},
): DocumentListResponse {
  const end = (page - 1) * DOCUMENTS_PAGE_SIZE + ids.length;
  return {
    total,
    total_exact: true,
    next: end < total ? `http://localhost/api/v0/soc/instructions/?page=${page + 1}` : null,
    previous: page > 1 ? `http://localhost/api/v0/soc/instructions/?page=${page - 1}` : null,
    results: ids.map((id) => makeDocument(id)),
  };
}

/** A list endpoint over `total` documents (ids 1…total), paged by the request's `page`. */
export function pagedDocuments(total: number) {
  return (request: MockRequest): MockResponse => {
    const page = Number(request.url.searchParams.get('page') ?? 1);
    const size = Number(request.url.searchParams.get('page_size') ?? DOCUMENTS_PAGE_SIZE);
    const from = (page - 1) * size;
    const count = Math.max(0, Math.min(size, total - from));
    return {
      body: documentPage(
        Array.from({ length: count }, (_, index) => from + index + 1),
        { total, page },
      ),
    };
  };
}

/** A document card. */
export function makeCard(
  id: number,
  overrides: Partial<DocumentCard> = {},
  kind: DocumentKind = 'instruction',
): DocumentCard {
  const { summary: _summary, ...item } = makeDocument(id, {}, kind);
  return {
    ...item,
    title: `Document ${id}`,
    description: '# Steps\n\nIsolate the host.',
    description_html: '<h1>Steps</h1><p>Isolate the host.</p>',
    can_edit: false,
    versions_count: 1,
    ...overrides,
  };
}

export function makeComment(id: number, overrides: Partial<DocumentComment> = {}): DocumentComment {
  return {
    id,
    author: 'Ivan Ivanov',
    author_id: 7,
    body: `<p>Comment ${id}</p>`,
    created: iso(BASE_TIME + id * 60_000),
    source: 'API',
    from_soc: false,
    is_mine: true,
    ...overrides,
  };
}

export function makeVersion(id: number, overrides: Partial<DocumentVersion> = {}): DocumentVersion {
  return {
    id,
    comment: `Version comment ${id}`,
    date_created: iso(BASE_TIME + id * 3_600_000),
    author: 'SOC analyst',
    data: {
      title: 'Title',
      description: `Body of version ${id}`,
      description_html: `<p>Body of version ${id}</p>`,
    },
    ...overrides,
  };
}

/** A paginated answer of `items`. */
export const pageOfItems = <T>(results: T[]) => ({
  total: results.length,
  next: null,
  previous: null,
  results,
});
