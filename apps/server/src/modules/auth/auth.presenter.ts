import type { CurrentUser } from '@soc/contracts';
import { ROLE_PERMISSIONS } from '@soc/contracts';
import type { UserRow } from './auth.repository.ts';

export const presentCurrentUser = (user: UserRow): CurrentUser => ({
  id: user.id,
  username: user.username,
  first_name: user.firstName,
  last_name: user.lastName,
  email: user.email,
  permissions: [...ROLE_PERMISSIONS[user.role]],
  must_change_password: user.temporaryPasswordExpiresAt !== null,
});
