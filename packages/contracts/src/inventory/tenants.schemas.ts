import { z } from 'zod';
import { pageOf, resultsOf } from '../common/lists.schemas.ts';
import { LanguageSchema, csvList, queryBool, queryId, searchText } from '../common/query.ts';

/** Protected systems (tenants), product §B2 Tenants, §3 Protected system, Service, Contact. */
export const SYSTEMS_PAGE_SIZE = 20;
/** Filter suggestions fetch this many systems (product §B7, §B9). */
export const SYSTEM_SUGGEST_PAGE_SIZE = 7;
/** Minimum height of the systems table (product §B2). */
export const SYSTEMS_TABLE_MIN_HEIGHT = 600;

export const SYSTEM_ORDERINGS = [
  'is_id',
  '-is_id',
  'full_name',
  '-full_name',
  'service_manager',
  '-service_manager',
  'dedicated_analyst',
  '-dedicated_analyst',
] as const;
export const SystemOrderingSchema = z.enum(SYSTEM_ORDERINGS);
export type SystemOrdering = z.infer<typeof SystemOrderingSchema>;

/** GET /soc/systems/: pickers (`no_page`, `short`, `search`) and the systems table (filters, ordering). */
export const SystemListQuerySchema = z.strictObject({
  no_page: queryBool.optional(),
  /** Accepted for the pickers' calls; the answer is the same. */
  short: queryBool.optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(SYSTEMS_PAGE_SIZE),
  /** Code or name contains. */
  search: searchText.optional(),
  language: LanguageSchema.optional(),
  is_id__icontains: searchText.optional(),
  full_name__icontains: searchText.optional(),
  /** User ids. */
  service_manager__in: csvList(queryId).optional(),
  dedicated_analyst__in: csvList(queryId).optional(),
  ordering: SystemOrderingSchema.default('is_id'),
});
export type SystemListQuery = z.infer<typeof SystemListQuerySchema>;

/** A provider employee named on a system (service manager, dedicated analyst and doubles). */
export const SystemPersonSchema = z.object({
  id: z.number().int(),
  full_name: z.string(),
  email: z.string(),
});
export type SystemPerson = z.infer<typeof SystemPersonSchema>;

export const SystemStatusSchema = z.enum(['active', 'inactive']);
export type SystemStatus = z.infer<typeof SystemStatusSchema>;

/** A row of the systems table; a superset of the pickers' SystemOption. */
export const SystemListItemSchema = z.object({
  id: z.number().int(),
  is_id: z.string(),
  full_name: z.string(),
  status: SystemStatusSchema,
  /** Names of the system's services. */
  services: z.array(z.string()),
  service_manager: SystemPersonSchema.nullable(),
  dedicated_analyst: SystemPersonSchema.nullable(),
});
export type SystemListItem = z.infer<typeof SystemListItemSchema>;
export const SystemListResponseSchema = pageOf(SystemListItemSchema);
export type SystemListResponse = z.infer<typeof SystemListResponseSchema>;

export const SLA_CATEGORIES = ['critical', 'high', 'medium', 'low'] as const;
export const SlaRowSchema = z.object({
  category: z.enum(SLA_CATEGORIES),
  hours: z.number(),
  /** True: calendar hours (24/7); false: business hours. */
  calendar: z.boolean(),
  icon: z.string(),
});
export type SlaRow = z.infer<typeof SlaRowSchema>;

export const ContractSchema = z.object({
  name: z.string(),
  number: z.string(),
  /** YYYY-MM-DD. */
  start_date: z.string(),
  end_date: z.string().nullable(),
});
export type Contract = z.infer<typeof ContractSchema>;

export const SystemServiceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  contract: ContractSchema.nullable(),
  /** YYYY-MM-DD. */
  start_date: z.string(),
  sla: z.array(SlaRowSchema),
});
export type SystemService = z.infer<typeof SystemServiceSchema>;

export const ContactSchema = z.object({
  id: z.number().int(),
  last_name: z.string(),
  first_name: z.string(),
  patronimic: z.string(),
  email: z.string(),
  work_phone: z.string(),
  mobile_phone: z.string(),
});
export type Contact = z.infer<typeof ContactSchema>;

/** GET /soc/systems/{id}/: the system card. */
export const SystemCardSchema = z.object({
  id: z.number().int(),
  is_id: z.string(),
  full_name: z.string(),
  status: SystemStatusSchema,
  services: z.array(SystemServiceSchema),
  service_manager: SystemPersonSchema.nullable(),
  service_manager_double: SystemPersonSchema.nullable(),
  dedicated_analyst: SystemPersonSchema.nullable(),
  dedicated_analyst_double: SystemPersonSchema.nullable(),
  customer_contacts: z.array(ContactSchema),
});
export type SystemCard = z.infer<typeof SystemCardSchema>;

/** GET /soc/systems/people/?role=: choices of the two people filters (product §B6, "from settings"). */
export const SystemPeopleQuerySchema = z.strictObject({
  role: z.enum(['service_manager', 'dedicated_analyst']),
});
export const SystemPeopleResponseSchema = resultsOf(SystemPersonSchema);
export type SystemPeopleResponse = z.infer<typeof SystemPeopleResponseSchema>;
