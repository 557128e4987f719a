import { z } from 'zod';
import { pageOf, resultsOf } from '../common/lists.schemas.ts';
import { csvList, queryBool, queryId, queryMillis, searchText } from '../common/query.ts';

const millis = z.number().int();

/** Alert severities as the specification writes them (product §A3 Alert). */
export const ALERT_SEVERITIES = ['High', 'Medium', 'Low'] as const;
export const AlertSeveritySchema = z.enum(ALERT_SEVERITIES);
export type AlertSeverity = z.infer<typeof AlertSeveritySchema>;

/** Handling status of an alert. */
export const ALERT_STATUSES = ['new', 'in_progress', 'closed'] as const;
export const AlertStatusSchema = z.enum(ALERT_STATUSES);
export type AlertStatus = z.infer<typeof AlertStatusSchema>;

/** Alert priorities (same scale as incidents). */
export const ALERT_PRIORITIES = ['critical', 'high', 'medium', 'low'] as const;
export const AlertPrioritySchema = z.enum(ALERT_PRIORITIES);
export type AlertPriority = z.infer<typeof AlertPrioritySchema>;

/** The state of an alert is its classification; `unclassified` until someone classifies it. */
export const ALERT_STATES = ['unclassified', 'true_positive', 'false_positive', 'benign'] as const;
export const AlertStateSchema = z.enum(ALERT_STATES);
export type AlertState = z.infer<typeof AlertStateSchema>;

/** Classifications a bulk action may set (the state minus `unclassified`). */
export const ALERT_CLASSIFICATIONS = ['true_positive', 'false_positive', 'benign'] as const;
export const AlertClassificationSchema = z.enum(ALERT_CLASSIFICATIONS);
export type AlertClassification = z.infer<typeof AlertClassificationSchema>;

/** Platforms alerts come from. */
export const ALERT_PLATFORMS = ['windows', 'linux', 'network', 'mail', 'cloud'] as const;
export const AlertPlatformSchema = z.enum(ALERT_PLATFORMS);
export type AlertPlatform = z.infer<typeof AlertPlatformSchema>;

/** Page size of an incident's alert table (`GET {incident}/alerts/?page=n`). */
export const ALERTS_PAGE_SIZE = 50;
/** Page size of the snapshots (CMDB assets) of an incident. */
export const SNAPSHOTS_PAGE_SIZE = 20;
/** Suggestions of tags and response teams (product §A9). */
export const TAGS_SUGGESTION_LIMIT = 5;
export const RESPONSE_TEAMS_LIMIT = 5;
/** Most tags an alert carries. */
export const ALERT_TAGS_MAX = 20;
export const TAG_NAME_MAX = 50;
/** Tag lists clip to 3 plus '+N'; source tags clip to 24 characters (product §A9). */
export const TAG_LIST_CLIP = 3;
export const SOURCE_TAG_CLIP = 24;
/** Most alerts (explicit plus those of the groups) one bulk action may change. */
export const ALERT_BULK_MAX = 1000;

/** Tag colours: antd preset names, or `#rrggbb`. */
export const TAG_PRESET_COLORS = [
  'magenta',
  'red',
  'volcano',
  'orange',
  'gold',
  'lime',
  'green',
  'cyan',
  'blue',
  'geekblue',
  'purple',
  'default',
] as const;

const tagColor = z
  .string({ error: 'This field is required.' })
  .trim()
  .refine((v) => (TAG_PRESET_COLORS as readonly string[]).includes(v) || /^#[0-9a-fA-F]{6}$/.test(v), {
    error: `Use one of ${TAG_PRESET_COLORS.join(', ')} or a #rrggbb colour.`,
  });

const tagName = z
  .string({ error: 'This field is required.' })
  .trim()
  .min(1, { error: 'This field may not be blank.' })
  .max(TAG_NAME_MAX, { error: `Ensure this field has no more than ${TAG_NAME_MAX} characters.` })
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  .refine((v) => !/[\u0000-\u001f<>]/.test(v), {
    error: 'Tag names may not hold control characters, < or >.',
  });

/** A tag on an alert (product §A3 Tag). */
export const TagSchema = z.object({ name: z.string(), color: z.string() });
export type Tag = z.infer<typeof TagSchema>;
export const TagInputSchema = z.strictObject({ name: tagName, color: tagColor });
export type TagInput = z.input<typeof TagInputSchema>;

/** A response team of a system that alerts are routed to. */
export const ResponseTeamSchema = z.object({ id: z.number().int(), name: z.string() });
export type ResponseTeam = z.infer<typeof ResponseTeamSchema>;

/** An asset an alert touches: the incident's snapshot of a CMDB asset (product §A3 CMDB asset reference). */
export const AlertAssetSchema = z.object({ cmdb_id: z.string(), name: z.string(), ip_address: z.string() });
export type AlertAsset = z.infer<typeof AlertAssetSchema>;

/** A row of an alert table (product §A3 Alert and the alert columns of other views). */
export const AlertSchema = z.object({
  uuid: z.guid(),
  severity: AlertSeveritySchema,
  title: z.string(),
  affected_assets: z.array(AlertAssetSchema),
  created_time: millis,
  updated_time: millis,
  tags: z.array(TagSchema),
  response_team: ResponseTeamSchema.nullable(),
  status: AlertStatusSchema,
  priority: AlertPrioritySchema,
  state: AlertStateSchema,
  /** Correlation group number (alerts of one group are bulk-handled together), or null. */
  group: z.number().int().nullable(),
  platform: AlertPlatformSchema,
  /** The incident key the alert is grouped into, or null. */
  incident: z.number().int().nullable(),
  /** True when the alert is grouped into an incident. */
  grouped: z.boolean(),
  /** Customer system (tenant). */
  system: z.object({ id: z.number().int(), is_id: z.string(), full_name: z.string() }),
  assignee: z.object({ id: z.number().int(), username: z.string() }).nullable(),
  /** The source's own tag (detection product, rule family); the table clips it to 24 characters. */
  source_tag: z.string(),
});
export type Alert = z.infer<typeof AlertSchema>;

/** GET {incident}/alerts/{uuid}/: the row plus what the detail panel shows. */
export const AlertDetailSchema = AlertSchema.extend({
  description: z.string(),
  /** Detection rule that raised the alert. */
  rule: z.string(),
  classification_details: z.string(),
  /** Events behind the alert. */
  events_count: z.number().int(),
});
export type AlertDetail = z.infer<typeof AlertDetailSchema>;

export const AlertPageSchema = pageOf(AlertSchema);
export type AlertPage = z.infer<typeof AlertPageSchema>;

/** GET {incident}/alerts/?page=n&page_size=&search= (newest first). */
export const IncidentAlertsQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(ALERTS_PAGE_SIZE),
  /** Trimmed; matches the title, the source tag and affected asset names. */
  search: searchText.optional(),
});
export type IncidentAlertsQuery = z.input<typeof IncidentAlertsQuerySchema>;

/** GET …/grouped_alert_data/: the alert's event fields with their distinct values and counts. */
export const GroupedAlertDataSchema = z.object({
  events_count: z.number().int(),
  results: z.array(
    z.object({
      field: z.string(),
      values: z.array(z.object({ value: z.string(), count: z.number().int() })),
    }),
  ),
});
export type GroupedAlertData = z.infer<typeof GroupedAlertDataSchema>;

/** A process of an alert's tree with its children (product §A7 `…/tree/`). */
export type AlertTreeNode = {
  id: string;
  process: string;
  pid: number;
  cmdline: string;
  user: string;
  host: string;
  time: number;
  /** This process's own event matched the detection rule. */
  matched: boolean;
  children: AlertTreeNode[];
};
export const AlertTreeNodeSchema: z.ZodType<AlertTreeNode> = z
  .lazy(
    () =>
      z.object({
        id: z.string(),
        process: z.string(),
        pid: z.number().int(),
        cmdline: z.string(),
        user: z.string(),
        host: z.string(),
        time: millis,
        matched: z.boolean(),
        children: z.array(AlertTreeNodeSchema),
      }),
    // recursive: the OpenAPI document refers to it by this name (#/components/schemas/AlertTreeNode)
  )
  .meta({ id: 'AlertTreeNode' });
export const AlertTreeSchema = z.object({ roots: z.array(AlertTreeNodeSchema) });
export type AlertTree = z.infer<typeof AlertTreeSchema>;

/** GET …/symptomatic/?page=n: the other alerts of the alert's correlation group. */
export const SymptomaticQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(ALERTS_PAGE_SIZE),
});

/** PATCH /soc/alerts/{uuid}/: tags (replace the list) and/or the response team ({id} or null). */
export const AlertPatchSchema = z
  .strictObject({
    tags: z
      .array(TagInputSchema)
      .max(ALERT_TAGS_MAX, { error: `Ensure this field has no more than ${ALERT_TAGS_MAX} elements.` })
      .refine((tags) => new Set(tags.map((t) => t.name.trim().toLowerCase())).size === tags.length, {
        error: 'Tag names must be unique.',
      })
      .optional(),
    response_team: z.strictObject({ id: z.number().int().positive() }).nullable().optional(),
  })
  .refine((v) => v.tags !== undefined || v.response_team !== undefined, {
    error: 'Give tags or response_team.',
    path: ['non_field_errors'],
  });
export type AlertPatch = z.input<typeof AlertPatchSchema>;

/** GET /soc/tags/?limit=5&q= */
export const TagsQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(50).default(TAGS_SUGGESTION_LIMIT),
  q: searchText.optional(),
});
export const TagListSchema = resultsOf(TagSchema);
export type TagList = z.infer<typeof TagListSchema>;

/** GET /soc/response_teams/?limit=5&search= */
export const ResponseTeamsQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(50).default(RESPONSE_TEAMS_LIMIT),
  search: searchText.optional(),
  /** Only the teams of this system (an alert can only get a team of its own system). */
  system: queryId.optional(),
});
export const ResponseTeamListSchema = resultsOf(ResponseTeamSchema);

/** Bulk actions on alerts. `attach` groups the alerts into `issue` (an incident key). */
export const ALERT_BULK_ACTIONS = ['close', 'reopen', 'take_in_work', 'attach'] as const;
export const AlertBulkActionSchema = z.enum(ALERT_BULK_ACTIONS);
export type AlertBulkAction = z.infer<typeof AlertBulkActionSchema>;

/** POST /soc/alerts/bulk/: all or nothing. */
export const AlertBulkPayloadSchema = z
  .strictObject({
    groups: z.array(z.number().int().nonnegative()).max(100).default([]),
    alerts: z
      .array(z.guid({ error: 'Must be a valid UUID.' }))
      .max(ALERT_BULK_MAX)
      .default([]),
    action: AlertBulkActionSchema,
    classification: AlertClassificationSchema.optional(),
    classification_details: z.string().trim().max(2000).default(''),
    /** Incident key for `attach`. */
    issue: z.number().int().positive().optional(),
  })
  .superRefine((v, ctx) => {
    if (!v.groups.length && !v.alerts.length)
      ctx.addIssue({ code: 'custom', path: ['non_field_errors'], message: 'Give alerts or groups.' });
    if (v.action === 'close' && !v.classification)
      ctx.addIssue({ code: 'custom', path: ['classification'], message: 'This field is required.' });
    if (v.action === 'attach' && v.issue === undefined)
      ctx.addIssue({ code: 'custom', path: ['issue'], message: 'This field is required.' });
  });
export type AlertBulkPayload = z.input<typeof AlertBulkPayloadSchema>;
export const AlertBulkResultSchema = z.object({ updated: z.number().int(), alerts: z.array(z.guid()) });

/** Orderings of GET /soc/alerts/ (minus: descending). */
export const ALERT_ORDERINGS = [
  'created_time',
  '-created_time',
  'updated_time',
  '-updated_time',
  'severity',
  '-severity',
  'priority',
  '-priority',
  'status',
  '-status',
  'title',
  '-title',
] as const;
export const AlertOrderingSchema = z.enum(ALERT_ORDERINGS);
export type AlertOrdering = z.infer<typeof AlertOrderingSchema>;

/** GET /soc/alerts/: the alert columns as filters (unknown parameters → 400). */
export const AlertListQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(ALERTS_PAGE_SIZE),
  ordering: AlertOrderingSchema.default('-created_time'),
  search: searchText.optional(),
  severity__in: csvList(AlertSeveritySchema).optional(),
  status__in: csvList(AlertStatusSchema).optional(),
  priority__in: csvList(AlertPrioritySchema).optional(),
  state__in: csvList(AlertStateSchema).optional(),
  platform__in: csvList(AlertPlatformSchema).optional(),
  group__in: csvList(z.coerce.number().int().nonnegative()).optional(),
  system__in: csvList(queryId).optional(),
  incident__in: csvList(queryId).optional(),
  assignee__in: csvList(queryId).optional(),
  assignee__isnull: queryBool.optional(),
  grouped: queryBool.optional(),
  title__icontains: searchText.optional(),
  affected_assets__icontains: searchText.optional(),
  created_time__gte: queryMillis.optional(),
  created_time__lte: queryMillis.optional(),
  updated_time__gte: queryMillis.optional(),
  updated_time__lte: queryMillis.optional(),
});
export type AlertListQuery = z.input<typeof AlertListQuerySchema>;
export type AlertListParams = z.output<typeof AlertListQuerySchema>;

/** A URL template for links out of an alert (threat-intel lookups and the like). */
export const LinkTemplateSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The alert event field whose value fills `{value}`. */
  field: z.string(),
  url_template: z.string(),
  /** Values of `field` in the alert (only for `available_links_templates/`). */
  values: z.array(z.string()),
});
export type LinkTemplate = z.infer<typeof LinkTemplateSchema>;
export const LinkTemplateListSchema = resultsOf(LinkTemplateSchema);

/** Protocols a link may use; anything else (javascript:, data:, file:) is refused. */
export const LINK_PROTOCOLS = ['http:', 'https:'] as const;

/** True when `url` is an absolute http(s) URL. */
export function isSafeLink(url: string): boolean {
  try {
    return (LINK_PROTOCOLS as readonly string[]).includes(new URL(url).protocol);
  } catch {
    return false;
  }
}

/** POST /api/v0/alerts/links_templates/ (analysts): `{value}` marks where the field's value goes. */
export const LinkTemplateCreateSchema = z.strictObject({
  name: z.string().trim().min(1, { error: 'This field may not be blank.' }).max(100),
  field: z
    .string()
    .trim()
    .regex(/^[a-z_]{1,40}$/, { error: 'Use a field name of the alert events.' }),
  url_template: z
    .string()
    .trim()
    .max(2000)
    .refine((v) => v.includes('{value}'), { error: 'The template must contain {value}.' })
    .refine((v) => isSafeLink(v.replaceAll('{value}', 'x')) && /^https?:\/\//i.test(v), {
      error: 'Only http and https links are allowed.',
    }),
});
export type LinkTemplateCreate = z.input<typeof LinkTemplateCreateSchema>;

/** GET /api/v0/alerts/{uuid}/link/?template=ID&value=V: the filled-in link. */
export const AlertLinkQuerySchema = z.strictObject({
  template: queryId,
  /** One of the template field's values in the alert; default the first. */
  value: z.string().max(2000).optional(),
});
export const AlertLinkSchema = z.object({ url: z.string() });

/** A CMDB asset as it was when involved in the incident (GET {incident}/snapshots/). */
export const SnapshotSchema = z.object({
  id: z.number().int(),
  cmdb_id: z.string(),
  name: z.string(),
  asset_type: z.string(),
  os: z.string(),
  ip_address: z.string(),
  fqdn: z.string(),
  criticality: z.string(),
  created: millis,
  /** Alerts of the incident that touch this asset. */
  alerts_count: z.number().int(),
});
export type Snapshot = z.infer<typeof SnapshotSchema>;
export const SnapshotPageSchema = pageOf(SnapshotSchema);
export const SnapshotsQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(SNAPSHOTS_PAGE_SIZE),
});

/** Misconfigurations of an incident: see misconfigs/misconfigs.schemas.ts. */
export const MisconfigsQuerySchema = SnapshotsQuerySchema;
