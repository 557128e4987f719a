import { z } from 'zod';
import { RoleSchema } from '../auth/auth.schemas.ts';
import { pageOf } from '../common/lists.schemas.ts';
import { queryBool } from '../common/query.ts';

/** Every API token starts with this, so that the server (and secret scanners) recognise one. */
export const API_TOKEN_PREFIX = 'socp_';
/** Characters of a token shown in lists (the prefix plus the first characters of the secret). */
export const API_TOKEN_SHOWN_CHARS = 12;
/** Page size of the token lists. */
export const API_TOKENS_PAGE_SIZE = 20;
/** Active personal tokens one user may hold. */
export const PERSONAL_TOKENS_MAX = 20;
export const API_TOKEN_NAME_MAX = 100;
/** A personal token's lifetime when the creator picks none, in days. */
export const PERSONAL_TOKEN_DEFAULT_DAYS = 90;
/** The longest lifetime a personal token may be given, in days. */
export const PERSONAL_TOKEN_MAX_DAYS = 365;
const DAY_MS = 86_400_000;

export const ApiTokenKindSchema = z.enum(['service', 'personal']);
export type ApiTokenKind = z.infer<typeof ApiTokenKindSchema>;

/** A token as lists show it: never the secret nor its hash. */
export const ApiTokenSchema = z.object({
  id: z.guid(),
  name: z.string(),
  kind: ApiTokenKindSchema,
  /** The first characters of the token, e.g. `socp_Ab12Cd3`. */
  prefix: z.string(),
  /** The account the token acts as. */
  user: z.object({ id: z.number().int(), username: z.string() }),
  role: RoleSchema,
  /** Systems the token is limited to; empty: all that its role and user allow. */
  systems: z.array(z.number().int()),
  read_only: z.boolean(),
  /** ISO 8601 times; null: never. */
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  last_used_ip: z.string().nullable(),
  revoked_at: z.string().nullable(),
  created_at: z.string(),
});
export type ApiToken = z.infer<typeof ApiTokenSchema>;

/** The answer of a create call: the only time the secret is shown. */
export const ApiTokenCreatedSchema = ApiTokenSchema.extend({
  /** The secret to send as `Authorization: Bearer <token>`; it cannot be shown again. */
  token: z.string(),
});
export type ApiTokenCreated = z.infer<typeof ApiTokenCreatedSchema>;

export const ApiTokenPageSchema = pageOf(ApiTokenSchema);
export type ApiTokenPage = z.infer<typeof ApiTokenPageSchema>;

const tokenName = z.string().trim().min(1, { error: 'This field may not be blank.' }).max(API_TOKEN_NAME_MAX);
/** An ISO 8601 expiry in the future, or null for none (service tokens). */
const expiresAt = z.iso
  .datetime({ offset: true })
  .nullable()
  .optional()
  .refine((v) => !v || Date.parse(v) > Date.now(), { error: 'The expiry must be in the future.' });

/** Server-side messages of personal token creation (the server answers them in ru or en). */
export const PERSONAL_TOKEN_MESSAGES = {
  passwordRequired: 'Enter your password',
  expiryTooFar: `A personal token may live at most ${PERSONAL_TOKEN_MAX_DAYS} days.`,
} as const;

/**
 * A personal token's expiry: an ISO 8601 time in the future, at most a year ahead; omitted: in
 * 90 days. A personal token never lives for ever.
 */
const personalExpiresAt = z.iso
  .datetime({ offset: true })
  .optional()
  .refine((v) => !v || Date.parse(v) > Date.now(), { error: 'The expiry must be in the future.' })
  .refine((v) => !v || Date.parse(v) <= Date.now() + PERSONAL_TOKEN_MAX_DAYS * DAY_MS, {
    error: PERSONAL_TOKEN_MESSAGES.expiryTooFar,
  });

/** POST /auth/tokens/: a read-only personal token of the signed-in user. */
export const PersonalTokenCreateSchema = z.strictObject({
  name: tokenName,
  /** The caller's current password: a stolen session alone cannot mint a lasting credential. */
  password: z
    .string({ error: PERSONAL_TOKEN_MESSAGES.passwordRequired })
    .min(1, { error: PERSONAL_TOKEN_MESSAGES.passwordRequired })
    .max(256),
  /** Default: 90 days from now; at most 365 days ahead. */
  expires_at: personalExpiresAt,
  /** Limit to some of the user's systems; omitted or empty: all of them. */
  systems: z.array(z.number().int().positive()).max(1000).optional(),
});
export type PersonalTokenCreate = z.input<typeof PersonalTokenCreateSchema>;

/** POST /admin/service_tokens/: a token for an integration, acting as `user_id`. */
export const ServiceTokenCreateSchema = z.strictObject({
  name: tokenName,
  /** The account the integration acts as (e.g. an analyst account `siem`). */
  user_id: z.number().int().positive(),
  /** Defaults to the user's role; may not exceed it. */
  role: RoleSchema.optional(),
  systems: z.array(z.number().int().positive()).max(1000).optional(),
  read_only: z.boolean().default(false),
  expires_at: expiresAt,
});
export type ServiceTokenCreate = z.input<typeof ServiceTokenCreateSchema>;

export const ApiTokenListQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(API_TOKENS_PAGE_SIZE),
  /** Include revoked and expired tokens (default: only usable ones). */
  include_revoked: queryBool.optional(),
});
export type ApiTokenListQuery = z.input<typeof ApiTokenListQuerySchema>;
export type ApiTokenListParams = z.output<typeof ApiTokenListQuerySchema>;
