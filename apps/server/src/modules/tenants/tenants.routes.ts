import { and, asc, ilike, inArray, or, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SystemOptionSchema, SystemsLookupQuerySchema, pageOf } from '@soc/contracts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { systems } from '../../db/schema/index.ts';
import { likePattern, pageLinks } from '../../lib/pagination.ts';
import { requireAuth, systemScope } from '../../plugins/auth.ts';

/** No-page answers are still bounded (DESIGN §4). */
const NO_PAGE_MAX = 1000;

/** `/api/v0/soc/systems/`: the caller's protected systems (short form for pickers). */
export const tenantsRoutes: FastifyPluginAsyncZod<{ db: Db; config: Config }> = async (
  app,
  { db, config },
) => {
  app.get(
    '/systems/',
    {
      schema: {
        tags: ['tenants'],
        summary: 'Protected systems of the caller (search by code or name)',
        querystring: SystemsLookupQuerySchema,
        response: { 200: pageOf(SystemOptionSchema) },
      },
    },
    async (request) => {
      const scope = systemScope(requireAuth(request));
      const { search, page, page_size: pageSize, no_page: noPage } = request.query;
      const where = and(
        scope ? (scope.length ? inArray(systems.id, scope) : sql`FALSE`) : undefined,
        search
          ? or(ilike(systems.isId, likePattern(search)), ilike(systems.fullName, likePattern(search)))
          : undefined,
      );
      const limit = noPage ? NO_PAGE_MAX : pageSize;
      const offset = noPage ? 0 : (page - 1) * pageSize;
      const [rows, [count]] = await Promise.all([
        db
          .select({ id: systems.id, is_id: systems.isId, full_name: systems.fullName })
          .from(systems)
          .where(where)
          .orderBy(asc(systems.isId))
          .limit(limit)
          .offset(offset),
        db
          .select({ n: sql<number>`count(*)::int` })
          .from(systems)
          .where(where),
      ]);
      const total = count?.n ?? 0;
      const links = noPage
        ? { next: null, previous: null }
        : pageLinks(request, config.publicUrl, total, page, pageSize);
      return { total, results: rows, ...links };
    },
  );
};
