import type { SQL } from 'drizzle-orm';
import { and, asc, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { MisconfigGroupListQuery, MisconfigListQuery, MisconfigStatus } from '@soc/contracts';
import { MISCONFIG_GROUP_ASSET_SAMPLE, TOTAL_COUNT_CAP } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import {
  auditLog,
  incidents,
  misconfigurationIncidents,
  misconfigurations,
  systems,
  users,
} from '../../db/schema/index.ts';
import { likePattern } from '../../lib/pagination.ts';
import type { SystemScope } from '../../lib/scope.ts';
import { inScope } from '../../db/fragments.ts';
import { queryRows } from '../../db/query.ts';

/** The display name of a user: first and last name, else the username. */
const userName = sql<string>`coalesce(nullif(trim(${users.firstName} || ' ' || ${users.lastName}), ''), ${users.username})`;

const ORDER: Record<MisconfigListQuery['ordering'], SQL[]> = {
  '-severity': [
    desc(misconfigurations.severityRank),
    desc(misconfigurations.updated),
    desc(misconfigurations.id),
  ],
  severity: [asc(misconfigurations.severityRank), asc(misconfigurations.updated), asc(misconfigurations.id)],
  '-updated': [desc(misconfigurations.updated), desc(misconfigurations.id)],
  updated: [asc(misconfigurations.updated), asc(misconfigurations.id)],
  '-created': [desc(misconfigurations.created), desc(misconfigurations.id)],
  created: [asc(misconfigurations.created), asc(misconfigurations.id)],
  title: [asc(misconfigurations.title), asc(misconfigurations.id)],
  '-title': [desc(misconfigurations.title), desc(misconfigurations.id)],
};

export const scopeCondition = (scope: SystemScope): SQL | undefined =>
  inScope(misconfigurations.systemId, scope);

function filterCondition(q: Omit<MisconfigListQuery, 'page' | 'page_size' | 'ordering'>): SQL | undefined {
  const pattern = q.search ? likePattern(q.search) : null;
  return and(
    pattern
      ? or(
          sql`${misconfigurations.title} ILIKE ${pattern}`,
          sql`${misconfigurations.description} ILIKE ${pattern}`,
          sql`${misconfigurations.recommendation} ILIKE ${pattern}`,
          sql`array_to_string(${misconfigurations.affectedAssets}, ' ') ILIKE ${pattern}`,
        )
      : undefined,
    q.status__in ? inArray(misconfigurations.status, q.status__in) : undefined,
    q.severity__in ? inArray(misconfigurations.severity, q.severity__in) : undefined,
    q.system__in ? inArray(misconfigurations.systemId, q.system__in) : undefined,
    q.title ? eq(misconfigurations.title, q.title) : undefined,
  );
}

const rowSelect = {
  m: misconfigurations,
  system: { id: systems.id, isId: systems.isId, fullName: systems.fullName },
  changedBy: sql<string | null>`${userName}`,
};

export type MisconfigRow = {
  m: typeof misconfigurations.$inferSelect;
  system: { id: number; isId: string; fullName: string };
  changedBy: string | null;
  incidents: { key: number; summary: string }[];
};

export function createMisconfigsRepository(db: Db) {
  /** The linked incidents of these recommendations, by recommendation id. */
  async function linkedIncidents(ids: number[]): Promise<Map<number, { key: number; summary: string }[]>> {
    const out = new Map<number, { key: number; summary: string }[]>();
    if (!ids.length) return out;
    const rows = await db
      .select({
        id: misconfigurationIncidents.misconfigurationId,
        key: incidents.key,
        summary: incidents.summary,
      })
      .from(misconfigurationIncidents)
      .innerJoin(incidents, eq(incidents.id, misconfigurationIncidents.incidentId))
      .where(inArray(misconfigurationIncidents.misconfigurationId, ids))
      .orderBy(asc(incidents.key));
    for (const r of rows) {
      const list = out.get(r.id) ?? [];
      list.push({ key: r.key, summary: r.summary });
      out.set(r.id, list);
    }
    return out;
  }

  async function withIncidents(rows: Omit<MisconfigRow, 'incidents'>[]): Promise<MisconfigRow[]> {
    const links = await linkedIncidents(rows.map((r) => r.m.id));
    return rows.map((r) => ({ ...r, incidents: links.get(r.m.id) ?? [] }));
  }

  const base = () =>
    db
      .select(rowSelect)
      .from(misconfigurations)
      .innerJoin(systems, eq(systems.id, misconfigurations.systemId))
      .leftJoin(users, eq(users.id, misconfigurations.statusChangedBy));

  return {
    async list(scope: SystemScope, q: MisconfigListQuery) {
      const where = and(scopeCondition(scope), filterCondition(q));
      const [rows, [count]] = await Promise.all([
        base()
          .where(where)
          .orderBy(...ORDER[q.ordering])
          .limit(q.page_size)
          .offset((q.page - 1) * q.page_size),
        db
          .select({ n: sql<number>`count(*)::int` })
          .from(misconfigurations)
          .where(where),
      ]);
      return { rows: await withIncidents(rows), total: count?.n ?? 0 };
    },

    /**
     * One page of the recommendations grouped by title: groups with an open item first, then by
     * highest severity and title; the total counts groups up to TOTAL_COUNT_CAP. The distinct
     * assets of the page's groups are counted in a second statement over those titles only.
     */
    async groups(scope: SystemScope, q: MisconfigGroupListQuery) {
      const m = misconfigurations;
      const where = and(scopeCondition(scope), filterCondition(q));
      const openCount = sql<number>`(count(*) FILTER (WHERE ${m.status} = 'open'))::int`;
      const [rows, counted] = await Promise.all([
        db
          .select({
            title: m.title,
            rank: sql<number>`max(${m.severityRank})::int`,
            total: sql<number>`count(*)::int`,
            open: openCount,
            acceptedRisk: sql<number>`(count(*) FILTER (WHERE ${m.status} = 'accepted_risk'))::int`,
            fixed: sql<number>`(count(*) FILTER (WHERE ${m.status} = 'fixed'))::int`,
            updated: sql<Date>`max(${m.updated})`.mapWith(m.updated),
          })
          .from(m)
          .where(where)
          .groupBy(m.title)
          .orderBy(desc(sql`${openCount} > 0`), desc(sql`max(${m.severityRank})`), asc(m.title))
          .limit(q.page_size)
          .offset((q.page - 1) * q.page_size),
        queryRows<{ n: number }>(
          db,
          sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM ${m} WHERE ${where ?? sql`true`} GROUP BY ${m.title} LIMIT ${TOTAL_COUNT_CAP + 1}) AS g`,
        ),
      ]);
      const titles = rows.map((r) => r.title);
      const assets = titles.length
        ? await queryRows<{ title: string; n: number; sample: string[] }>(
            db,
            sql`SELECT ${m.title} AS title, count(DISTINCT a)::int AS n,
                  (array_agg(DISTINCT a ORDER BY a))[1:${MISCONFIG_GROUP_ASSET_SAMPLE}] AS sample
                FROM ${m} CROSS JOIN LATERAL unnest(${m.affectedAssets}) AS a
                WHERE ${and(where, inArray(m.title, titles))}
                GROUP BY ${m.title}`,
          )
        : [];
      const byTitle = new Map(assets.map((a) => [a.title, a]));
      const n = counted[0]?.n ?? 0;
      return {
        rows: rows.map((r) => ({
          ...r,
          assets: byTitle.get(r.title)?.n ?? 0,
          assetSample: byTitle.get(r.title)?.sample ?? [],
        })),
        total: Math.min(n, TOTAL_COUNT_CAP),
        exact: n <= TOTAL_COUNT_CAP,
      };
    },

    /** Misconfigurations linked to an incident (the incident's tab), oldest first. */
    async ofIncident(incidentId: string, limit: number, offset: number) {
      const where = sql`${misconfigurations.id} IN (SELECT ${misconfigurationIncidents.misconfigurationId} FROM ${misconfigurationIncidents} WHERE ${misconfigurationIncidents.incidentId} = ${incidentId})`;
      const [rows, [count]] = await Promise.all([
        base()
          .where(where)
          .orderBy(asc(misconfigurations.created), asc(misconfigurations.id))
          .limit(limit)
          .offset(offset),
        db
          .select({ n: sql<number>`count(*)::int` })
          .from(misconfigurationIncidents)
          .where(eq(misconfigurationIncidents.incidentId, incidentId)),
      ]);
      return { rows: await withIncidents(rows), total: count?.n ?? 0 };
    },

    /** Recommendations by id, in id order (for the analyst API's answer after creating them). */
    async byIds(ids: number[]): Promise<MisconfigRow[]> {
      if (!ids.length) return [];
      return withIncidents(
        await base().where(inArray(misconfigurations.id, ids)).orderBy(asc(misconfigurations.id)),
      );
    },

    async get(scope: SystemScope, id: number): Promise<MisconfigRow | null> {
      const rows = await base()
        .where(and(eq(misconfigurations.id, id), scopeCondition(scope)))
        .limit(1);
      const [row] = await withIncidents(rows);
      return row ?? null;
    },

    /** Locks the row of a recommendation the caller may see; null when there is none. */
    async lock(scope: SystemScope, id: number) {
      const [row] = await db
        .select({ id: misconfigurations.id, status: misconfigurations.status })
        .from(misconfigurations)
        .where(and(eq(misconfigurations.id, id), scopeCondition(scope)))
        .for('update');
      return row ?? null;
    },

    async setStatus(
      id: number,
      change: { status: MisconfigStatus; comment: string; userId: number; at: Date },
    ) {
      await db
        .update(misconfigurations)
        .set({
          status: change.status,
          statusComment: change.comment,
          statusChangedBy: change.userId,
          statusChangedAt: change.at,
          updated: change.at,
        })
        .where(eq(misconfigurations.id, id));
    },

    /** Status changes of a recommendation from the audit log, newest first. */
    async history(id: number, limit: number) {
      return db
        .select({ at: auditLog.at, action: auditLog.action, details: auditLog.details, user: userName })
        .from(auditLog)
        .leftJoin(users, eq(users.id, auditLog.userId))
        .where(and(eq(auditLog.objectType, 'misconfig'), eq(auditLog.objectId, String(id))))
        .orderBy(desc(auditLog.at), desc(auditLog.id))
        .limit(limit);
    },
  };
}
export type MisconfigsRepository = ReturnType<typeof createMisconfigsRepository>;
export type MisconfigGroupRow = Awaited<ReturnType<MisconfigsRepository['groups']>>['rows'][number];
