import { z } from 'zod';
import { csvList, queryBool, queryId, queryMillis } from '../common/query.ts';
import { IncidentFiltersShape } from '../incidents/incidents.schemas.ts';

/** Dashboard grid (product §A9): 16 columns, margin 16, row height 30, widget height 10. */
export const DASHBOARD_GRID = { cols: 16, margin: 16, rowHeight: 30, widgetHeight: 10 } as const;
/** Auto-refresh and new-incident polling (product §A9). */
export const DASHBOARD_REFRESH_MS = 30_000;
/** Top-N widgets show 5 entries; status and category bars at most 9 (product §A4, §A9). */
export const DASHBOARD_TOP_N = 5;
export const DASHBOARD_BAR_MAX = 9;
/** EPS chart height in pixels (product §A4). */
export const EPS_CHART_HEIGHT = 550;
/** Widget title limit. */
export const WIDGET_TITLE_MAX = 100;

/** Widget kinds (product §A4) and the chart types each may switch between. */
export const WIDGET_KINDS = [
  'priority',
  'status',
  'timeline',
  'category',
  'sla',
  'top_domains',
  'top_ips',
  'eps',
  'mitre',
] as const;
export type WidgetKind = (typeof WIDGET_KINDS)[number];
export const CHART_TYPES = ['bar', 'pie', 'line', 'gauge', 'eps', 'matrix'] as const;
export type ChartType = (typeof CHART_TYPES)[number];
export const WIDGET_CHART_TYPES: Record<WidgetKind, readonly ChartType[]> = {
  priority: ['bar', 'pie'],
  status: ['bar', 'pie'],
  timeline: ['line'],
  category: ['bar', 'pie'],
  sla: ['gauge'],
  top_domains: ['bar'],
  top_ips: ['bar'],
  eps: ['eps'],
  mitre: ['matrix'],
};

/**
 * Dashboard filter types (product §A9) as incident-list parameters: the analytics call takes the
 * same filter grammar as `GET /soc/incs/`, so that a chart value opens the list with the same
 * count. Types without data in this product (source, actor, events source) have no parameter.
 */
export const DASHBOARD_FILTER_PARAMS = {
  status: 'status__in',
  priority: 'priority__in',
  category: 'category__in',
  created: 'created__gte/created__lte',
  tenant: 'system__in',
  sla_breached: 'sla_breached',
  notified_time: 'notified__gte/notified__lte',
  tactic: 'tactic__in',
  technique: 'technique__in',
  sla: 'sla__gte/sla__lte',
  host: 'host__icontains',
  national_centre: 'gossopka_id__isnull',
  rule: 'rule__in',
  service: 'service__in',
  resolution: 'resolution__in',
  issue_type: 'issuetype__in',
  assigned: 'customer_assignee__in',
} as const;

const { ordering: _ordering, ...filterShape } = IncidentFiltersShape;

/** GET /soc/incs/analytics/?{filters}&get_prev=True */
export const AnalyticsQuerySchema = z.strictObject({
  ...filterShape,
  /** Also count the period of the same length right before `created__gte`…`created__lte`. */
  get_prev: queryBool.optional(),
});
export type AnalyticsQuery = z.infer<typeof AnalyticsQuerySchema>;

/** GET /soc/incs/analytics/mitre_layer/?{filters}: the MITRE widget's counts as a Navigator layer. */
export const MitreLayerQuerySchema = z.strictObject(filterShape);
export type MitreLayerQuery = z.infer<typeof MitreLayerQuerySchema>;

/** An item/value pair of a chart; `title` is the display name where the item is an id. */
export const AnalyticsItemSchema = z.object({
  item: z.string(),
  value: z.number().int().nonnegative(),
  title: z.string().optional(),
});
export type AnalyticsItem = z.infer<typeof AnalyticsItemSchema>;

export const TIMESPANS = ['hour', 'day'] as const;
export const TimespanSchema = z.enum(TIMESPANS);
export type Timespan = z.infer<typeof TimespanSchema>;

/** A timeline point: bucket start (ms), its length and the number in it. */
export const TimelineEntrySchema = z.object({
  item: z.number().int(),
  value: z.number(),
  timespan: TimespanSchema,
});
export type TimelineEntry = z.infer<typeof TimelineEntrySchema>;

export const AnalyticsSchema = z.object({
  count: z.number().int().nonnegative(),
  critical_count: z.number().int().nonnegative(),
  waiting_for_customer: z.number().int().nonnegative(),
  /** Share of SLA-breached incidents, percent (0–100, two decimals). */
  sla_breached: z.number().min(0).max(100),
  sla_breached_count: z.number().int().nonnegative(),
  /** The period of the same length before the range (with get_prev and a created range), else null. */
  previous: z
    .object({
      count: z.number().int().nonnegative(),
      sla_breached: z.number().min(0).max(100),
      created__gte: z.number().int(),
      created__lte: z.number().int(),
    })
    .nullable(),
  /** Events per second of the systems in scope over the range (hourly buckets). */
  eps: z.object({ average: z.number(), contracted: z.number().int(), max: z.number() }),
  /** Incidents per ATT&CK technique id and per tactic short name. */
  mitre: z.array(AnalyticsItemSchema),
  tactics: z.array(AnalyticsItemSchema),
  priority: z.array(AnalyticsItemSchema),
  status: z.array(AnalyticsItemSchema),
  category: z.array(AnalyticsItemSchema),
  top_domains: z.array(AnalyticsItemSchema),
  top_ips: z.array(AnalyticsItemSchema),
  timeline: z.array(TimelineEntrySchema),
});
export type Analytics = z.infer<typeof AnalyticsSchema>;

/** GET /soc/dashboards/eps/ */
export const EpsQuerySchema = z.strictObject({
  system__in: csvList(queryId).optional(),
  created__gte: queryMillis.optional(),
  created__lte: queryMillis.optional(),
});
export type EpsQuery = z.infer<typeof EpsQuerySchema>;

export const EpsBucketSchema = z.object({ start: z.number().int(), end: z.number().int() });
export type EpsBucket = z.infer<typeof EpsBucketSchema>;

export const EpsSchema = z.object({
  /** Average EPS of each bucket (hour or day). */
  timeline: z.array(TimelineEntrySchema),
  /** Sum of the contracted EPS of the services of the systems in scope (0: none contracted). */
  contracted_eps: z.number().int().nonnegative(),
  /** Seconds of hourly buckets above the contracted EPS. */
  excess_duration: z.number().int().nonnegative(),
  excess_max_value: z.number(),
  /** Runs of consecutive hours above the contracted EPS. */
  excess_buckets: z.array(EpsBucketSchema),
  excess: z.object({
    excess_duration: z.number().int().nonnegative(),
    max_value: z.number(),
    excess_count: z.number().int().nonnegative(),
    /** The hourly buckets above the contracted EPS (start, end), newest last. */
    timeline_buckets: z.array(EpsBucketSchema.extend({ value: z.number() })),
  }),
});
export type Eps = z.infer<typeof EpsSchema>;

/**
 * GET /soc/mitre_matrix/?description=false: the matrix without the techniques' descriptions
 * (17 KB instead of 284 KB with Brotli), for views that show only names, such as the dashboard
 * widget.
 * By default the answer carries them (product §A3 MITRE).
 */
export const MitreMatrixQuerySchema = z.strictObject({
  description: queryBool.optional(),
});
export type MitreMatrixQuery = z.infer<typeof MitreMatrixQuerySchema>;

/** GET /soc/mitre_matrix/: MITRE ATT&CK Enterprise (product §A3 MITRE). */
export const MitreTacticSchema = z.object({
  id: z.string(),
  name: z.string(),
  short_name: z.string(),
  is_hidden: z.boolean(),
});
export type MitreTactic = z.infer<typeof MitreTacticSchema>;

export const MitreTechniqueSchema = z.object({
  technique_id: z.string(),
  name: z.string(),
  url: z.string(),
  /** MITRE's description (Markdown); left out with `?description=false`. */
  description: z.string().optional(),
  /** Tactic short names. */
  tactics: z.array(z.string()),
  /** Ids of the sub-techniques. */
  sub_techniques: z.array(z.string()),
  is_subtechnique: z.boolean(),
  is_revoked: z.boolean(),
  is_deprecated: z.boolean(),
});
export type MitreTechnique = z.infer<typeof MitreTechniqueSchema>;

export const MitreMatrixSchema = z.object({
  /** False when no ATT&CK bundle could be read: names are empty, the web shows ids and a notice. */
  available: z.boolean(),
  /** ATT&CK version of the bundle (x-mitre-matrix / collection), when known. */
  version: z.string().nullable(),
  tactics: z.array(MitreTacticSchema),
  techniques: z.array(MitreTechniqueSchema),
  /** MITRE's copyright and licence notice, shown beside the matrix. */
  notice: z.string(),
});
export type MitreMatrix = z.infer<typeof MitreMatrixSchema>;

/** MITRE's copyright notice (reproduced wherever ATT&CK data is shown). */
export const MITRE_NOTICE =
  '© 2025 The MITRE Corporation. This work is reproduced and distributed with the permission of The MITRE Corporation. ' +
  'ATT&CK® is a registered trademark of The MITRE Corporation.';

/** Heat level of a technique cell (product §A9): none at 0, else by its share of the maximum. */
export const MITRE_HEAT_LEVELS = ['none', 'low', 'medium', 'high', 'higher'] as const;
export type MitreHeatLevel = (typeof MITRE_HEAT_LEVELS)[number];

/**
 * The heat level of a count, given the largest count of the matrix: by quarters of the maximum,
 * above 3/4 'higher', above 1/2 'high', above 1/4 'medium', else 'low'; 0 is 'none'. (The bands
 * first specified, 29 %, 31 % and 36 % of the maximum, made nearly every cell of a busy period
 * 'higher', so that the matrix was one red.)
 */
export function mitreHeatLevel(count: number, max: number): MitreHeatLevel {
  if (count <= 0 || max <= 0) return 'none';
  const share = count / max;
  if (share > 0.75) return 'higher';
  if (share > 0.5) return 'high';
  if (share > 0.25) return 'medium';
  return 'low';
}
