import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LanguageSchema, PRODUCT_VERSION, PortalConfigSchema } from '@soc/contracts';
import { z } from 'zod';
import type { PortalConfig } from '@soc/contracts';
import type { Branding } from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import type { Db } from '../../db/client.ts';
import { effectiveBranding } from '../admin/index.ts';

/** The id of the web build being served, as its version.json records it. */
function readBuildId(webDist: string | undefined): string {
  if (!webDist) return 'dev';
  const file = path.join(webDist, 'version.json');
  if (!existsSync(file)) return 'dev';
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { build_id?: unknown };
    return typeof parsed.build_id === 'string' ? parsed.build_id : 'dev';
  } catch {
    return 'dev';
  }
}

export const presentPortalConfig = (config: Config, branding?: Branding): PortalConfig => ({
  portal_name: branding?.portal_name ?? config.branding.portalName,
  logo_url: branding ? branding.logo_url : config.branding.logoUrl,
  primary_color: branding?.primary_color ?? config.branding.primaryColor,
  version: PRODUCT_VERSION,
  build_id: readBuildId(config.webDist),
  flags: {
    hide_oidc_buttons: branding?.hide_oidc_buttons ?? config.branding.hideOidcButtons,
    hide_eps_widget: branding?.hide_eps_widget ?? config.branding.hideEpsWidget,
    alternate_category_filter: branding?.alternate_category_filter ?? config.branding.alternateCategoryFilter,
  },
  sso_enabled: Boolean(config.sso.header),
  error_reporting_dsn: config.errorReportingDsn,
});

/** Branding and feature flags of this deployment, read before sign-in. */
export const portalRoutes: FastifyPluginAsyncZod<{ config: Config; db: Db }> = async (
  app,
  { config, db },
) => {
  const buildId = readBuildId(config.webDist);
  app.get(
    '/config/',
    {
      config: { public: true },
      schema: {
        operationId: 'getPortalConfig',
        tags: ['portal'],
        summary: 'Branding and brand-variant flags',
        querystring: z.strictObject({ language: LanguageSchema.optional() }),
        response: { 200: PortalConfigSchema },
      },
    },
    async (_request, reply) => {
      void reply.header('cache-control', 'no-cache');
      // administrators change the branding at run time (admin API, `npm run admin`)
      return { ...presentPortalConfig(config, await effectiveBranding(db, config)), build_id: buildId };
    },
  );
};
