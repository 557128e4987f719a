import { z } from 'zod';
import { pageOf, resultsOf } from '../common/lists.schemas.ts';
import { LanguageSchema, csvList, queryBool, queryId, searchText } from '../common/query.ts';
import {
  AttachmentSchema,
  IncidentListItemSchema,
  IncidentPrioritySchema,
  IncidentStatusSchema,
} from './incidents.schemas.ts';

const millis = z.number().int();

/** IOC types (product §A3 IOC). */
export const IOC_TYPES = [
  'bankcard',
  'certificate',
  'custom',
  'device',
  'email',
  'file',
  'fqdn',
  'ipv4',
  'ipv6',
  'ja3',
  'message',
  'process',
  'registrykey',
  'subscriber',
  'url',
  'useraccount',
] as const;
export const IocTypeSchema = z.enum(IOC_TYPES);
export type IocType = z.infer<typeof IocTypeSchema>;

/** An indicator of compromise observed in an incident (product §A3 IOC). */
export const IocSchema = z.object({
  ioc: z.string(),
  ioc_type: IocTypeSchema,
  /** Free-form categories, e.g. `C2`, `phishing`. */
  category: z.array(z.string()),
});
export type Ioc = z.infer<typeof IocSchema>;

/** Another incident linked to this one (same system; only those the caller may see). */
export const RelatedIncidentSchema = z.object({
  key: z.number().int(),
  summary: z.string(),
  status: IncidentStatusSchema,
  priority: IncidentPrioritySchema,
  created: millis,
});
export type RelatedIncident = z.infer<typeof RelatedIncidentSchema>;

/** Processing window of a send to the national centre (product §A4, §A9). */
export const GOSSOPKA_PROCESSING_MS = 5 * 60_000;

/**
 * Where sending to the national centre stands (product §A4):
 * `not_sent` (nothing planned), `planned` (countdown to `gossopka_planned_time`),
 * `processing` (at most 5 minutes from `gossopka_processing_since`), `sent` (`gossopka_id` set),
 * `error` (last attempt failed or processing took longer than 5 minutes: show the error and the send button).
 */
export const GOSSOPKA_STATES = ['not_sent', 'planned', 'processing', 'sent', 'error'] as const;
export const GossopkaStateSchema = z.enum(GOSSOPKA_STATES);
export type GossopkaState = z.infer<typeof GossopkaStateSchema>;

/** The national-centre part of an incident card, also the answer of `manually_send_to_gossopka/`. */
export const GossopkaStatusSchema = z.object({
  gossopka_state: GossopkaStateSchema,
  gossopka_id: z.string().nullable(),
  gossopka_send_time: millis.nullable(),
  /** Automatic send time (countdown target), or null. */
  gossopka_planned_time: millis.nullable(),
  /** When the current send started; processing ends (as an error) 5 minutes later. */
  gossopka_processing_since: millis.nullable(),
  /** Why the last attempt failed (state `error`). */
  gossopka_error: z.string().nullable(),
  /** The caller may send (or re-send after an error) now. */
  show_gossopka_button: z.boolean(),
});
export type GossopkaStatus = z.infer<typeof GossopkaStatusSchema>;

/** The incident card, GET /soc/incs/{key}/ (product §A3 Incident). */
export const IncidentCardSchema = IncidentListItemSchema.extend({
  /** Markdown as written by the analyst. */
  description: z.string(),
  /** The description as sanitised HTML (no scripts, handlers or javascript: links). */
  rendered_description: z.string(),
  recommendations: z.string(),
  /** The recommendations as sanitised HTML. */
  rendered_recommendations: z.string(),
  status_description: z.string(),
  /** Hosts affected. */
  affected_systems: z.array(z.string()),
  /** When the malicious activity was first detected. */
  parsed_activity_detected: millis.nullable(),
  /** Files attached to the incident itself (comment files are on the comments). */
  attachments: z.array(AttachmentSchema),
  customer_assignee_last_time: millis.nullable(),
  customer_star_rating_comment: z.string().nullable(),
  /** The form may be shown: the caller may rate and the incident is handled and not yet rated. */
  can_rate: z.boolean(),
  /** Priorities the caller may set (customers: low, medium, high; analysts also critical). */
  allowed_priorities: z.array(IncidentPrioritySchema),
  /** Tactic short name → technique ids. */
  mitre_cov: z.record(z.string(), z.array(z.string())),
  detection_rules: z.array(z.string()),
  observed_iocs: z.array(IocSchema),
  related_incidents: z.array(RelatedIncidentSchema),
  ...GossopkaStatusSchema.shape,
});
export type IncidentCard = z.infer<typeof IncidentCardSchema>;

/** Workflow actions (design §5); customers get confirm/close/reopen, analysts also complete/cancel. */
export const INCIDENT_ACTIONS = ['confirm', 'close', 'reopen', 'complete', 'cancel'] as const;
export const IncidentActionSchema = z.enum(INCIDENT_ACTIONS);
export type IncidentAction = z.infer<typeof IncidentActionSchema>;

/** GET /soc/incs/{key}/available_actions/ */
export const AvailableActionsSchema = resultsOf(IncidentActionSchema);
export type AvailableActions = z.infer<typeof AvailableActionsSchema>;

/** Longest comment text. */
export const COMMENT_MAX_LENGTH = 20_000;

const commentText = z
  .string({ error: 'This field is required.' })
  .trim()
  .min(1, { error: 'This field may not be blank.' })
  .max(COMMENT_MAX_LENGTH, { error: `Ensure this field has no more than ${COMMENT_MAX_LENGTH} characters.` });

/** POST confirm/ and reopen/ (product §A3), also complete/ and cancel/ for analysts. */
export const ConfirmPayloadSchema = z.strictObject({
  /** Markdown; stored as sanitised HTML. */
  comment: commentText,
  /** "Assign to myself" checkbox. */
  change_customer_assignee: z.boolean().default(false),
});
export type ConfirmPayload = z.input<typeof ConfirmPayloadSchema>;
export const ReopenPayloadSchema = ConfirmPayloadSchema;
export type ReopenPayload = ConfirmPayload;

/** POST close/ (product §A3): a resolution of the incident's issue type (its kind is TP or FP). */
export const ClosePayloadSchema = ConfirmPayloadSchema.extend({
  /** Id of a resolution from GET issues/{type}/resolutions/. */
  resolution_name: z.number({ error: 'This field is required.' }).int().positive(),
});
export type ClosePayload = z.input<typeof ClosePayloadSchema>;

/**
 * PATCH /soc/incs/{key}/: the priority (customers: low, medium, high; analysts also critical)
 * and, for analysts, when the incident is sent to the national centre automatically (null: not).
 */
export const IncidentPatchSchema = z
  .strictObject({
    priority: IncidentPrioritySchema.optional(),
    gossopka_planned_time: millis.nullable().optional(),
  })
  .refine((v) => v.priority !== undefined || v.gossopka_planned_time !== undefined, {
    error: 'Give priority or gossopka_planned_time.',
    path: ['non_field_errors'],
  });
export type IncidentPatch = z.infer<typeof IncidentPatchSchema>;

/** POST /soc/incs/{key}/assign_to_customer/ (null clears the assignee). */
export const AssignPayloadSchema = z.strictObject({
  customer_assignee_id: z.number().int().positive().nullable(),
});
export type AssignPayload = z.infer<typeof AssignPayloadSchema>;

/** Users suggestions page size (product §A9). */
export const USERS_SUGGESTION_LIMIT = 10;

/** GET /soc/users/?page_size=10&is_active=true&system__in=1,2&search=text */
export const UsersQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(USERS_SUGGESTION_LIMIT),
  is_active: queryBool.optional(),
  system__in: csvList(queryId).optional(),
  /** Trimmed; matches username, first or last name, e-mail. */
  search: searchText.optional(),
});
export type UsersQuery = z.input<typeof UsersQuerySchema>;

/** A user as assignee suggestions list them (product §A3 User). */
export const UserListItemSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  full_name: z.string(),
  is_active: z.boolean(),
});
export type UserListItem = z.infer<typeof UserListItemSchema>;
export const UserListResponseSchema = pageOf(UserListItemSchema);

/** Comment sources (product §A3): web/API, mail from a verified user, mail from anyone else. */
export const COMMENT_SOURCES = ['API', 'Email by authorized user', 'Email by unauthorized user'] as const;
export const CommentSourceSchema = z.enum(COMMENT_SOURCES);
export type CommentSource = z.infer<typeof CommentSourceSchema>;

/** A comment of an incident's chat (product §A3 Comment). */
export const CommentSchema = z.object({
  id: z.number().int(),
  /** Display name, or the national centre's name for its mail domain, or the sender's address. */
  author: z.string(),
  /** Author's user id when the author is a portal user. */
  author_id: z.number().int().nullable(),
  /** Sanitised HTML. */
  body: z.string(),
  created: millis,
  attachments: z.array(AttachmentSchema),
  source: CommentSourceSchema,
  /** Written by the provider's staff. */
  from_soc: z.boolean(),
  /** Mail from the national centre's domain that the gateway authenticated (DMARC or DKIM pass). */
  from_national_centre: z.boolean(),
  issue_completed: z.boolean(),
  /** Written by the caller. */
  is_mine: z.boolean(),
});
export type Comment = z.infer<typeof CommentSchema>;

/** GET {incident}/comments/: oldest first. `no_page=true` returns up to COMMENTS_NO_PAGE_MAX. */
export const COMMENTS_NO_PAGE_MAX = 1000;
export const CommentsQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(50),
  no_page: queryBool.optional(),
  /** Trimmed; matches the text and the author. */
  search: searchText.optional(),
});
export const CommentListResponseSchema = pageOf(CommentSchema);
export type CommentListResponse = z.infer<typeof CommentListResponseSchema>;

/**
 * POST {incident}/comments/ as multipart/form-data: `body` (Markdown, required),
 * `issue_completed` (`true`/`false`, optional), `attachments` (0–10 files, 50 MB each).
 * The text fields are validated with this schema.
 */
export const CommentCreateFieldsSchema = z.strictObject({
  body: commentText,
  issue_completed: queryBool.default(false),
});
export type CommentCreateFields = z.input<typeof CommentCreateFieldsSchema>;

/** Rating bounds (product §A5, §A9). */
export const RATING_MIN = 0;
export const RATING_MAX = 5;
export const RATING_COMMENT_MAX = 2000;

/** POST {incident}/add_rating/ */
export const RatingPayloadSchema = z.strictObject({
  rating: z
    .number({ error: 'This field is required.' })
    .int({ error: 'A valid integer is required.' })
    .min(RATING_MIN, { error: `Ensure this value is greater than or equal to ${RATING_MIN}.` })
    .max(RATING_MAX, { error: `Ensure this value is less than or equal to ${RATING_MAX}.` }),
  comment: z
    .string()
    .trim()
    .max(RATING_COMMENT_MAX, {
      error: `Ensure this field has no more than ${RATING_COMMENT_MAX} characters.`,
    })
    .default(''),
});
export type RatingPayload = z.input<typeof RatingPayloadSchema>;

/** GET {incident}/get_pdf_inc/?language=ru|en (default: the request's language). */
export const IncidentPdfQuerySchema = z.strictObject({ language: LanguageSchema.optional() });

/** Image types the chat shows thumbnails for (product §A3 Chat attachment). */
export const THUMBNAIL_CONTENT_TYPES = [
  'image/jpeg',
  'image/apng',
  'image/png',
  'image/avif',
  'image/gif',
  'image/svg+xml',
  'image/webp',
] as const;

/** POST /soc/inbound_mail/ (mail gateway): what became of a reply to a notification. */
export const InboundMailResultSchema = z.object({
  /** The comment the mail became; null when it was quarantined. */
  comment_id: z.number().int().nullable(),
  incident: z.number().int(),
  /** The comment's source; null when the mail was quarantined. */
  source: CommentSourceSchema.nullable(),
  /** The analysts' quarantine entry of a mail not posted on the incident (issue 25 item 4). */
  quarantine_id: z.number().int().nullable(),
  /** False when the same message had already been stored. */
  created: z.boolean(),
  /** Attachments left out (executables, oversize, more than 10). */
  skipped_attachments: z.array(z.string()),
});
export type InboundMailResult = z.infer<typeof InboundMailResultSchema>;
