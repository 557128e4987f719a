import type { UserListItem } from '@soc/contracts';

/** The name a user is shown by: first and last name, or the username when both are empty. */
export const shownName = (u: { first: string; last: string; username: string }): string =>
  `${u.first} ${u.last}`.trim() || u.username;

export const presentUserListItem = (r: Omit<UserListItem, 'full_name'>): UserListItem => ({
  ...r,
  full_name: shownName({ first: r.first_name, last: r.last_name, username: r.username }),
});
