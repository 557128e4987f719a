import { and, asc, desc, eq, gte, ilike, inArray, lte, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { ReportListQuery } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { reportSchedules, reports, systems, userSystems, users } from '../../db/schema/index.ts';
import { likePattern } from '../../lib/pagination.ts';
import type { SystemScope } from '../../lib/scope.ts';
import { inScope } from '../../db/fragments.ts';

export type ReportRow = typeof reports.$inferSelect;
export type ScheduleRow = typeof reportSchedules.$inferSelect;

const intArray = (ids: number[]) =>
  sql`ARRAY[${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )}]::int[]`;

/**
 * Tenant condition on an int[] column of system ids: a customer sees an object only when every
 * system it covers is one of theirs (GIN index on the column); null scope: analysts, all.
 */
export function systemsWithin(
  column: typeof reports.systemIds | typeof reportSchedules.systemIds,
  scope: SystemScope,
): SQL | undefined {
  if (!scope) return undefined;
  return sql`${column} <@ ${intArray(scope)}`;
}

/** SQL of the reports and report tasks tables (drizzle only; rules live in the service). */
export function createReportsRepository(db: Db) {
  return {
    async systemsByKeys(keys: string[], scope: SystemScope) {
      if (!keys.length) return [];
      const lowered = keys.map((k) => k.toLowerCase());
      return db
        .select({ id: systems.id, isId: systems.isId, fullName: systems.fullName })
        .from(systems)
        .where(
          and(
            sql`(lower(${systems.isId}) IN (${sql.join(
              lowered.map((k) => sql`${k}`),
              sql`, `,
            )}) OR lower(${systems.fullName}) IN (${sql.join(
              lowered.map((k) => sql`${k}`),
              sql`, `,
            )}))`,
            inScope(systems.id, scope),
          ),
        );
    },

    async systemsByIds(ids: number[]) {
      if (!ids.length) return [];
      return db
        .select({ id: systems.id, isId: systems.isId, fullName: systems.fullName })
        .from(systems)
        .where(inArray(systems.id, ids))
        .orderBy(asc(systems.isId));
    },

    /** The mail domains an administrator allowed for each of these systems. */
    async mailDomains(systemIds: number[]) {
      if (!systemIds.length) return [];
      return db
        .select({ id: systems.id, domains: systems.mailDomains })
        .from(systems)
        .where(inArray(systems.id, systemIds));
    },

    async allSystemIds(scope: SystemScope): Promise<number[]> {
      if (scope) return scope;
      const rows = await db.select({ id: systems.id }).from(systems).orderBy(asc(systems.id));
      return rows.map((r) => r.id);
    },

    async listReady(q: ReportListQuery, scope: SystemScope, systemFilter: number[] | null) {
      const where = and(
        eq(reports.status, 'ready'),
        systemsWithin(reports.systemIds, scope),
        systemFilter ? sql`${reports.systemIds} && ${intArray(systemFilter)}` : undefined,
        q.filename ? ilike(reports.filename, likePattern(q.filename)) : undefined,
        q.size__gte !== undefined ? gte(reports.size, q.size__gte) : undefined,
        q.size__lte !== undefined ? lte(reports.size, q.size__lte) : undefined,
        q.start__gte ? gte(reports.periodStart, q.start__gte) : undefined,
        q.finish__lte ? lte(reports.periodFinish, q.finish__lte) : undefined,
        q.created__gte ? gte(reports.created, q.created__gte) : undefined,
        q.created__lte ? lte(reports.created, q.created__lte) : undefined,
      );
      const field = q.ordering.replace('-', '') as 'created' | 'filename' | 'size';
      const column = { created: reports.created, filename: reports.filename, size: reports.size }[field];
      const dir = q.ordering.startsWith('-') ? desc : asc;
      const [rows, [count]] = await Promise.all([
        db
          .select()
          .from(reports)
          .where(where)
          .orderBy(dir(column), dir(reports.id))
          .limit(q.page_size)
          .offset((q.page - 1) * q.page_size),
        db
          .select({ n: sql<number>`count(*)::int` })
          .from(reports)
          .where(where),
      ]);
      return { rows, total: count?.n ?? 0 };
    },

    async findReport(id: number, scope: SystemScope, status?: 'ready'): Promise<ReportRow | undefined> {
      const [row] = await db
        .select()
        .from(reports)
        .where(
          and(
            eq(reports.id, id),
            status ? eq(reports.status, status) : undefined,
            systemsWithin(reports.systemIds, scope),
          ),
        );
      return row;
    },

    async visibleReportIds(ids: number[], scope: SystemScope): Promise<ReportRow[]> {
      return db
        .select()
        .from(reports)
        .where(and(inArray(reports.id, ids), systemsWithin(reports.systemIds, scope)));
    },

    async deleteReports(ids: number[]): Promise<void> {
      if (ids.length) await db.delete(reports).where(inArray(reports.id, ids));
    },

    async insertReport(values: typeof reports.$inferInsert): Promise<ReportRow | undefined> {
      const [row] = await db.insert(reports).values(values).onConflictDoNothing().returning();
      return row;
    },

    async updateReport(id: number, values: Partial<typeof reports.$inferInsert>): Promise<void> {
      await db.update(reports).set(values).where(eq(reports.id, id));
    },

    async listSchedules(scope: SystemScope, page: number, pageSize: number) {
      const where = systemsWithin(reportSchedules.systemIds, scope);
      const [rows, [count]] = await Promise.all([
        db
          .select()
          .from(reportSchedules)
          .where(where)
          .orderBy(desc(reportSchedules.created), desc(reportSchedules.id))
          .limit(pageSize)
          .offset((page - 1) * pageSize),
        db
          .select({ n: sql<number>`count(*)::int` })
          .from(reportSchedules)
          .where(where),
      ]);
      return { rows, total: count?.n ?? 0 };
    },

    async findSchedule(id: number, scope: SystemScope): Promise<ScheduleRow | undefined> {
      const [row] = await db
        .select()
        .from(reportSchedules)
        .where(and(eq(reportSchedules.id, id), systemsWithin(reportSchedules.systemIds, scope)));
      return row;
    },

    async insertSchedule(values: typeof reportSchedules.$inferInsert): Promise<ScheduleRow> {
      const [row] = await db.insert(reportSchedules).values(values).returning();
      return row!;
    },

    async updateSchedule(
      id: number,
      values: Partial<typeof reportSchedules.$inferInsert>,
    ): Promise<ScheduleRow> {
      const [row] = await db
        .update(reportSchedules)
        .set({ ...values, updated: new Date() })
        .where(eq(reportSchedules.id, id))
        .returning();
      return row!;
    },

    async deleteSchedule(id: number): Promise<void> {
      await db.delete(reportSchedules).where(eq(reportSchedules.id, id));
    },

    /** Due schedules, locked for this transaction; rows another instance holds are skipped. */
    async claimDueSchedules(now: Date, limit: number): Promise<ScheduleRow[]> {
      return db
        .select()
        .from(reportSchedules)
        .where(sql`${reportSchedules.nextRunAt} <= ${now.toISOString()}::timestamptz`)
        .orderBy(asc(reportSchedules.nextRunAt))
        .limit(limit)
        .for('update', { skipLocked: true });
    },

    async advanceSchedule(id: number, nextRunAt: Date | null, lastRunAt: Date): Promise<void> {
      await db.update(reportSchedules).set({ nextRunAt, lastRunAt }).where(eq(reportSchedules.id, id));
    },

    async account(userId: number) {
      const [user] = await db
        .select({ isActive: users.isActive, role: users.role })
        .from(users)
        .where(eq(users.id, userId));
      return user;
    },

    async userSystemIds(userId: number): Promise<number[]> {
      const rows = await db
        .select({ id: userSystems.systemId })
        .from(userSystems)
        .where(eq(userSystems.userId, userId));
      return rows.map((r) => r.id);
    },

    /**
     * What decides who may receive a report of `systemIds`: the mail domains of the systems, which
     * of `emails` (lower case) belong to their active users, and which to active staff.
     */
    async recipientGrants(systemIds: number[], emails: string[]) {
      const lowerEmail = sql<string>`lower(${users.email})`;
      const [domains, members, staff] = await Promise.all([
        systemIds.length
          ? db
              .select({ id: systems.id, domains: systems.mailDomains })
              .from(systems)
              .where(inArray(systems.id, systemIds))
          : Promise.resolve([]),
        systemIds.length
          ? db
              .select({ email: lowerEmail, systemId: userSystems.systemId })
              .from(users)
              .innerJoin(userSystems, eq(userSystems.userId, users.id))
              .where(
                and(
                  eq(users.isActive, true),
                  inArray(userSystems.systemId, systemIds),
                  inArray(lowerEmail, emails),
                ),
              )
          : Promise.resolve([]),
        db
          .select({ email: lowerEmail })
          .from(users)
          .where(
            and(
              eq(users.isActive, true),
              inArray(users.role, ['analyst', 'admin']),
              inArray(lowerEmail, emails),
            ),
          ),
      ]);
      return { domains, members, staff };
    },
  };
}

export type ReportsRepository = ReturnType<typeof createReportsRepository>;
