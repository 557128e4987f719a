import type { CurrentUser } from '@soc/contracts';

/** "First Last", or the username when the user has no name on record. */
export const fullName = (user: Pick<CurrentUser, 'first_name' | 'last_name' | 'username'>): string =>
  [user.first_name, user.last_name]
    .map((part) => part.trim())
    .filter(Boolean)
    .join(' ') || user.username;
