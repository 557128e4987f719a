import { z } from 'zod';
import { pageOf } from '../common/lists.schemas.ts';
import { LanguageSchema, csvList, queryBool, queryId, queryMillis, searchText } from '../common/query.ts';

/** Incident statuses (product §A4), in workflow order. Titles come from the web catalogs. */
export const INCIDENT_STATUSES = [
  'waiting_for_customer',
  'waiting_for_support',
  'work_in_progress',
  'customer_completed',
  'completed',
  'closed',
  'canceled',
] as const;
export const IncidentStatusSchema = z.enum(INCIDENT_STATUSES);
export type IncidentStatus = z.infer<typeof IncidentStatusSchema>;

/** Priorities (product §A4), highest first. */
export const INCIDENT_PRIORITIES = ['critical', 'high', 'medium', 'low'] as const;
export const IncidentPrioritySchema = z.enum(INCIDENT_PRIORITIES);
export type IncidentPriority = z.infer<typeof IncidentPrioritySchema>;

/** Priorities a customer may choose when creating or editing (critical is for analysts). */
export const CUSTOMER_PRIORITIES = ['low', 'medium', 'high'] as const;
export const CustomerPrioritySchema = z.enum(CUSTOMER_PRIORITIES);

/** Incident list page size (product §A9). */
export const INCIDENTS_PAGE_SIZE = 40;
/** Title limit (product §A5). */
export const INCIDENT_SUMMARY_MAX = 255;
/** Attachments per upload and per file (product §A5, §A9). */
export const ATTACHMENTS_MAX_FILES = 10;
export const ATTACHMENT_MAX_BYTES = 50 * 1024 * 1024;

/** Sort fields (product §A9), each ascending or, with a minus, descending; default `-created`. */
export const INCIDENT_ORDERINGS = [
  'created',
  '-created',
  'updated',
  '-updated',
  'status',
  '-status',
  'priority',
  '-priority',
] as const;
export const IncidentOrderingSchema = z.enum(INCIDENT_ORDERINGS);
export type IncidentOrdering = z.infer<typeof IncidentOrderingSchema>;
export const DEFAULT_INCIDENT_ORDERING: IncidentOrdering = '-created';

/** True or false positive, as the incident card names it (product §A3). */
export const RESOLUTION_KINDS = ['TP', 'FP'] as const;
export const ResolutionKindSchema = z.enum(RESOLUTION_KINDS);
export const RESOLUTION_LABELS = { TP: 'True Positive', FP: 'False Positive' } as const;

/** An option of a lookup list (issue type, category, resolution): id and localised title. */
export const OptionSchema = z.object({ id: z.number().int(), title: z.string() });
export type Option = z.infer<typeof OptionSchema>;

export const IssueTypeOptionSchema = OptionSchema.extend({ code: z.string() });
export type IssueTypeOption = z.infer<typeof IssueTypeOptionSchema>;

export const CategoryOptionSchema = OptionSchema.extend({ code: z.string() });
export type CategoryOption = z.infer<typeof CategoryOptionSchema>;

export const ResolutionOptionSchema = OptionSchema.extend({ kind: ResolutionKindSchema });
export type ResolutionOption = z.infer<typeof ResolutionOptionSchema>;

/** A protected system (tenant) as lists and pickers show it (product §A3 Tenant option). */
export const SystemOptionSchema = z.object({
  id: z.number().int(),
  /** Information-system code, e.g. `IS-0001`. */
  is_id: z.string(),
  full_name: z.string(),
});
export type SystemOption = z.infer<typeof SystemOptionSchema>;

/** A user as other objects refer to them. */
export const UserRefSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  full_name: z.string(),
});
export type UserRef = z.infer<typeof UserRefSchema>;

/** Timestamps of incidents travel as milliseconds since the epoch (product §A7). */
const millis = z.number().int();

/** An incident as the list shows it (a subset of the card of product §A3). */
export const IncidentListItemSchema = z.object({
  id: z.string(),
  /** The incident number (`/inc/{key}`). */
  key: z.number().int(),
  summary: z.string(),
  priority: IncidentPrioritySchema,
  status: IncidentStatusSchema,
  created: millis,
  updated: millis,
  system: SystemOptionSchema,
  service: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  issuetype_ref: IssueTypeOptionSchema,
  /** The main category (one element, or none). */
  category_ref: z.array(OptionSchema),
  secondary_category_ref: z.array(OptionSchema),
  tags: z.array(z.string()),
  /** Notification deadline. */
  sla: millis.nullable(),
  sla_breached: z.boolean(),
  /** When the customer was notified; null while not yet. */
  notified: millis.nullable(),
  customer_assignee: UserRefSchema.nullable(),
  resolution: z.enum(['True Positive', 'False Positive']).nullable(),
  resolution_name_ref: OptionSchema.nullable(),
  resolutiondate: millis.nullable(),
  gossopka_id: z.string().nullable(),
  reporter_displayName: z.string(),
  customer_star_rating: z.number().int().min(0).max(5).nullable(),
  comments_count: z.number().int().nonnegative(),
});
export type IncidentListItem = z.infer<typeof IncidentListItemSchema>;

export const IncidentListResponseSchema = pageOf(IncidentListItemSchema);
export type IncidentListResponse = z.infer<typeof IncidentListResponseSchema>;

/**
 * Filters of the incident list, the CSV export and (later) the dashboard, in the grammar of
 * design §4. Unknown parameters are refused.
 */
export const IncidentFiltersShape = {
  search: searchText.optional(),
  language: LanguageSchema.optional(),
  key__in: csvList(queryId).optional(),
  system__in: csvList(queryId).optional(),
  /** Matches the main or an additional category. */
  category__in: csvList(queryId).optional(),
  issuetype__in: csvList(queryId).optional(),
  priority__in: csvList(IncidentPrioritySchema).optional(),
  status__in: csvList(IncidentStatusSchema).optional(),
  /** Service names (Vision, Horizon, …). */
  service__in: csvList(z.string().max(100)).optional(),
  created__gte: queryMillis.optional(),
  created__lte: queryMillis.optional(),
  updated__gte: queryMillis.optional(),
  updated__lte: queryMillis.optional(),
  notified__gte: queryMillis.optional(),
  notified__lte: queryMillis.optional(),
  resolutiondate__gte: queryMillis.optional(),
  resolutiondate__lte: queryMillis.optional(),
  sla__gte: queryMillis.optional(),
  sla__lte: queryMillis.optional(),
  sla_breached: queryBool.optional(),
  /** false: sent to the national centre; true: not sent. */
  gossopka_id__isnull: queryBool.optional(),
  resolution__in: csvList(ResolutionKindSchema).optional(),
  resolution_name__in: csvList(queryId).optional(),
  customer_assignee__in: csvList(queryId).optional(),
  customer_assignee__isnull: queryBool.optional(),
  /** ATT&CK tactic short names, e.g. `initial-access`. */
  tactic__in: csvList(z.string().max(64)).optional(),
  /** ATT&CK technique ids, e.g. `T1059.001`. */
  technique__in: csvList(z.string().regex(/^T\d{4}(\.\d{3})?$/, { error: 'Not a technique id.' })).optional(),
  /** Detection rule names. */
  rule__in: csvList(z.string().max(300)).optional(),
  /** Detection rule ids (`/soc/rules/`): incidents that carry those rules' names. */
  rule_id__in: csvList(queryId).optional(),
  /** Observed indicator values (domains, IP addresses…), exact: the dashboard's top lists drill down by it. */
  ioc__in: csvList(z.string().trim().min(1).max(500)).optional(),
  /** Affected host name, substring. */
  host__icontains: z.string().trim().min(1).max(200).optional(),
  summary__icontains: z.string().trim().min(1).max(200).optional(),
  tags__in: csvList(z.string().max(100)).optional(),
  ordering: IncidentOrderingSchema.optional(),
};
export const IncidentFiltersSchema = z.strictObject(IncidentFiltersShape);
export type IncidentFilters = z.infer<typeof IncidentFiltersSchema>;

/** GET /soc/incs/ */
export const IncidentListQuerySchema = z.strictObject({
  ...IncidentFiltersShape,
  limit: z.coerce.number().int().min(1).max(100).default(INCIDENTS_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
});
export type IncidentListQuery = z.infer<typeof IncidentListQuerySchema>;

/** GET /soc/filters/: the choices of the incident filter row, limited to the caller's systems. */
export const FilterChoicesSchema = z.object({
  systems: z.array(SystemOptionSchema),
  issue_types: z.array(IssueTypeOptionSchema),
  categories: z.array(CategoryOptionSchema.extend({ issue_type: z.number().int() })),
  resolutions: z.array(ResolutionOptionSchema.extend({ issue_type: z.number().int() })),
  priorities: z.array(IncidentPrioritySchema),
  statuses: z.array(IncidentStatusSchema),
  /** Names of the services of the caller's systems. */
  base_services: z.array(z.string()),
  /** Users of the caller's systems (assignees). */
  users: z.array(UserRefSchema),
});
export type FilterChoices = z.infer<typeof FilterChoicesSchema>;

/** Lookup query of option lists (product §A7: `?limit=30&search=` or `&q=`). */
export const LookupQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).default(30),
  offset: z.coerce.number().int().min(0).default(0),
  search: searchText.optional(),
  q: searchText.optional(),
  language: LanguageSchema.optional(),
});
export type LookupQuery = z.infer<typeof LookupQuerySchema>;

/** GET /soc/systems/?no_page=true&short=true&page_size=30&search= */
export const SystemsLookupQuerySchema = z.strictObject({
  no_page: queryBool.optional(),
  short: queryBool.optional(),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(30),
  search: searchText.optional(),
  language: LanguageSchema.optional(),
});

/** POST /soc/incs/ (product §A3 Create payload). */
export const IncidentCreateSchema = z.object({
  /** Id of one of the caller's systems. */
  system: z.number().int().positive(),
  summary: z
    .string()
    .trim()
    .min(1, { error: 'This field may not be blank.' })
    .max(INCIDENT_SUMMARY_MAX, {
      error: `Ensure this field has no more than ${INCIDENT_SUMMARY_MAX} characters.`,
    }),
  issuetype: z.number().int().positive(),
  priority: CustomerPrioritySchema,
  description: z.string().trim().min(1, { error: 'This field may not be blank.' }).max(100_000),
  primary_category: z.number().int().positive(),
  secondary_category: z.array(z.number().int().positive()).max(30).default([]),
});
export type IncidentCreate = z.input<typeof IncidentCreateSchema>;

/** A stored attachment (product §A3: filename, link, size). */
export const AttachmentSchema = z.object({
  id: z.string(),
  filename: z.string(),
  size: z.number().int().nonnegative(),
  /** Download URL under /api/v0 (needs authorisation). */
  link: z.string(),
  content_type: z.string(),
  created: millis,
});
export type Attachment = z.infer<typeof AttachmentSchema>;

/** POST /soc/incs/{key}/add_file/ answer. */
export const AddFilesResponseSchema = z.object({ attachments: z.array(AttachmentSchema) });

/** Error code of GET get_csv/ when the result is larger than a synchronous file may be. */
export const CSV_MAX_EXCEEDED_CODE = 'max_records_exceeded';
export const CsvMaxExceededSchema = z.object({
  detail: z.string(),
  code: z.literal(CSV_MAX_EXCEEDED_CODE),
  max_records: z.number().int(),
  total: z.number().int(),
});

/** GET get_async_csv/ answer: the file will arrive by e-mail. */
export const AsyncCsvResponseSchema = z.object({ detail: z.string(), email: z.string() });
