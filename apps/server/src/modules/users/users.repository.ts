import type { SQL } from 'drizzle-orm';
import { and, asc, count, eq, ilike, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { userSystems, users } from '../../db/schema/index.ts';
import type { SystemScope } from '../../lib/scope.ts';
import { inScope } from '../../db/fragments.ts';

/** What the user list filters by; `systems` null: every system. */
export interface UserListFilters {
  systems: SystemScope;
  is_active?: boolean;
  /** A LIKE pattern (see likePattern). */
  pattern?: string;
}

export function createUsersRepository(db: Db) {
  function listConditions(f: UserListFilters): SQL | undefined {
    const conditions = [];
    const inSystems = inScope(sql`us.system_id`, f.systems);
    if (inSystems) {
      conditions.push(
        sql`EXISTS (SELECT 1 FROM ${userSystems} us WHERE us.user_id = ${users.id} AND ${inSystems})`,
      );
    }
    if (f.is_active !== undefined) conditions.push(eq(users.isActive, f.is_active));
    if (f.pattern) {
      const p = f.pattern;
      conditions.push(
        or(
          ilike(users.username, p),
          ilike(users.firstName, p),
          ilike(users.lastName, p),
          ilike(users.email, p),
          sql`(${users.firstName} || ' ' || ${users.lastName}) ILIKE ${p}`,
        )!,
      );
    }
    return conditions.length ? and(...conditions) : undefined;
  }

  return {
    /** A page of users by last and first name, with the number of all that match. */
    async page(f: UserListFilters, limit: number, offset: number) {
      const where = listConditions(f);
      const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(users).where(where);
      const rows = await db
        .select({
          id: users.id,
          username: users.username,
          first_name: users.firstName,
          last_name: users.lastName,
          is_active: users.isActive,
        })
        .from(users)
        .where(where)
        .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id))
        .limit(limit)
        .offset(offset);
      return { total, rows };
    },

    /** The names and e-mail address of a user. */
    async names(userId: number) {
      const [me] = await db
        .select({
          first: users.firstName,
          last: users.lastName,
          username: users.username,
          email: users.email,
        })
        .from(users)
        .where(eq(users.id, userId));
      return me;
    },
  };
}
