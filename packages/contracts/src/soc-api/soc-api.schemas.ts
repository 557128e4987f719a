import { z } from 'zod';
import { pageOf } from '../common/lists.schemas.ts';
import {
  ALERT_BULK_MAX,
  ALERT_TAGS_MAX,
  AlertPlatformSchema,
  AlertPrioritySchema,
  AlertSeveritySchema,
  TagInputSchema,
} from '../alerts/alerts.schemas.ts';
import {
  MISCONFIG_SEVERITIES,
  MISCONFIG_STATUSES,
  MisconfigSchema,
} from '../misconfigs/misconfigs.schemas.ts';
import { INCIDENT_IOCS_MAX, IocInputSchema } from '../alerts/iocs.schemas.ts';
import { DOCUMENT_DESCRIPTION_MAX } from '../documents/documents.schemas.ts';
import { INCIDENT_PRIORITIES, INCIDENT_SUMMARY_MAX } from '../incidents/incidents.schemas.ts';
import {
  RULE_ACTIVATION_MODES,
  RULE_LEVELS,
  RULE_SERVICE_LEVELS,
  RuleLinkUrlSchema,
  TECHNIQUE_ID,
} from '../rules/rules.schemas.ts';

/**
 * The analyst API (`/api/v0/analyst/…`, roles analyst and admin, also through service tokens):
 * what the provider's analysts and their SIEM/SOAR feed into the portal (issue 13). Create calls
 * take an `Idempotency-Key` header: a retry with the same key answers the first answer again.
 */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_KEY_MAX = 255;
/** How long an idempotency key is remembered. */
export const IDEMPOTENCY_TTL_HOURS = 24;

const blank = { error: 'This field may not be blank.' };
const millis = z.number().int().min(0).max(8_640_000_000_000_000);
const tacticName = z.string().regex(/^[a-z-]{1,64}$/, { error: 'Not a tactic short name.' });
const techniqueId = z.string().regex(TECHNIQUE_ID, { error: 'Not a technique id (T1234 or T1234.001).' });
const shortText = (max: number) => z.string().trim().min(1, blank).max(max);
const list = (max: number, item = shortText(255)) => z.array(item).max(max);
/** Tactic short name → technique ids (product §A3 mitre_cov). */
export const MitreCoverageInputSchema = z.record(tacticName, z.array(techniqueId).max(200));

/** One event behind an alert (process tree of the alert tab). */
export const AlertEventInputSchema = z.strictObject({
  id: shortText(64),
  parent: z.string().max(64).nullable().default(null),
  /** Milliseconds after the alert's created_time. */
  dt: z.number().int().min(0).default(0),
  host: z.string().max(255).default(''),
  user: z.string().max(255).default(''),
  process: z.string().max(255).default(''),
  pid: z.number().int().min(0).default(0),
  cmdline: z.string().max(8192).default(''),
  src_ip: z.string().max(64).optional(),
  dst_ip: z.string().max(64).optional(),
  domain: z.string().max(255).optional(),
  file_hash: z.string().max(128).optional(),
  action: z.string().max(64).optional(),
  matched: z.boolean().optional(),
});

/** An alert pushed with an incident or in bulk; its `uuid` makes a repeated push harmless. */
export const AnalystAlertInputSchema = z.strictObject({
  uuid: z.guid(),
  severity: AlertSeveritySchema,
  title: shortText(500),
  description: z.string().max(20_000).default(''),
  rule: z.string().max(255).default(''),
  source_tag: z.string().max(255).default(''),
  platform: AlertPlatformSchema,
  priority: AlertPrioritySchema.default('medium'),
  /** Millisecond timestamp; default now. */
  created_time: millis.optional(),
  /** CMDB ids of the system's assets the alert touches. */
  affected_assets: list(100, shortText(128)).default([]),
  events: z.array(AlertEventInputSchema).max(500).default([]),
  tags: z.array(TagInputSchema).max(ALERT_TAGS_MAX).default([]),
});
export type AnalystAlertInput = z.input<typeof AnalystAlertInputSchema>;

const incidentFields = {
  /** Service of the system the incident belongs to; default: the system's first service. */
  service: z.number().int().positive().optional(),
  primary_category: z.number().int().positive(),
  secondary_category: z.array(z.number().int().positive()).max(30).default([]),
  summary: shortText(INCIDENT_SUMMARY_MAX),
  /** Markdown. */
  description: z.string().trim().max(100_000).default(''),
  priority: z.enum(INCIDENT_PRIORITIES),
  tags: list(50, shortText(64)).default([]),
  /** Markdown. */
  recommendations: z.string().trim().max(100_000).default(''),
  status_description: z.string().trim().max(10_000).default(''),
  /** Names of affected systems or hosts as written by the analyst. */
  affected_systems: list(200).default([]),
  /** When the malicious activity was first detected (millisecond timestamp). */
  activity_detected_at: millis.nullable().default(null),
  observed_iocs: z.array(IocInputSchema).max(INCIDENT_IOCS_MAX).default([]),
  mitre_cov: MitreCoverageInputSchema.default({}),
  /** Names of the detection rules that fired. */
  detection_rules: list(200).default([]),
  /** CMDB ids of the system's assets involved: recorded as the incident's asset snapshots. */
  affected_assets: list(500, shortText(128)).default([]),
  /** Planned automatic report to the national centre (millisecond timestamp, in the future). */
  gossopka_planned_time: millis.nullable().default(null),
  /** Shown as the reporter; default: the caller's name. */
  reporter_name: z.string().trim().max(255).optional(),
};

/** POST /analyst/incidents/: an incident with every field of product §A3. */
export const AnalystIncidentCreateSchema = z.strictObject({
  system: z.number().int().positive(),
  issuetype: z.number().int().positive(),
  ...incidentFields,
  alerts: z.array(AnalystAlertInputSchema).max(ALERT_BULK_MAX).default([]),
});
export type AnalystIncidentCreate = z.input<typeof AnalystIncidentCreateSchema>;

/** PATCH /analyst/incidents/{key}/: any of the fields; lists replace the stored ones. */
export const AnalystIncidentUpdateSchema = z
  .strictObject({
    service: incidentFields.service,
    primary_category: incidentFields.primary_category.optional(),
    secondary_category: incidentFields.secondary_category.unwrap().optional(),
    summary: incidentFields.summary.optional(),
    description: z.string().trim().max(100_000).optional(),
    priority: incidentFields.priority.optional(),
    tags: list(50, shortText(64)).optional(),
    recommendations: z.string().trim().max(100_000).optional(),
    status_description: z.string().trim().max(10_000).optional(),
    affected_systems: list(200).optional(),
    activity_detected_at: millis.nullable().optional(),
    observed_iocs: z.array(IocInputSchema).max(INCIDENT_IOCS_MAX).optional(),
    mitre_cov: MitreCoverageInputSchema.optional(),
    detection_rules: list(200).optional(),
    /** Adds asset snapshots (existing ones stay as recorded). */
    affected_assets: list(500, shortText(128)).optional(),
    gossopka_planned_time: millis.nullable().optional(),
    /** The SOC assignee: a staff user's id, or null for none (never shown to customers). */
    soc_assignee: z.number().int().positive().max(2_147_483_647).nullable().optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { error: 'Nothing to change.' });
export type AnalystIncidentUpdate = z.input<typeof AnalystIncidentUpdateSchema>;

/** POST /analyst/incidents/{key}/status/: the analysts' own outcomes. */
export const AnalystStatusSchema = z.strictObject({
  status: z.enum(['completed', 'canceled']),
  /** Markdown; shown in the chat as the SOC's comment. */
  comment: shortText(20_000),
});
export type AnalystStatus = z.input<typeof AnalystStatusSchema>;

/** POST /analyst/incidents/{key}/comments/: a comment marked as the SOC's. */
export const AnalystCommentSchema = z.strictObject({
  /** Markdown (rendered and sanitised). */
  body: shortText(20_000),
});
export type AnalystComment = z.input<typeof AnalystCommentSchema>;

/**
 * POST /analyst/incidents/{key}/notes/: an internal note of the SOC. Staff read it through the
 * analyst API only; no customer path (answers, lists, search, counts, PDF, CSV, mail, webhooks,
 * events, notification centre) ever returns it or shows that it exists (design §9).
 */
export const AnalystNoteCreateSchema = z.strictObject({
  /** Markdown (rendered and sanitised as the analyst comment is). */
  body: shortText(20_000),
});
export type AnalystNoteCreate = z.input<typeof AnalystNoteCreateSchema>;

/** An internal note as staff read it. */
export const AnalystNoteSchema = z.object({
  id: z.number().int(),
  /** Display name of the analyst at the time of writing. */
  author: z.string(),
  author_id: z.number().int().nullable(),
  /** Sanitised HTML. */
  body: z.string(),
  created: z.number().int(),
  /** Always true: tells a note from a comment on a staff timeline. */
  internal: z.literal(true),
});
export type AnalystNote = z.infer<typeof AnalystNoteSchema>;

/** GET /analyst/incidents/{key}/notes/: a page of the notes, oldest first. */
export const AnalystNotesQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(50),
});
export const AnalystNoteListResponseSchema = pageOf(AnalystNoteSchema);
export type AnalystNoteListResponse = z.infer<typeof AnalystNoteListResponseSchema>;

/** POST /analyst/incidents/{key}/alerts/: alerts added in bulk, idempotent by uuid. */
export const AnalystAlertsBulkSchema = z.strictObject({
  alerts: z.array(AnalystAlertInputSchema).min(1).max(ALERT_BULK_MAX),
});
export type AnalystAlertsBulk = z.input<typeof AnalystAlertsBulkSchema>;
export const AnalystAlertsBulkResultSchema = z.object({
  /** uuids stored by this call. */
  created: z.array(z.guid()),
  /** uuids that this incident had already (a repeated push). */
  existing: z.array(z.guid()),
  /** uuids that belong to another incident or system: left unchanged. */
  conflicts: z.array(z.guid()),
});
export type AnalystAlertsBulkResult = z.infer<typeof AnalystAlertsBulkResultSchema>;

/** POST /analyst/log_sources/: a log source of a system. */
export const AnalystLogSourceCreateSchema = z.strictObject({
  system: z.number().int().positive(),
  name: shortText(255),
  /** e.g. windows, linux, firewall, proxy, edr, mail. */
  source_type: shortText(64),
  host: z.string().trim().max(255).default(''),
  silence_threshold_minutes: z.number().int().min(1).max(10_080).default(60),
});
export type AnalystLogSourceCreate = z.input<typeof AnalystLogSourceCreateSchema>;
export const AnalystLogSourceSchema = z.object({
  id: z.number().int(),
  system: z.number().int(),
  name: z.string(),
  source_type: z.string(),
  host: z.string(),
});

/**
 * POST /analyst/log_sources/{id}/eps/: event counts of a log source. Each sample falls into its
 * hour; `add` adds to the hour's count, `set` replaces it (a repeated `set` changes nothing).
 */
export const EpsSamplesSchema = z.strictObject({
  mode: z.enum(['add', 'set']).default('add'),
  samples: z
    .array(
      z.strictObject({
        /** Millisecond timestamp inside the hour counted. */
        at: millis,
        events: z.number().int().min(0).max(1_000_000_000_000),
      }),
    )
    .min(1)
    .max(10_000),
});
export type EpsSamples = z.input<typeof EpsSamplesSchema>;
export const EpsSamplesResultSchema = z.object({
  /** Hour buckets written. */
  buckets: z.number().int(),
  /** The source's latest event time (millisecond timestamp). */
  last_event_at: millis.nullable(),
});

/** POST /analyst/incidents/{key}/misconfigs/ */
export const AnalystMisconfigsCreateSchema = z.strictObject({
  items: z
    .array(
      z.strictObject({
        title: shortText(500),
        description: z.string().max(20_000).default(''),
        recommendation: z.string().max(20_000).default(''),
        severity: z.enum(MISCONFIG_SEVERITIES),
        status: z.enum(MISCONFIG_STATUSES).default('open'),
        /** Host names or addresses of the affected assets. */
        affected_assets: z.array(z.string().trim().min(1).max(255)).max(100).default([]),
      }),
    )
    .min(1)
    .max(500),
});
export type AnalystMisconfigsCreate = z.input<typeof AnalystMisconfigsCreateSchema>;
export const AnalystMisconfigsResultSchema = z.object({ results: z.array(MisconfigSchema) });

/** POST /analyst/rules/: publish a detection rule, created or replaced by its `rule_id`. */
export const AnalystRuleUpsertSchema = z.strictObject({
  rule_id: shortText(64),
  name: shortText(255),
  caption_ru: shortText(500),
  caption_en: shortText(500),
  description_ru: z.string().max(50_000).default(''),
  description_en: z.string().max(50_000).default(''),
  severity: z.enum(RULE_LEVELS),
  confidence: z.enum(RULE_LEVELS),
  categories: list(30, shortText(100)).default([]),
  available_for_services: z.array(z.enum(RULE_SERVICE_LEVELS)).max(4).default([]),
  activation_mode: z.enum(RULE_ACTIVATION_MODES).default('auto'),
  is_requested: z.boolean().default(false),
  mitre_cov: MitreCoverageInputSchema.default({}),
  platforms: list(20, shortText(64)).default([]),
  links: z
    .array(z.strictObject({ title: shortText(255), url: RuleLinkUrlSchema }))
    .max(20)
    .default([]),
  sensor_tuples: z
    .array(
      z.strictObject({
        sensor: shortText(100),
        sensor_module: z.string().max(100).default(''),
        sensor_type: z.string().max(100).default(''),
      }),
    )
    .max(50)
    .default([]),
});
export type AnalystRuleUpsert = z.input<typeof AnalystRuleUpsertSchema>;

/**
 * POST /analyst/markdown/: what a staff editor's Markdown will look like once saved, rendered and
 * sanitised as the server renders the staff's texts (descriptions, documents, SOC comments,
 * notes): the preview of every staff editor.
 */
export const MarkdownPreviewRequestSchema = z.strictObject({
  markdown: z.string().max(DOCUMENT_DESCRIPTION_MAX),
});
export type MarkdownPreviewRequest = z.input<typeof MarkdownPreviewRequestSchema>;
export const MarkdownPreviewSchema = z.object({
  /** Sanitised HTML. */
  html: z.string(),
});
export type MarkdownPreview = z.infer<typeof MarkdownPreviewSchema>;
