import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CategoryOptionSchema,
  FilterChoicesSchema,
  INCIDENT_PRIORITIES,
  INCIDENT_STATUSES,
  IssueTypeOptionSchema,
  LookupQuerySchema,
  type CategoryOption,
  type IssueTypeOption,
  type LookupQuery,
  type ResolutionOption,
  ResolutionOptionSchema,
  pageOf,
} from '@soc/contracts';
import type { Config } from '../../config.ts';
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
import { notFound } from '../../lib/http-errors.ts';
import { likePattern, offsetLinks } from '../../lib/pagination.ts';
import { requestLanguage, requireAuth, systemScope } from '../../plugins/auth.ts';

const TypeParams = z.object({ type: z.string().min(1).max(64) });

/** Option lists of the incident forms and the filter row (spec 000 §7). */
export const lookupsRoutes: FastifyPluginAsyncZod<{ db: Db; config: Config }> = async (
  app,
  { db, config },
) => {
  const titleOf = (lang: 'ru' | 'en', t: { titleRu: AnyPgColumn; titleEn: AnyPgColumn }) =>
    sql<string>`${lang === 'ru' ? t.titleRu : t.titleEn}`;

  /** An issue type by id or code. */
  async function issueType(type: string) {
    const byId = /^\d+$/.test(type) ? eq(issueTypes.id, Number(type)) : eq(issueTypes.code, type);
    const [row] = await db.select({ id: issueTypes.id }).from(issueTypes).where(byId);
    if (!row) throw notFound();
    return row.id;
  }

  /**
   * One page of a titled lookup table (issue types, categories, resolutions), searched in both
   * languages, titles in the caller's. Table and column names come from the fixed union below.
   */
  async function optionsPage<R extends { id: number; title: string }>(
    request: FastifyRequest,
    query: LookupQuery,
    table: 'issue_types' | 'categories' | 'resolutions',
    extra: 'code' | 'kind',
    issueTypeId?: number,
  ) {
    const { limit, offset } = query;
    const lang = requestLanguage(request, query.language);
    const text = query.search || query.q;
    const where = sql.join(
      [
        issueTypeId === undefined ? sql`TRUE` : sql`issue_type_id = ${issueTypeId}`,
        text ? sql`(title_en ILIKE ${likePattern(text)} OR title_ru ILIKE ${likePattern(text)})` : sql`TRUE`,
      ],
      sql` AND `,
    );
    const from = sql.raw(table);
    const [rows, counts] = await Promise.all([
      queryRows<R>(
        db,
        sql`SELECT id, ${sql.raw(lang === 'ru' ? 'title_ru' : 'title_en')} AS title, ${sql.raw(extra)}
              FROM ${from} WHERE ${where} ORDER BY id LIMIT ${limit} OFFSET ${offset}`,
      ),
      queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM ${from} WHERE ${where}`),
    ]);
    const total = counts[0]?.n ?? 0;
    return { total, results: rows, ...offsetLinks(request, config.publicUrl, total, limit, offset) };
  }

  app.get(
    '/issue_types/',
    {
      schema: {
        tags: ['lookups'],
        summary: 'Issue types',
        querystring: LookupQuerySchema,
        response: { 200: pageOf(IssueTypeOptionSchema) },
      },
    },
    async (request) => optionsPage<IssueTypeOption>(request, request.query, 'issue_types', 'code'),
  );

  app.get(
    '/issues/:type/categories/',
    {
      schema: {
        tags: ['lookups'],
        summary: 'Categories of an issue type (by id or code)',
        params: TypeParams,
        querystring: LookupQuerySchema,
        response: { 200: pageOf(CategoryOptionSchema) },
      },
    },
    async (request) =>
      optionsPage<CategoryOption>(
        request,
        request.query,
        'categories',
        'code',
        await issueType(request.params.type),
      ),
  );

  app.get(
    '/issues/:type/resolutions/',
    {
      schema: {
        tags: ['lookups'],
        summary: 'Resolutions of an issue type (by id or code)',
        params: TypeParams,
        querystring: LookupQuerySchema,
        response: { 200: pageOf(ResolutionOptionSchema) },
      },
    },
    async (request) =>
      optionsPage<ResolutionOption>(
        request,
        request.query,
        'resolutions',
        'kind',
        await issueType(request.params.type),
      ),
  );

  app.get(
    '/filters/',
    {
      schema: {
        tags: ['lookups'],
        summary: 'Choices of the incident filter row, limited to the caller’s systems',
        querystring: z.strictObject({ language: z.enum(['ru', 'en']).optional() }),
        response: { 200: FilterChoicesSchema },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const scope = systemScope(auth);
      const lang = requestLanguage(request, request.query.language);
      const inScope = (column: AnyPgColumn) =>
        scope ? (scope.length ? inArray(column, scope) : sql`FALSE`) : undefined;
      const [systemRows, typeRows, categoryRows, resolutionRows, serviceRows, userRows] = await Promise.all([
        db
          .select({ id: systems.id, is_id: systems.isId, full_name: systems.fullName })
          .from(systems)
          .where(inScope(systems.id))
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
          .where(inScope(services.systemId))
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
          .where(and(eq(users.isActive, true), inScope(userSystems.systemId)))
          .orderBy(asc(users.id))
          // a bounded list: the assignee picker searches /soc/users/ for more
          .limit(500),
      ]);
      return {
        systems: systemRows,
        issue_types: typeRows,
        categories: categoryRows,
        resolutions: resolutionRows,
        priorities: [...INCIDENT_PRIORITIES],
        statuses: [...INCIDENT_STATUSES],
        base_services: serviceRows.map((s) => s.name),
        users: userRows.map((u) => ({
          id: u.id,
          username: u.username,
          full_name: `${u.first} ${u.last}`.trim(),
        })),
      };
    },
  );
};
