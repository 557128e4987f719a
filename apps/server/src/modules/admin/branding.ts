import type { Branding, BrandingUpdate } from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import type { Db } from '../../db/client.ts';
import { createAdminRepository } from './admin.repository.ts';

export const BRANDING_KEY = 'branding';
/** The settings an administrator may override (and reset to the environment's). */
export const BRANDING_FIELDS = [
  'portal_name',
  'logo_url',
  'primary_color',
  'hide_oidc_buttons',
  'hide_eps_widget',
  'alternate_category_filter',
] as const;

/** The branding in force: the administrators' overrides over the environment's values. */
export async function effectiveBranding(db: Db, config: Config): Promise<Branding> {
  const stored = (await createAdminRepository(db).setting(BRANDING_KEY)) ?? {};
  const env = config.branding;
  const base: Omit<Branding, 'overridden'> = {
    portal_name: env.portalName,
    logo_url: env.logoUrl,
    primary_color: env.primaryColor,
    hide_oidc_buttons: env.hideOidcButtons,
    hide_eps_widget: env.hideEpsWidget,
    alternate_category_filter: env.alternateCategoryFilter,
  };
  const overridden = BRANDING_FIELDS.filter((f) => stored[f] !== undefined && stored[f] !== null);
  return { ...base, ...Object.fromEntries(overridden.map((f) => [f, stored[f]])), overridden };
}

/** Merges an update into the stored overrides; null removes an override. */
export function mergeBranding(
  stored: Record<string, unknown>,
  update: BrandingUpdate,
): Record<string, unknown> {
  const next: Record<string, unknown> = { ...stored };
  for (const f of BRANDING_FIELDS) {
    const v = update[f];
    if (v === undefined) continue;
    if (v === null) delete next[f];
    else next[f] = v;
  }
  return next;
}
