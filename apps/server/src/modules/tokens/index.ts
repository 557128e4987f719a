/** API tokens (`/auth/tokens/`), and what other modules use of them. */
import { API_BASE } from '@soc/contracts';
import type { AppModule } from '../app-module.ts';
import { tokensRoutes } from './tokens.routes.ts';
import { createTokensService } from './tokens.service.ts';

export { createTokensService } from './tokens.service.ts';
export type { Actor, TokensService } from './tokens.service.ts';
export { revokeAllCredentials } from './revoke-all-credentials.ts';
export { createLoginThrottleRepository } from './login-throttle.repository.ts';

export const tokensModule: AppModule = async (app, { ctx }) => {
  await app.register(tokensRoutes, {
    prefix: `${API_BASE}/auth`,
    tokens: createTokensService(ctx.db),
    config: ctx.config,
  });
};
