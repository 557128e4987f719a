import { z } from 'zod';
import { pageOf, resultsOf } from '../common/lists.schemas.ts';
import { LanguageSchema, csvList, queryBool, searchText } from '../common/query.ts';

/**
 * Documentation hub (product §B2, §B3, §B7): instructions, response instructions and articles.
 * Documents are provider-wide (no tenant scope); language variants share a `document` id.
 */
export const DOCUMENT_KINDS = ['instruction', 'response_instruction', 'article'] as const;
export const DocumentKindSchema = z.enum(DOCUMENT_KINDS);
export type DocumentKind = z.infer<typeof DocumentKindSchema>;

/** URL segment under /api/v0/soc/ of each kind (design §4). */
export const DOCUMENT_KIND_PATHS: Record<DocumentKind, string> = {
  instruction: 'instructions',
  response_instruction: 'response_instructions',
  article: 'articles',
};

export const DOCUMENTS_PAGE_SIZE = 20;
export const DOCUMENT_TITLE_MAX = 255;
export const DOCUMENT_DESCRIPTION_MAX = 200_000;
export const DOCUMENT_TAG_MAX = 64;
export const DOCUMENT_TAGS_MAX = 30;
export const DOCUMENT_COMMENT_MAX = 10_000;
export const DOCUMENT_VERSION_COMMENT_MAX = 1000;
/** Largest attachment (image or file) of a document. */
export const DOCUMENT_ATTACHMENT_MAX_BYTES = 20 * 1024 * 1024;

/** Sort types (product §B9): created, last update, title; default last update descending. */
export const DOCUMENT_ORDERINGS = ['created', '-created', 'updated', '-updated', 'title', '-title'] as const;
export const DocumentOrderingSchema = z.enum(DOCUMENT_ORDERINGS);
export type DocumentOrdering = z.infer<typeof DocumentOrderingSchema>;
export const DEFAULT_DOCUMENT_ORDERING: DocumentOrdering = '-updated';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;
const isoDate = z.string().refine((v) => ISO_DATE.test(v) && !Number.isNaN(Date.parse(v)), {
  error: 'Enter a valid date/time.',
});
/** ISO 8601 date-time (`2026-01-31T00:00:00.000Z`) or date (`2026-01-31`, its start in UTC) in a query string. */
export const queryIsoDate = isoDate.transform((v) => new Date(v));
/** As `queryIsoDate`, but a bare date means the end of that day (UTC): an upper bound covers the last day. */
export const queryIsoDateEnd = isoDate.transform((v) =>
  v.length === 10 ? new Date(Date.parse(v) + 86_400_000 - 1) : new Date(v),
);

/** A document attachment (an image of the body or a file). */
export const DocumentAttachmentSchema = z.object({
  id: z.number().int(),
  filename: z.string(),
  size: z.number().int().nonnegative(),
  content_type: z.string(),
  /** `/api/v0/soc/{kind path}/{id}/attachments/{attachment}/`; needs the Authorization header. */
  link: z.string(),
  /** ISO 8601. */
  created: z.string(),
});
export type DocumentAttachment = z.infer<typeof DocumentAttachmentSchema>;

/** A language in which a document exists, with the id of that variant. */
export const DocumentVariantSchema = z.object({ language: LanguageSchema, id: z.number().int() });
export type DocumentVariant = z.infer<typeof DocumentVariantSchema>;

const documentCommon = {
  id: z.number().int(),
  kind: DocumentKindSchema,
  /** Shared id of the language variants (UUID). */
  document: z.string(),
  language: LanguageSchema,
  title: z.string(),
  tags: z.array(z.string()),
  /** Instructions only; always [] for the other kinds. */
  sensors: z.array(z.string()),
  /** ISO 8601. */
  created: z.string(),
  /** ISO 8601, last update. */
  updated: z.string(),
  author: z.string(),
  attachments: z.array(DocumentAttachmentSchema),
  /** Every language variant of this document, this one included. */
  languages: z.array(DocumentVariantSchema),
};

/** A card of a list (side panel: summary, attachments). */
export const DocumentListItemSchema = z.object({
  ...documentCommon,
  /** Plain text, up to 300 characters, from the body: a line (`\n`) per paragraph, heading and list item (`•` or its number). */
  summary: z.string(),
});
export type DocumentListItem = z.infer<typeof DocumentListItemSchema>;
export const DocumentListResponseSchema = pageOf(DocumentListItemSchema);
export type DocumentListResponse = z.infer<typeof DocumentListResponseSchema>;

/** GET /soc/{kind}/{id}/ */
export const DocumentCardSchema = z.object({
  ...documentCommon,
  /** Markdown source (for editors). */
  description: z.string(),
  /** Sanitised HTML of the body ('' when there is none: show the no-description text). */
  description_html: z.string(),
  /** Analysts and admins may edit. */
  can_edit: z.boolean(),
  versions_count: z.number().int().nonnegative(),
});
export type DocumentCard = z.infer<typeof DocumentCardSchema>;

/** Filters of a list (product §B5: empty values are not sent). */
export const DocumentFiltersShape = {
  search: searchText.optional(),
  language: LanguageSchema.optional(),
  tags__in: csvList(z.string().max(DOCUMENT_TAG_MAX)).optional(),
  /** Instructions only (400 for the other kinds). */
  sensors__in: csvList(z.string().max(DOCUMENT_TAG_MAX)).optional(),
  created__gte: queryIsoDate.optional(),
  created__lte: queryIsoDateEnd.optional(),
  updated__gte: queryIsoDate.optional(),
  updated__lte: queryIsoDateEnd.optional(),
  /** The shared id: all language variants of one document. */
  document: z.string().uuid().optional(),
  ordering: DocumentOrderingSchema.optional(),
};
export const DocumentFiltersSchema = z.strictObject(DocumentFiltersShape);
export type DocumentFilters = z.input<typeof DocumentFiltersSchema>;

/** GET /soc/{kind}/ (unknown parameters → 400). */
export const DocumentListQuerySchema = z.strictObject({
  ...DocumentFiltersShape,
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(DOCUMENTS_PAGE_SIZE),
  no_page: queryBool.optional(),
});
export type DocumentListQuery = z.infer<typeof DocumentListQuerySchema>;

/** GET /soc/{kind}/languages/: languages in which documents of the kind exist. */
export const DocumentLanguageSchema = z.object({ language: LanguageSchema, count: z.number().int() });
export const DocumentLanguagesResponseSchema = resultsOf(DocumentLanguageSchema);
export type DocumentLanguagesResponse = z.infer<typeof DocumentLanguagesResponseSchema>;

/** GET /soc/{kind}/tags/ and /soc/instructions/sensors/: filter choices (distinct values). */
export const DocumentChoicesResponseSchema = resultsOf(z.string());
export type DocumentChoicesResponse = z.infer<typeof DocumentChoicesResponseSchema>;

const title = z
  .string({ error: 'This field is required.' })
  .trim()
  .min(1, { error: 'This field may not be blank.' })
  .max(DOCUMENT_TITLE_MAX, { error: `Ensure this field has no more than ${DOCUMENT_TITLE_MAX} characters.` });
const description = z.string().max(DOCUMENT_DESCRIPTION_MAX, {
  error: `Ensure this field has no more than ${DOCUMENT_DESCRIPTION_MAX} characters.`,
});
const tagList = z
  .array(z.string().trim().min(1).max(DOCUMENT_TAG_MAX))
  .max(DOCUMENT_TAGS_MAX)
  .transform((v) => [...new Set(v)]);
const versionComment = z
  .string()
  .trim()
  .max(DOCUMENT_VERSION_COMMENT_MAX, {
    error: `Ensure this field has no more than ${DOCUMENT_VERSION_COMMENT_MAX} characters.`,
  });

/** POST /soc/{kind}/ (analysts, admins). Give `document` to add a language variant. */
export const DocumentCreateSchema = z.strictObject({
  title,
  description: description.default(''),
  language: LanguageSchema,
  tags: tagList.default([]),
  /** Instructions only. */
  sensors: tagList.default([]),
  document: z.string().uuid().optional(),
  /** Comment of the first version. */
  comment: versionComment.default(''),
});
export type DocumentCreate = z.input<typeof DocumentCreateSchema>;

/** PATCH /soc/{kind}/{id}/ (analysts, admins): every edit creates a version. */
export const DocumentUpdateSchema = z.strictObject({
  title: title.optional(),
  description: description.optional(),
  tags: tagList.optional(),
  sensors: tagList.optional(),
  /** Comment of the version this edit creates. */
  comment: versionComment.default(''),
});
export type DocumentUpdate = z.input<typeof DocumentUpdateSchema>;

/** A version (product §B3): the state after a create or an edit. */
export const DocumentVersionSchema = z.object({
  id: z.number().int(),
  comment: z.string(),
  /** ISO 8601. */
  date_created: z.string(),
  author: z.string(),
  data: z.object({
    title: z.string(),
    /** Markdown source. */
    description: z.string(),
    /** Sanitised HTML. */
    description_html: z.string(),
  }),
});
export type DocumentVersion = z.infer<typeof DocumentVersionSchema>;
/** GET /soc/{kind}/{id}/history/: newest first. */
export const DocumentHistoryQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(50),
});
export const DocumentHistoryResponseSchema = pageOf(DocumentVersionSchema);
export type DocumentHistoryResponse = z.infer<typeof DocumentHistoryResponseSchema>;

/** A comment (product §B3: author, body, created, source). */
export const DocumentCommentSchema = z.object({
  id: z.number().int(),
  author: z.string(),
  author_id: z.number().int().nullable(),
  /** Sanitised HTML of the Markdown text. */
  body: z.string(),
  /** ISO 8601. */
  created: z.string(),
  source: z.literal('API'),
  /** Written by the provider's staff. */
  from_soc: z.boolean(),
  is_mine: z.boolean(),
});
export type DocumentComment = z.infer<typeof DocumentCommentSchema>;
/** GET /soc/{kind}/{id}/comments/: oldest first. */
export const DocumentCommentsQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(50),
});
export const DocumentCommentListResponseSchema = pageOf(DocumentCommentSchema);
export type DocumentCommentListResponse = z.infer<typeof DocumentCommentListResponseSchema>;

/** POST /soc/{kind}/{id}/comments/ as multipart/form-data with the field `text`. */
export const DocumentCommentCreateSchema = z.strictObject({
  text: z
    .string({ error: 'This field is required.' })
    .trim()
    .min(1, { error: 'This field may not be blank.' })
    .max(DOCUMENT_COMMENT_MAX, {
      error: `Ensure this field has no more than ${DOCUMENT_COMMENT_MAX} characters.`,
    }),
});
export type DocumentCommentCreate = z.input<typeof DocumentCommentCreateSchema>;
