import { z } from 'zod';
import { pageOf } from '../common/lists.schemas.ts';
import { csvList, queryId, searchText } from '../common/query.ts';
import { SystemOptionSchema } from '../incidents/incidents.schemas.ts';

const millis = z.number().int();

/** Misconfiguration (security recommendation) severities, most severe first. */
export const MISCONFIG_SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
export const MisconfigSeveritySchema = z.enum(MISCONFIG_SEVERITIES);
export type MisconfigSeverity = z.infer<typeof MisconfigSeveritySchema>;

/** open: to be fixed; accepted_risk: the customer keeps it knowingly; fixed: the customer fixed it. */
export const MISCONFIG_STATUSES = ['open', 'accepted_risk', 'fixed'] as const;
export const MisconfigStatusSchema = z.enum(MISCONFIG_STATUSES);
export type MisconfigStatus = z.infer<typeof MisconfigStatusSchema>;

/** Actions on a recommendation: POST /soc/misconfigs/{id}/{action}/ with `{comment}`. */
export const MISCONFIG_ACTIONS = ['fix', 'accept_risk', 'reopen'] as const;
export const MisconfigActionSchema = z.enum(MISCONFIG_ACTIONS);
export type MisconfigAction = z.infer<typeof MisconfigActionSchema>;

/** The status each action leads to, and the statuses it may start from. */
export const MISCONFIG_ACTION_RULES: Record<
  MisconfigAction,
  { to: MisconfigStatus; from: readonly MisconfigStatus[]; commentRequired: boolean }
> = {
  fix: { to: 'fixed', from: ['open', 'accepted_risk'], commentRequired: false },
  accept_risk: { to: 'accepted_risk', from: ['open'], commentRequired: true },
  reopen: { to: 'open', from: ['fixed', 'accepted_risk'], commentRequired: true },
};

/** The actions that a recommendation in `status` allows. */
export const misconfigActions = (status: MisconfigStatus): MisconfigAction[] =>
  MISCONFIG_ACTIONS.filter((action) => MISCONFIG_ACTION_RULES[action].from.includes(status));

export const MISCONFIG_COMMENT_MAX = 5000;

/** Body of POST /soc/misconfigs/{id}/{action}/ (the comment is required where the rules say so). */
export const MisconfigActionPayloadSchema = z.strictObject({
  comment: z
    .string()
    .trim()
    .max(MISCONFIG_COMMENT_MAX, {
      error: `Ensure this field has no more than ${MISCONFIG_COMMENT_MAX} characters.`,
    })
    .default(''),
});
export type MisconfigActionPayload = z.input<typeof MisconfigActionPayloadSchema>;

export const MisconfigParamsSchema = z.strictObject({
  id: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 31 - 1),
});
export const MisconfigActionParamsSchema = MisconfigParamsSchema.extend({ action: MisconfigActionSchema });

/** An incident a recommendation is linked to (Remediation incidents). */
export const MisconfigIncidentSchema = z.object({ key: z.number().int(), summary: z.string() });

/**
 * A misconfiguration found by the SOC for one of the customer's systems (a security
 * recommendation, /misconfigs; also the misconfigurations tab of a Remediation incident).
 */
export const MisconfigSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  /** What was found (plain text). */
  description: z.string(),
  /** Remediation steps (plain text, one step a line). */
  recommendation: z.string(),
  severity: MisconfigSeveritySchema,
  status: MisconfigStatusSchema,
  /** Host names or addresses of the affected assets. */
  affected_assets: z.array(z.string()),
  system: SystemOptionSchema,
  created: millis,
  updated: millis,
  /** Linked Remediation incidents. */
  incidents: z.array(MisconfigIncidentSchema),
  /** The comment of the latest status change ('' when none). */
  status_comment: z.string(),
  /** Who changed the status last, and when (null: never changed). */
  status_changed_by: z.string().nullable(),
  status_changed_at: millis.nullable(),
  /** Actions the caller may take now. */
  available_actions: z.array(MisconfigActionSchema),
});
export type Misconfig = z.infer<typeof MisconfigSchema>;
export const MisconfigPageSchema = pageOf(MisconfigSchema);
export type MisconfigPage = z.infer<typeof MisconfigPageSchema>;

/** One status change of a recommendation, from the audit log. */
export const MisconfigHistoryEntrySchema = z.object({
  action: MisconfigActionSchema,
  from: MisconfigStatusSchema,
  to: MisconfigStatusSchema,
  comment: z.string(),
  user: z.string(),
  at: millis,
});
export type MisconfigHistoryEntry = z.infer<typeof MisconfigHistoryEntrySchema>;

/** GET /soc/misconfigs/{id}/: the recommendation with its status history, newest first. */
export const MisconfigDetailSchema = MisconfigSchema.extend({
  history: z.array(MisconfigHistoryEntrySchema),
});
export type MisconfigDetail = z.infer<typeof MisconfigDetailSchema>;

export const MISCONFIGS_PAGE_SIZE = 40;

export const MISCONFIG_ORDERINGS = [
  '-updated',
  'updated',
  '-created',
  'created',
  '-severity',
  'severity',
  'title',
  '-title',
] as const;
export const MisconfigOrderingSchema = z.enum(MISCONFIG_ORDERINGS);
export type MisconfigOrdering = z.infer<typeof MisconfigOrderingSchema>;
export const DEFAULT_MISCONFIG_ORDERING: MisconfigOrdering = '-severity';

/** The filters of GET /soc/misconfigs/ (also what the web list keeps in its URL). */
export const MisconfigFiltersShape = {
  /** Trimmed; matches the title, the description, the remediation text and the assets. */
  search: searchText.optional(),
  status__in: csvList(MisconfigStatusSchema).optional(),
  severity__in: csvList(MisconfigSeveritySchema).optional(),
  system__in: csvList(queryId).optional(),
  /** Exactly this title: the recommendations of one group of GET /soc/misconfigs/groups/. */
  title: z.string().trim().min(1).max(500).optional(),
};

/** GET /soc/misconfigs/ */
export const MisconfigListQuerySchema = z.strictObject({
  ...MisconfigFiltersShape,
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(MISCONFIGS_PAGE_SIZE),
  ordering: MisconfigOrderingSchema.default(DEFAULT_MISCONFIG_ORDERING),
});
export type MisconfigListQuery = z.infer<typeof MisconfigListQuerySchema>;

/**
 * GET /soc/misconfigs/groups/: the recommendations grouped by title, so that one recommendation
 * found on many assets is one entry with the assets inside (its items are the list filtered by
 * `title`). Groups with open items come first, then by highest severity, then by title.
 */
export const MisconfigGroupSchema = z.object({
  title: z.string(),
  /** The highest severity among the group's items. */
  severity: MisconfigSeveritySchema,
  /** Items (one per system and finding) by status, and in all. */
  total: z.number().int().nonnegative(),
  open: z.number().int().nonnegative(),
  accepted_risk: z.number().int().nonnegative(),
  fixed: z.number().int().nonnegative(),
  /** Distinct affected assets across the group's items. */
  assets: z.number().int().nonnegative(),
  /** The first few of them, for the card (the items list every one). */
  asset_sample: z.array(z.string()),
  /** When an item of the group last changed. */
  updated: millis,
});
export type MisconfigGroup = z.infer<typeof MisconfigGroupSchema>;
export const MisconfigGroupPageSchema = pageOf(MisconfigGroupSchema);
export type MisconfigGroupPage = z.infer<typeof MisconfigGroupPageSchema>;

export const MISCONFIG_GROUPS_PAGE_SIZE = 40;
/** Assets named on a group's card. */
export const MISCONFIG_GROUP_ASSET_SAMPLE = 5;

/** GET /soc/misconfigs/groups/ */
export const MisconfigGroupListQuerySchema = z.strictObject({
  ...MisconfigFiltersShape,
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(MISCONFIG_GROUPS_PAGE_SIZE),
});
export type MisconfigGroupListQuery = z.infer<typeof MisconfigGroupListQuerySchema>;
