import type { SQL } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import { and, asc, count, desc, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { AlertOrdering } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { executeNamed, queryRows, queryRowsNamed } from '../../db/client.ts';
import {
  alertTagNames,
  alertTags,
  alerts,
  systemAlertCounts,
  incidentSnapshots,
  incidents,
  linkTemplates,
  responseTeams,
  systems,
  users,
} from '../../db/schema/index.ts';
import type { SystemScope } from '../../lib/scope.ts';
import { inScope } from '../../db/fragments.ts';

export type AlertTag = { name: string; color: string };

/** The columns of an alert row as lists show it (never the events). */
const rowColumns = {
  id: alerts.id,
  systemId: alerts.systemId,
  incidentId: alerts.incidentId,
  severity: alerts.severity,
  title: alerts.title,
  sourceTag: alerts.sourceTag,
  status: alerts.status,
  priority: alerts.priority,
  state: alerts.state,
  groupNo: alerts.groupNo,
  platform: alerts.platform,
  affectedAssets: alerts.affectedAssets,
  createdTime: alerts.createdTime,
  updatedTime: alerts.updatedTime,
  incidentKey: incidents.key,
  systemIsId: systems.isId,
  systemName: systems.fullName,
  assigneeId: users.id,
  assigneeUsername: users.username,
  teamId: responseTeams.id,
  teamName: responseTeams.name,
  // the tags ride along in the same statement (one round trip per page)
  tags: sql<AlertTag[]>`coalesce((
    SELECT json_agg(json_build_object('name', t.name, 'color', t.color) ORDER BY at.position, t.name)
      FROM ${alertTags} at JOIN ${alertTagNames} t ON t.id = at.tag_id
     WHERE at.alert_id = ${alerts.id}), '[]'::json)`,
};

/** The alert rows as lists show them, with `extra` columns, joined to their names. */
const selectRows = <E extends SelectedFields = Record<never, never>>(db: Db, extra?: E) =>
  db
    .select({ ...rowColumns, ...(extra as E) })
    .from(alerts)
    .innerJoin(systems, eq(systems.id, alerts.systemId))
    .leftJoin(incidents, eq(incidents.id, alerts.incidentId))
    .leftJoin(users, eq(users.id, alerts.assigneeId))
    .leftJoin(responseTeams, eq(responseTeams.id, alerts.responseTeamId));

export type AlertRow = Awaited<ReturnType<typeof selectRows<Record<never, never>>>>[number];

const ORDER_COLUMNS = {
  created_time: alerts.createdTime,
  updated_time: alerts.updatedTime,
  severity: alerts.severityRank,
  priority: sql`CASE ${alerts.priority} WHEN 'critical' THEN 4 WHEN 'high' THEN 3 WHEN 'medium' THEN 2 ELSE 1 END`,
  status: alerts.status,
  title: alerts.title,
} as const;

/** The alerts of these systems (all systems: null), from the per-system count table: a scalar subquery. */
export const systemsTotal = (systemIds: number[] | null): SQL =>
  sql`(SELECT coalesce(sum(${systemAlertCounts.n}), 0) FROM ${systemAlertCounts}
        ${systemIds ? sql`WHERE ${inArray(systemAlertCounts.systemId, systemIds)}` : sql``})`;

/** The alerts of the alert row's incident, from the per-incident count table: a scalar subquery. */
export const incidentTotal: SQL = sql`(SELECT c.n FROM incident_alert_counts c WHERE c.incident_id = ${alerts.incidentId})`;

/** The ORDER BY of an ordering, ties broken by creation time and id (the indexes' order). */
function orderOf(ordering: AlertOrdering): SQL[] {
  const dir = ordering.startsWith('-') ? desc : asc;
  const column = ORDER_COLUMNS[ordering.replace(/^-/, '') as keyof typeof ORDER_COLUMNS];
  return [dir(column), dir(alerts.createdTime), dir(alerts.id)];
}

export function createAlertsRepository(db: Db) {
  return {
    /** One page of alerts matching `where`, in `ordering`, with the total (counted unless known). */
    async page(
      where: SQL | undefined,
      ordering: AlertOrdering,
      limit: number,
      offset: number,
      knownTotal?: number,
    ): Promise<{ total: number; rows: AlertRow[] }> {
      const total =
        knownTotal ?? (await db.select({ total: count() }).from(alerts).where(where))[0]?.total ?? 0;
      if (!total || offset >= total) return { total, rows: [] };
      const order = orderOf(ordering);
      // the page's ids first (from the index alone where the ordering has one), then their rows:
      // the joins and the tags are computed for this page only, however deep the offset
      const ids = db
        .select({ id: alerts.id })
        .from(alerts)
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset);
      const rows = await selectRows(db)
        .where(inArray(alerts.id, ids))
        .orderBy(...order);
      return { total, rows };
    },

    /**
     * The first page of alerts matching `where` and their total, `total` being a scalar
     * subquery over a count table: one named statement, planned once per connection (use it
     * for conditions whose text takes few shapes). The LIMIT is a literal, as a generic plan
     * for a LIMIT parameter assumes a tenth of the matching rows and sorts them all. No row
     * gives a total of 0, which the caller checks where a missing parent should be a 404.
     */
    async firstPage(
      where: SQL,
      ordering: AlertOrdering,
      limit: number,
      total: SQL,
    ): Promise<{ total: number; rows: AlertRow[] }> {
      if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`Invalid page size ${limit}`);
      const order = orderOf(ordering);
      const rows = await executeNamed(
        selectRows(db, { total: sql<number>`${total}`.mapWith(Number) })
          .where(
            inArray(
              alerts.id,
              sql`(SELECT ${alerts.id} FROM ${alerts} WHERE ${where}
                    ORDER BY ${sql.join(order, sql`, `)} LIMIT ${sql.raw(String(limit))})`,
            ),
          )
          .orderBy(...order),
      );
      return { total: rows[0]?.total ?? 0, rows };
    },

    async one(where: SQL) {
      const [row] = await selectRows(db, {
        description: alerts.description,
        rule: alerts.rule,
        classificationDetails: alerts.classificationDetails,
        eventsCount: sql<number>`jsonb_array_length(${alerts.events})::int`,
      })
        .where(where)
        .limit(1);
      return row ?? null;
    },

    /** The alerts of these systems (all systems: null), from the per-system count table. */
    async systemsCount(systemIds: number[] | null): Promise<number> {
      if (systemIds && systemIds.length === 0) return 0;
      const [row] = await queryRowsNamed<{ n: string }>(
        db,
        sql`SELECT ${systemsTotal(systemIds)}::text AS n`,
      );
      return Number(row?.n ?? 0);
    },

    /**
     * The id of an incident the caller may see (`scope` on incidents) and its number of alerts,
     * in one statement; undefined for a missing or another tenant's incident.
     */
    async incidentWithCount(key: number, scope: SQL): Promise<{ id: string; n: number } | undefined> {
      const [row] = await executeNamed(
        db
          .select({
            id: incidents.id,
            n: sql<number>`coalesce((SELECT c.n FROM incident_alert_counts c WHERE c.incident_id = ${incidents.id}), 0)`.mapWith(
              Number,
            ),
          })
          .from(incidents)
          .where(and(eq(incidents.key, key), scope)),
      );
      return row;
    },

    async events(alertId: string) {
      const [row] = await db
        .select({ events: alerts.events, created: alerts.createdTime })
        .from(alerts)
        .where(eq(alerts.id, alertId));
      return row ?? null;
    },

    /** Id, system and group of one alert matching `where`. */
    async find(where: SQL) {
      const [row] = await db
        .select({
          id: alerts.id,
          systemId: alerts.systemId,
          groupNo: alerts.groupNo,
          incidentId: alerts.incidentId,
        })
        .from(alerts)
        .where(where)
        .limit(1);
      return row ?? null;
    },

    /** The other alerts of a correlation group, within the caller's tenant condition. */
    symptomaticWhere: (alertId: string, groupNo: number, scope: SQL) =>
      and(eq(alerts.groupNo, groupNo), ne(alerts.id, alertId), scope),

    /** Tags of the alert's system by name (case-insensitive), creating missing ones, in one transaction. */
    async setTags(alertId: string, systemId: number, tags: { name: string; color: string }[]): Promise<void> {
      await db.delete(alertTags).where(eq(alertTags.alertId, alertId));
      for (const [position, tag] of tags.entries()) {
        const [saved] = await queryRows<{ id: number }>(
          db,
          sql`INSERT INTO ${alertTagNames} (system_id, name, color) VALUES (${systemId}, ${tag.name}, ${tag.color})
              ON CONFLICT (system_id, lower(name)) DO UPDATE SET color = EXCLUDED.color RETURNING id`,
        );
        await db.insert(alertTags).values({ alertId, tagId: saved!.id, position });
      }
    },

    async teamOfSystem(teamId: number, systemId: number) {
      const [team] = await db
        .select({ id: responseTeams.id })
        .from(responseTeams)
        .where(and(eq(responseTeams.id, teamId), eq(responseTeams.systemId, systemId)));
      return team ?? null;
    },

    async tagSuggestions(scope: SystemScope, q: string | undefined, limit: number) {
      const conditions = [];
      conditions.push(inScope(alertTagNames.systemId, scope));
      if (q)
        conditions.push(sql`${alertTagNames.name} ILIKE ${`%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`);
      return db
        .selectDistinctOn([sql`lower(${alertTagNames.name})`], {
          name: alertTagNames.name,
          color: alertTagNames.color,
        })
        .from(alertTagNames)
        .where(conditions.length ? and(...conditions) : undefined)
        .orderBy(sql`lower(${alertTagNames.name})`, asc(alertTagNames.id))
        .limit(limit);
    },

    async teams(scope: SystemScope, system: number | undefined, search: string | undefined, limit: number) {
      const conditions = [];
      conditions.push(inScope(responseTeams.systemId, scope));
      if (system !== undefined) conditions.push(eq(responseTeams.systemId, system));
      if (search)
        conditions.push(
          sql`${responseTeams.name} ILIKE ${`%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`,
        );
      return db
        .select({ id: responseTeams.id, name: responseTeams.name })
        .from(responseTeams)
        .where(conditions.length ? and(...conditions) : undefined)
        .orderBy(asc(responseTeams.name), asc(responseTeams.id))
        .limit(limit);
    },

    /** Alerts named or in the groups, locked for the bulk update. */
    async lockForBulk(ids: string[], groups: number[]) {
      const conditions = [];
      if (ids.length) conditions.push(inArray(alerts.id, ids));
      if (groups.length) conditions.push(inArray(alerts.groupNo, groups));
      return db
        .select({ id: alerts.id, systemId: alerts.systemId, groupNo: alerts.groupNo })
        .from(alerts)
        .where(or(...conditions))
        .orderBy(asc(alerts.id))
        .for('update');
    },

    async templates(systemId: number) {
      return db
        .select()
        .from(linkTemplates)
        .where(or(isNull(linkTemplates.systemId), eq(linkTemplates.systemId, systemId)))
        .orderBy(asc(linkTemplates.name), asc(linkTemplates.id));
    },

    async template(id: number, systemId: number) {
      const [row] = await db
        .select()
        .from(linkTemplates)
        .where(
          and(
            eq(linkTemplates.id, id),
            or(isNull(linkTemplates.systemId), eq(linkTemplates.systemId, systemId)),
          ),
        );
      return row ?? null;
    },

    async snapshots(incidentId: string, limit: number, offset: number) {
      const [{ total } = { total: 0 }] = await db
        .select({ total: count() })
        .from(incidentSnapshots)
        .where(eq(incidentSnapshots.incidentId, incidentId));
      const rows = await db
        .select()
        .from(incidentSnapshots)
        .where(eq(incidentSnapshots.incidentId, incidentId))
        .orderBy(asc(incidentSnapshots.id))
        .limit(limit)
        .offset(offset);
      const counts = rows.length
        ? await queryRows<{ cmdb_id: string; n: number }>(
            db,
            sql`
            SELECT e->>'cmdb_id' AS cmdb_id, count(*)::int AS n
            FROM ${alerts} a CROSS JOIN LATERAL jsonb_array_elements(a.affected_assets) e
            WHERE a.incident_id = ${incidentId}
            GROUP BY 1`,
          )
        : [];
      const byCmdb = new Map<string, number>();
      for (const c of counts) byCmdb.set(c.cmdb_id, Number(c.n));
      return { total, rows: rows.map((r) => ({ ...r, alertsCount: byCmdb.get(r.cmdbId) ?? 0 })) };
    },

    /** Sets columns of alerts and their update time (in the caller's transaction). */
    async update(ids: string[], set: Partial<typeof alerts.$inferInsert>): Promise<void> {
      await db.update(alerts).set(set).where(inArray(alerts.id, ids));
    },

    async insertLinkTemplate(values: typeof linkTemplates.$inferInsert) {
      const [row] = await db.insert(linkTemplates).values(values).returning();
      return row!;
    },

    async setIncidentIocs(incidentId: string, iocs: (typeof incidents.$inferInsert)['observedIocs']) {
      await db
        .update(incidents)
        .set({ observedIocs: iocs, updated: new Date() })
        .where(eq(incidents.id, incidentId));
    },
  };
}

/** The alerts of the incidents with these keys. */
export const ofIncidentKeys = (keys: number[]): SQL =>
  sql`${alerts.incidentId} IN (SELECT ${incidents.id} FROM ${incidents} WHERE ${inArray(incidents.key, keys)})`;

export type AlertsRepository = ReturnType<typeof createAlertsRepository>;
