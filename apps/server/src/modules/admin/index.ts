/** Administration (`/admin/`; the CLI is admin.cli.ts), and what other modules use of it. */
import { API_BASE } from '@soc/contracts';
import type { AppModule } from '../app-module.ts';
import { createTokensService } from '../tokens/index.ts';
import { adminRoutes } from './admin.routes.ts';
import { createAdminService } from './admin.service.ts';
import { createAdminRulesService } from './rules.service.ts';

export { effectiveBranding } from './branding.ts';
// the administrators' commands, as the CLI runs them (tests set up data with them too)
export { CommandFailed, runAdminCommand } from './admin.commands.ts';

export const adminModule: AppModule = async (app, { ctx }) => {
  await app.register(adminRoutes, {
    prefix: `${API_BASE}/admin`,
    admin: createAdminService({ db: ctx.db, config: ctx.config, onUserChanged: ctx.forgetAuth }),
    tokens: createTokensService(ctx.db),
    rules: createAdminRulesService({ db: ctx.db, config: ctx.config }),
    config: ctx.config,
  });
};
