import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/client.ts';
import {
  categories,
  issueTypes,
  resolutions,
  services,
  systems,
  userSystems,
  users,
} from '../../db/schema/index.ts';
import { likePattern } from '../../lib/pagination.ts';
import { type SystemScope } from '../../lib/scope.ts';
import { inScope, titleColumn, titleOf } from '../../db/fragments.ts';

/** The titled lookup tables a page of options can come from, with their extra column. */
export type OptionsTable = 'issue_types' | 'categories' | 'resolutions';
export type OptionsExtra = 'code' | 'kind';

export interface OptionsPageQuery {
  table: OptionsTable;
  extra: OptionsExtra;
  lang: 'ru' | 'en';
  text: string | undefined;
  issueTypeId: number | undefined;
  limit: number;
  offset: number;
}

/** The SQL of the option lists of the incident forms and the filter row (product §A7). */
export function createLookupsRepository(db: Db) {
  return {
    /** The id of an issue type given by id or code; undefined when there is none. */
    async issueTypeId(type: string): Promise<number | undefined> {
      const byId = /^\d+$/.test(type) ? eq(issueTypes.id, Number(type)) : eq(issueTypes.code, type);
      const [row] = await db.select({ id: issueTypes.id }).from(issueTypes).where(byId);
      return row?.id;
    },

    /**
     * One page of a titled lookup table, searched in both languages, titles in `lang`. Table and
     * column names come from the fixed unions above.
     */
    async optionsPage<R extends { id: number; title: string }>(q: OptionsPageQuery) {
      const where = sql.join(
        [
          q.issueTypeId === undefined ? sql`TRUE` : sql`issue_type_id = ${q.issueTypeId}`,
          q.text
            ? sql`(title_en ILIKE ${likePattern(q.text)} OR title_ru ILIKE ${likePattern(q.text)})`
            : sql`TRUE`,
        ],
        sql` AND `,
      );
      const from = sql.raw(q.table);
      const [rows, counts] = await Promise.all([
        queryRows<R>(
          db,
          sql`SELECT id, ${titleColumn(q.lang)} AS title, ${sql.raw(q.extra)}
                FROM ${from} WHERE ${where} ORDER BY id LIMIT ${q.limit} OFFSET ${q.offset}`,
        ),
        queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM ${from} WHERE ${where}`),
      ]);
      return { rows, total: counts[0]?.n ?? 0 };
    },

    /** The rows behind the filter row's choices, limited to `scope`. */
    async filterRows(scope: SystemScope, lang: 'ru' | 'en') {
      const [systemRows, typeRows, categoryRows, resolutionRows, serviceRows, userRows] = await Promise.all([
        db
          .select({ id: systems.id, is_id: systems.isId, full_name: systems.fullName })
          .from(systems)
          .where(inScope(systems.id, scope))
          .orderBy(asc(systems.isId)),
        db
          .select({ id: issueTypes.id, code: issueTypes.code, title: titleOf(lang, issueTypes) })
          .from(issueTypes)
          .orderBy(asc(issueTypes.id)),
        db
          .select({
            id: categories.id,
            code: categories.code,
            title: titleOf(lang, categories),
            issue_type: categories.issueTypeId,
          })
          .from(categories)
          .orderBy(asc(categories.id)),
        db
          .select({
            id: resolutions.id,
            kind: resolutions.kind,
            title: titleOf(lang, resolutions),
            issue_type: resolutions.issueTypeId,
          })
          .from(resolutions)
          .orderBy(asc(resolutions.id)),
        db
          .selectDistinct({ name: services.name })
          .from(services)
          .where(inScope(services.systemId, scope))
          .orderBy(asc(services.name)),
        db
          .selectDistinct({
            id: users.id,
            username: users.username,
            first: users.firstName,
            last: users.lastName,
          })
          .from(users)
          .innerJoin(userSystems, eq(userSystems.userId, users.id))
          .where(and(eq(users.isActive, true), inScope(userSystems.systemId, scope)))
          .orderBy(asc(users.id))
          // a bounded list: the assignee picker searches /soc/users/ for more
          .limit(500),
      ]);
      return { systemRows, typeRows, categoryRows, resolutionRows, serviceRows, userRows };
    },
  };
}

export type LookupsRepository = ReturnType<typeof createLookupsRepository>;
