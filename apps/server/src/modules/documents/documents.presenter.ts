import type {
  DocumentAttachment,
  DocumentCard,
  DocumentComment,
  DocumentKind,
  DocumentListItem,
  DocumentVariant,
  DocumentVersion,
} from '@soc/contracts';
import { DOCUMENT_KIND_PATHS } from '@soc/contracts';
import { markdownToLines, renderMarkdown } from '../../lib/markdown.ts';
import type { AttachmentRow, CommentRow, DocumentRow, VersionRow } from './documents.repository.ts';

export const attachmentLink = (kind: DocumentKind, documentId: number, id: number) =>
  `/api/v0/soc/${DOCUMENT_KIND_PATHS[kind]}/${documentId}/attachments/${id}/`;

/**
 * Markdown → safe HTML of a document body. Images may only come from this document's own
 * attachments (`/api/v0/soc/…`, authorised); any other image source is dropped (no tracking
 * pixels, no data URLs bigger than the body).
 */
export function renderDocumentBody(markdown: string): string {
  const html = renderMarkdown(markdown);
  return html.replace(/<img\b[^>]*>/gi, (tag) => {
    const src = /\ssrc="([^"]*)"/i.exec(tag)?.[1] ?? '';
    return /^\/api\/v0\/soc\/(instructions|response_instructions|articles)\/\d+\/attachments\/\d+\/$/.test(
      src,
    )
      ? tag
      : '';
  });
}

export const presentAttachment = (kind: DocumentKind, r: AttachmentRow): DocumentAttachment => ({
  id: r.id,
  filename: r.filename,
  size: r.size,
  content_type: r.contentType,
  link: attachmentLink(kind, r.documentId, r.id),
  created: r.created.toISOString(),
});

const common = (r: DocumentRow, attachments: AttachmentRow[], languages: DocumentVariant[]) => ({
  id: r.id,
  kind: r.kind,
  document: r.document,
  language: r.language,
  title: r.title,
  tags: r.tags,
  sensors: r.kind === 'instruction' ? r.sensors : [],
  created: r.created.toISOString(),
  updated: r.updated.toISOString(),
  author: r.authorName,
  attachments: attachments.map((a) => presentAttachment(r.kind, a)),
  languages,
});

const SUMMARY_LENGTH = 300;

/**
 * The start of the body as plain text that keeps its paragraphs and list items on their own
 * lines (`\n`; `•` or the number before an item), so that a card does not run them together.
 */
export function documentSummary(markdown: string): string {
  const text = markdownToLines(markdown);
  return text.length > SUMMARY_LENGTH ? `${text.slice(0, SUMMARY_LENGTH - 1).trimEnd()}…` : text;
}

export function presentListItem(
  r: DocumentRow,
  attachments: AttachmentRow[],
  languages: DocumentVariant[],
): DocumentListItem {
  return { ...common(r, attachments, languages), summary: documentSummary(r.description) };
}

export function presentCard(
  r: DocumentRow,
  attachments: AttachmentRow[],
  languages: DocumentVariant[],
  canEdit: boolean,
  versionsCount: number,
): DocumentCard {
  return {
    ...common(r, attachments, languages),
    description: r.description,
    description_html: renderDocumentBody(r.description),
    can_edit: canEdit,
    versions_count: versionsCount,
  };
}

export const presentVersion = (v: VersionRow): DocumentVersion => ({
  id: v.id,
  comment: v.comment,
  date_created: v.created.toISOString(),
  author: v.authorName,
  data: { title: v.title, description: v.description, description_html: renderDocumentBody(v.description) },
});

export const presentComment = (c: CommentRow, viewerId: number): DocumentComment => ({
  id: c.id,
  author: c.authorName,
  author_id: c.authorId,
  body: c.body,
  created: c.created.toISOString(),
  source: 'API',
  from_soc: c.fromSoc,
  is_mine: c.authorId === viewerId,
});
