/** The users module (assignee suggestions, `/soc/users/`) and what other modules may use of it. */
import { API_BASE } from '@soc/contracts';
import type { AppModule } from '../app-module.ts';
import { usersRoutes } from './users.routes.ts';
import { createUsersService } from './users.service.ts';

export { createUsersService, displayName } from './users.service.ts';
export type { UsersService } from './users.service.ts';
export { shownName } from './users.presenter.ts';

export const usersModule: AppModule = async (app, { ctx }) => {
  await app.register(usersRoutes, {
    prefix: `${API_BASE}/soc`,
    users: createUsersService(ctx.db),
    config: ctx.config,
  });
};
