import type { UserListItem } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { likePattern } from '../../lib/pagination.ts';
import type { AuthContext } from '../../core/auth.ts';
import { systemScope } from '../../core/auth.ts';
import { presentUserListItem, shownName } from './users.presenter.ts';
import { createUsersRepository } from './users.repository.ts';

/** A user's shown name and e-mail address, as comments and messages record their author. */
export async function displayName(db: Db, userId: number): Promise<{ name: string; email: string }> {
  const me = await createUsersRepository(db).names(userId);
  return { name: me ? shownName(me) : '', email: me?.email ?? '' };
}

export function createUsersService(db: Db) {
  const repo = createUsersRepository(db);
  return {
    /** Assignee suggestions: users of the caller's systems (product §A7 /soc/users/). */
    async list(
      q: { page: number; page_size: number; is_active?: boolean; system__in?: number[]; search?: string },
      auth: AuthContext,
    ): Promise<{ total: number; results: UserListItem[] }> {
      const scope = systemScope(auth);
      let systems: number[] | null = q.system__in ?? null;
      if (scope) systems = systems ? systems.filter((s) => scope.includes(s)) : scope;
      const { total, rows } = await repo.page(
        { systems, is_active: q.is_active, pattern: q.search ? likePattern(q.search) : undefined },
        q.page_size,
        (q.page - 1) * q.page_size,
      );
      return { total, results: rows.map(presentUserListItem) };
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
