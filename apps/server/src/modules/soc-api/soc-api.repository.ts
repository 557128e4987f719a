import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/client.ts';
import {
  alerts,
  cmdbAssets,
  incidentSnapshots,
  incidents,
  logSources,
  misconfigurationIncidents,
  misconfigurations,
  rules,
  services,
} from '../../db/schema/index.ts';
import type { SystemScope } from '../../lib/scope.ts';
import { inScope } from '../../db/fragments.ts';

export type CmdbAsset = typeof cmdbAssets.$inferSelect;
export type NewAlert = typeof alerts.$inferInsert;
export type NewSnapshot = typeof incidentSnapshots.$inferInsert;
export type IncidentChanges = Partial<typeof incidents.$inferInsert>;
export type NewMisconfig = Omit<typeof misconfigurations.$inferInsert, 'id'>;
export type NewLogSource = typeof logSources.$inferInsert;
export type RuleValues = typeof rules.$inferInsert;

/**
 * The analyst API's queries: incidents' extra rows, alerts, log sources, EPS, rules. Writers pass
 * their transaction.
 */
export function createSocApiRepository(db: Db) {
  return {
    assetsByCmdbId(systemId: number, cmdbIds: string[]): Promise<CmdbAsset[]> {
      return db
        .select()
        .from(cmdbAssets)
        .where(and(eq(cmdbAssets.systemId, systemId), inArray(cmdbAssets.cmdbId, cmdbIds)));
    },

    /** Asset snapshots of an incident; those it has already stay as recorded. */
    async insertSnapshots(values: NewSnapshot[]): Promise<void> {
      if (values.length) await db.insert(incidentSnapshots).values(values).onConflictDoNothing();
    },

    alertsByIds(uuids: string[]) {
      return db
        .select({ id: alerts.id, incidentId: alerts.incidentId, systemId: alerts.systemId })
        .from(alerts)
        .where(inArray(alerts.id, uuids));
    },

    /** Inserts the alerts whose uuid is not stored yet; returns the ids inserted. */
    async insertNewAlerts(values: NewAlert[]): Promise<Set<string>> {
      const inserted = await db
        .insert(alerts)
        .values(values)
        .onConflictDoNothing({ target: alerts.id })
        .returning({ id: alerts.id });
      return new Set(inserted.map((r) => r.id));
    },

    async serviceOfSystem(serviceId: number, systemId: number): Promise<boolean> {
      const [row] = await db
        .select({ id: services.id })
        .from(services)
        .where(and(eq(services.id, serviceId), eq(services.systemId, systemId)));
      return row !== undefined;
    },

    async updateIncident(incidentId: string, set: IncidentChanges): Promise<void> {
      await db.update(incidents).set(set).where(eq(incidents.id, incidentId));
    },

    /** Misconfigurations of a system linked to one of its incidents; returns their ids. */
    async insertIncidentMisconfigs(incidentId: string, items: NewMisconfig[]): Promise<{ id: number }[]> {
      const created = await db
        .insert(misconfigurations)
        .values(items)
        .returning({ id: misconfigurations.id });
      await db
        .insert(misconfigurationIncidents)
        .values(created.map((m) => ({ misconfigurationId: m.id, incidentId })));
      return created;
    },

    async insertLogSource(values: NewLogSource) {
      const [row] = await db.insert(logSources).values(values).returning();
      return row!;
    },

    /** The log source with this id if the scope holds its system. */
    async logSourceInScope(id: number, scope: SystemScope) {
      const [row] = await db
        .select()
        .from(logSources)
        .where(and(eq(logSources.id, id), inScope(logSources.systemId, scope)));
      return row;
    },

    /**
     * Writes event counts into a log source's hour buckets (`add` to the stored counts or `set`
     * them), skipping unchanged rows so the statement triggers see only real changes; then moves
     * the source's last event time forward. Returns that time.
     */
    async writeEpsBuckets(
      source: { id: number; systemId: number },
      hours: Map<number, number>,
      mode: 'add' | 'set',
      latest: number,
    ): Promise<string | Date | null | undefined> {
      const values = [...hours].map(
        ([start, events]) =>
          sql`(${source.id}, ${source.systemId}, ${new Date(start).toISOString()}::timestamptz, ${events})`,
      );
      const update =
        mode === 'add'
          ? sql`events = log_source_event_buckets.events + EXCLUDED.events`
          : sql`events = EXCLUDED.events`;
      await db.execute(sql`
        INSERT INTO log_source_event_buckets (log_source_id, system_id, bucket_start, events)
        VALUES ${sql.join(values, sql`, `)}
        ON CONFLICT (log_source_id, bucket_start) DO UPDATE SET ${update}
        WHERE log_source_event_buckets.events IS DISTINCT FROM (${mode === 'add' ? sql`log_source_event_buckets.events + EXCLUDED.events` : sql`EXCLUDED.events`})`);
      const rows = await queryRows<{ last_event_at: string | Date | null }>(
        db,
        sql`UPDATE log_sources SET last_event_at = GREATEST(COALESCE(last_event_at, '-infinity'::timestamptz), ${new Date(latest).toISOString()}::timestamptz)
            WHERE id = ${source.id} RETURNING last_event_at`,
      );
      return rows[0]?.last_event_at;
    },

    /** The `rule_id` of the rule with this name, if any. */
    async ruleIdOfName(name: string): Promise<string | undefined> {
      const [row] = await db.select({ ruleId: rules.ruleId }).from(rules).where(eq(rules.name, name));
      return row?.ruleId;
    },

    async ruleByRuleId(ruleId: string): Promise<{ id: number } | undefined> {
      const [row] = await db.select({ id: rules.id }).from(rules).where(eq(rules.ruleId, ruleId));
      return row;
    },

    /** Replaces the rule with id `id`, or inserts one when there is none. */
    async saveRule(id: number | undefined, values: RuleValues) {
      const [row] =
        id !== undefined
          ? await db.update(rules).set(values).where(eq(rules.id, id)).returning()
          : await db.insert(rules).values(values).returning();
      return row!;
    },
  };
}
