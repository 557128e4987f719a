import { z } from 'zod';
import { pageOf } from '../common/lists.schemas.ts';
import { csvList, queryId, queryMillis, searchText } from '../common/query.ts';
import {
  IncidentPrioritySchema,
  IncidentStatusSchema,
  SystemOptionSchema,
} from '../incidents/incidents.schemas.ts';

/** Asset inventory (CMDB), product §B2 Assets, §3 Asset and Software item, §7, §9. */
export const ASSET_TYPE_VALUES = ['workstation', 'server', 'network', 'virtual', 'mobile', 'other'] as const;
export const ASSET_CRITICALITY_VALUES = ['low', 'medium', 'high', 'critical'] as const;
export const AssetTypeSchema = z.enum(ASSET_TYPE_VALUES);
export type AssetType = z.infer<typeof AssetTypeSchema>;
export const AssetCriticalitySchema = z.enum(ASSET_CRITICALITY_VALUES);
export type AssetCriticality = z.infer<typeof AssetCriticalitySchema>;

export const ASSETS_PAGE_SIZE = 50;
/** Incidents of an asset per page (product §B9). */
export const ASSET_INCIDENTS_PAGE_SIZE = 15;
/** Installed software per page (product §B9: more pages while exactly 40 arrive). */
export const SOFTWARE_PAGE_SIZE = 40;
/** Count badges ask for this many rows and show 99+ above 99 (product §B9). */
export const COUNT_BADGE_LIMIT = 100;
/** The software panel is resizable between these widths (product §B2, §B9). */
export const SOFTWARE_PANEL_MIN_WIDTH = 450;
export const SOFTWARE_PANEL_MAX_WIDTH = 700;

export const ASSET_ORDERINGS = ['name', '-name', 'last_seen', '-last_seen'] as const;
export const AssetOrderingSchema = z.enum(ASSET_ORDERINGS);
export type AssetOrdering = z.infer<typeof AssetOrderingSchema>;

/** GET /cmdb/assets/ */
export const AssetListQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(ASSETS_PAGE_SIZE),
  /** Name, IP address or FQDN contains. */
  search: searchText.optional(),
  asset_type__in: csvList(AssetTypeSchema).optional(),
  os__in: csvList(z.string().max(200)).optional(),
  system__in: csvList(queryId).optional(),
  criticality__in: csvList(AssetCriticalitySchema).optional(),
  /** Last seen, milliseconds. */
  last_seen__gte: queryMillis.optional(),
  last_seen__lte: queryMillis.optional(),
  ordering: AssetOrderingSchema.default('name'),
});
export type AssetListQuery = z.infer<typeof AssetListQuerySchema>;

export const AssetSchema = z.object({
  cmdb_id: z.string(),
  name: z.string(),
  asset_type: AssetTypeSchema,
  os: z.string(),
  ip_address: z.string(),
  fqdn: z.string(),
  mac_address: z.string(),
  criticality: AssetCriticalitySchema,
  owner: z.string(),
  location: z.string(),
  /** Milliseconds. */
  first_seen: z.number().int(),
  last_seen: z.number().int(),
  system: SystemOptionSchema,
});
export type Asset = z.infer<typeof AssetSchema>;
export const AssetListResponseSchema = pageOf(AssetSchema);
export type AssetListResponse = z.infer<typeof AssetListResponseSchema>;

/** GET /cmdb/assets/choices/: values of the list filters among the caller's assets. */
export const AssetChoicesSchema = z.object({
  asset_types: z.array(AssetTypeSchema),
  criticalities: z.array(AssetCriticalitySchema),
  os: z.array(z.string()),
});
export type AssetChoices = z.infer<typeof AssetChoicesSchema>;

/** The cmdb_id in a path. */
export const AssetParamsSchema = z.object({ cmdbId: z.string().min(1).max(100) });

/** limit/offset pages of the asset tabs. */
export const AssetPageQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(COUNT_BADGE_LIMIT).default(ASSET_INCIDENTS_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export const AssetSoftwareQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(COUNT_BADGE_LIMIT).default(SOFTWARE_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  /** Name or vendor contains. */
  search: searchText.optional(),
});

/** An incident the asset was involved in (through its snapshot). */
export const AssetIncidentSchema = z.object({
  key: z.number().int(),
  summary: z.string(),
  status: IncidentStatusSchema,
  priority: IncidentPrioritySchema,
  /** Milliseconds. */
  created: z.number().int(),
});
export type AssetIncident = z.infer<typeof AssetIncidentSchema>;
export const AssetIncidentListResponseSchema = pageOf(AssetIncidentSchema);
export type AssetIncidentListResponse = z.infer<typeof AssetIncidentListResponseSchema>;

/** Software item (product §B3). */
export const SoftwareItemSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  vendor: z.object({ name: z.string() }),
  version: z.string(),
  /** Milliseconds; null when unknown. */
  install_time: z.number().int().nullable(),
});
export type SoftwareItem = z.infer<typeof SoftwareItemSchema>;
export const SoftwareListResponseSchema = pageOf(SoftwareItemSchema);
export type SoftwareListResponse = z.infer<typeof SoftwareListResponseSchema>;
