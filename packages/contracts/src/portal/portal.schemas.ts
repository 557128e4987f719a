import { z } from 'zod';

/**
 * Per-deployment branding and feature flags (GET /api/v0/portal/config/), read by the web app
 * before sign-in so that the login screen is branded too.
 */
export const PortalConfigSchema = z.object({
  /** Shown in page titles: `{title} | {portal_name}`. */
  portal_name: z.string(),
  /** URL of the logo image, or null for the built-in mark. */
  logo_url: z.string().nullable(),
  /** Primary colour of the theme, `#rrggbb`. */
  primary_color: z.string().regex(/^#[0-9a-fA-F]{6}$/),
  /** Product version (product §A1). */
  version: z.string(),
  /** Identifier of the deployed web build; a change means a new version is available. */
  build_id: z.string(),
  /** Brand-variant switches. */
  flags: z.object({
    hide_oidc_buttons: z.boolean(),
    hide_eps_widget: z.boolean(),
    alternate_category_filter: z.boolean(),
  }),
  /** Single sign-on through the trusted reverse proxy is on: the login screen offers it. */
  sso_enabled: z.boolean(),
  /** Sentry-compatible DSN for front-end error reports; null turns reporting off. */
  error_reporting_dsn: z.string().nullable(),
});
export type PortalConfig = z.infer<typeof PortalConfigSchema>;

/** Liveness and readiness answers. */
const ComponentStateSchema = z.enum(['ok', 'unavailable']);

export const HealthSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  /** Readiness: whether the database answers (while it does not, 503). */
  database: ComponentStateSchema.optional(),
  /**
   * Readiness: whether the file storage (the folder, or the S3 bucket) answers. Reported, not
   * decisive: every instance shares it, so its outage answers 503 on uploads and downloads only.
   */
  storage: ComponentStateSchema.optional(),
  /**
   * Readiness, with REDIS_URL: whether Redis is connected. Reported, not decisive: without it the
   * per-minute limits are not enforced, everything else works.
   */
  redis: ComponentStateSchema.optional(),
  /**
   * Readiness while it answers 503: the steps not ended yet (`database`: reached and migrated; `database pool`,
   * `ATT&CK data`…), the failed ones among them tried again; the server's log says why they failed.
   */
  warming_up: z.array(z.string()).optional(),
  /** Readiness while it answers 503: the warm-up steps whose last try failed. */
  failed: z.array(z.string()).optional(),
});
export type Health = z.infer<typeof HealthSchema>;
