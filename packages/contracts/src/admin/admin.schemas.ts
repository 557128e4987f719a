import { z } from 'zod';
import { RoleSchema } from '../auth/auth.schemas.ts';
import { pageOf } from '../common/lists.schemas.ts';
import { queryBool, searchText } from '../common/query.ts';
import { SLA_CATEGORIES, SystemStatusSchema } from '../inventory/tenants.schemas.ts';

/**
 * Administration (`/api/v0/admin/…`, role admin; the same operations as `npm run admin`):
 * systems, contracts, services with SLA, contacts, users, branding (issue 13).
 */
export const ADMIN_PAGE_SIZE = 20;

const blank = { error: 'This field may not be blank.' };
const text = (max: number) => z.string().trim().min(1, blank).max(max);
const optionalText = (max: number) => z.string().trim().max(max);
/** YYYY-MM-DD. */
const isoDate = z.iso.date();
const userRef = z.number().int().positive().nullable();
const EMAIL = /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@([a-z0-9-]{1,63}\.)+[a-z]{2,63}$/i;
const email = z.string().trim().max(254).regex(EMAIL, { error: 'Enter a valid email address.' });
const phone = z
  .string()
  .trim()
  .regex(/^\+?[0-9 ()-]{5,20}$/, { error: 'Enter a valid phone number.' });
const LocaleSchema = z.enum(['ru', 'en']);

export const AdminPageQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(ADMIN_PAGE_SIZE),
  search: searchText.optional(),
});
export type AdminPageQuery = z.output<typeof AdminPageQuerySchema>;

// systems

export const AdminSystemCreateSchema = z.strictObject({
  /** The information-system code customers see, e.g. `IS-0006`. */
  is_id: text(32).regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, {
    error: 'Letters, digits, dots, dashes and underscores.',
  }),
  full_name: text(255),
  status: SystemStatusSchema.default('active'),
  service_manager_id: userRef.optional(),
  service_manager_double_id: userRef.optional(),
  dedicated_analyst_id: userRef.optional(),
  dedicated_analyst_double_id: userRef.optional(),
  /**
   * The name under which the SOC's replies are shown to this system's customers (e.g. "Acme SOC")
   * instead of the analyst's; null or absent: as the analyst. Applies to replies written after.
   */
  soc_reply_name: text(64).nullable().optional(),
});
export type AdminSystemCreate = z.input<typeof AdminSystemCreateSchema>;
export const AdminSystemUpdateSchema = AdminSystemCreateSchema.partial();
export type AdminSystemUpdate = z.input<typeof AdminSystemUpdateSchema>;

export const AdminSlaRowSchema = z.strictObject({
  category: z.enum(SLA_CATEGORIES),
  /** Notification deadline in hours. */
  hours: z.number().positive().max(10_000),
  /** True: calendar hours (24/7); false: business hours. */
  calendar: z.boolean().default(true),
});
export type AdminSlaRow = z.output<typeof AdminSlaRowSchema>;

export const AdminContractSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  number: z.string(),
  start_date: z.string(),
  end_date: z.string().nullable(),
});
export const AdminContractCreateSchema = z.strictObject({
  name: text(255),
  number: text(64),
  start_date: isoDate,
  end_date: isoDate.nullable().optional(),
});
export type AdminContractCreate = z.input<typeof AdminContractCreateSchema>;
export const AdminContractUpdateSchema = AdminContractCreateSchema.partial();

export const AdminServiceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  contract_id: z.number().int().nullable(),
  start_date: z.string(),
  contracted_eps: z.number().int(),
  sla: z.array(z.object({ category: z.enum(SLA_CATEGORIES), hours: z.number(), calendar: z.boolean() })),
});
export const AdminServiceCreateSchema = z.strictObject({
  /** Vision, Horizon, Focus, Panorama… */
  name: text(100),
  start_date: isoDate,
  contract_id: z.number().int().positive().nullable().optional(),
  contracted_eps: z.number().int().min(0).max(10_000_000).default(0),
  /** Replaces the service's SLA rows; one per category at most. */
  sla: z
    .array(AdminSlaRowSchema)
    .max(4)
    .refine((rows) => new Set(rows.map((r) => r.category)).size === rows.length, {
      error: 'One row per category.',
    })
    .optional(),
});
export type AdminServiceCreate = z.input<typeof AdminServiceCreateSchema>;
export const AdminServiceUpdateSchema = AdminServiceCreateSchema.partial();
export type AdminServiceUpdate = z.input<typeof AdminServiceUpdateSchema>;

export const AdminContactSchema = z.object({
  id: z.number().int(),
  last_name: z.string(),
  first_name: z.string(),
  patronimic: z.string(),
  email: z.string(),
  work_phone: z.string(),
  mobile_phone: z.string(),
  locale: LocaleSchema,
  notify: z.boolean(),
});
export const AdminContactCreateSchema = z.strictObject({
  last_name: text(100),
  first_name: text(100),
  patronimic: optionalText(100).default(''),
  email: email.or(z.literal('')).default(''),
  work_phone: phone.or(z.literal('')).default(''),
  mobile_phone: phone.or(z.literal('')).default(''),
  /** Language of the notification e-mails. */
  locale: LocaleSchema.default('ru'),
  /** Receives incident notifications. */
  notify: z.boolean().default(true),
});
export type AdminContactCreate = z.input<typeof AdminContactCreateSchema>;
export const AdminContactUpdateSchema = AdminContactCreateSchema.partial();
export type AdminContactUpdate = z.input<typeof AdminContactUpdateSchema>;

export const AdminSystemSchema = z.object({
  id: z.number().int(),
  is_id: z.string(),
  full_name: z.string(),
  status: SystemStatusSchema,
  service_manager_id: z.number().int().nullable(),
  service_manager_double_id: z.number().int().nullable(),
  dedicated_analyst_id: z.number().int().nullable(),
  dedicated_analyst_double_id: z.number().int().nullable(),
  soc_reply_name: z.string().nullable(),
  contracts: z.array(AdminContractSchema),
  services: z.array(AdminServiceSchema),
  contacts: z.array(AdminContactSchema),
  created_at: z.string(),
});
export type AdminSystem = z.infer<typeof AdminSystemSchema>;
export const AdminSystemPageSchema = pageOf(
  AdminSystemSchema.pick({ id: true, is_id: true, full_name: true, status: true, created_at: true }),
);

// users

export const AdminUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  role: RoleSchema,
  is_active: z.boolean(),
  locale: LocaleSchema,
  /** System ids the user belongs to. */
  systems: z.array(z.number().int()),
  /** Phone of the SMS second factor, or null. */
  mfa_phone: z.string().nullable(),
  /** An authenticator app is enrolled. */
  totp_enabled: z.boolean(),
  last_login_at: z.string().nullable(),
  created_at: z.string(),
});
export type AdminUser = z.infer<typeof AdminUserSchema>;
export const AdminUserPageSchema = pageOf(AdminUserSchema);

export const AdminUserListQuerySchema = AdminPageQuerySchema.extend({
  role: RoleSchema.optional(),
  is_active: queryBool.optional(),
  system: z.coerce.number().int().positive().optional(),
});
export type AdminUserListQuery = z.output<typeof AdminUserListQuerySchema>;

export const UserInviteSchema = z.strictObject({
  username: text(150).regex(/^[\w.@+-]+$/, { error: 'Letters, digits and @ . + - _ only.' }),
  email,
  first_name: optionalText(150).default(''),
  last_name: optionalText(150).default(''),
  role: RoleSchema.default('customer'),
  locale: LocaleSchema.default('ru'),
  /** System ids; customers see only these. */
  systems: z.array(z.number().int().positive()).max(1000).default([]),
  mfa_phone: phone.nullable().optional(),
});
export type UserInvite = z.input<typeof UserInviteSchema>;

/** The invited user and a one-time password to hand over (shown once; the user changes it). */
export const UserInvitedSchema = AdminUserSchema.extend({ temporary_password: z.string() });
export type UserInvited = z.infer<typeof UserInvitedSchema>;

export const UserUpdateSchema = z.strictObject({
  email: email.optional(),
  first_name: optionalText(150).optional(),
  last_name: optionalText(150).optional(),
  role: RoleSchema.optional(),
  locale: LocaleSchema.optional(),
  /** false ends every session and stops every API token of the user at once. */
  is_active: z.boolean().optional(),
  /** Replaces the user's systems. */
  systems: z.array(z.number().int().positive()).max(1000).optional(),
  /** null removes the SMS second factor. */
  mfa_phone: phone.nullable().optional(),
});
export type UserUpdate = z.input<typeof UserUpdateSchema>;

// branding

const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;
/**
 * PUT /admin/branding/: overrides of the environment's branding; a null value returns to the
 * environment default. A logo is a same-origin path or an inline `data:image/…` URL (the content
 * security policy allows no other origin).
 */
export const BrandingUpdateSchema = z.strictObject({
  portal_name: text(100).nullable().optional(),
  logo_url: z
    .string()
    .trim()
    .max(200_000)
    .refine((v) => /^\/(?!\/)/.test(v) || /^data:image\/(png|jpeg|gif|webp|svg\+xml);base64,/.test(v), {
      error: 'Use a path on this server (/…) or a data:image URL.',
    })
    .nullable()
    .optional(),
  primary_color: z.string().regex(HEX_COLOR, { error: 'Use #rrggbb.' }).nullable().optional(),
  hide_oidc_buttons: z.boolean().nullable().optional(),
  hide_eps_widget: z.boolean().nullable().optional(),
  alternate_category_filter: z.boolean().nullable().optional(),
});
export type BrandingUpdate = z.input<typeof BrandingUpdateSchema>;

export const BrandingSchema = z.object({
  portal_name: z.string(),
  logo_url: z.string().nullable(),
  primary_color: z.string(),
  hide_oidc_buttons: z.boolean(),
  hide_eps_widget: z.boolean(),
  alternate_category_filter: z.boolean(),
  /** Which of the values above are overridden here (the rest come from the environment). */
  overridden: z.array(z.string()),
});
export type Branding = z.infer<typeof BrandingSchema>;
