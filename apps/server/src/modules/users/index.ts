/** What other modules may use of the users module. */
export { usersRoutes } from './users.routes.ts';
export { createUsersService, displayName } from './users.service.ts';
export type { UsersService } from './users.service.ts';
export { shownName } from './users.presenter.ts';
