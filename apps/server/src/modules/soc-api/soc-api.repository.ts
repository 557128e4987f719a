import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
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

// the analyst API's queries: incidents' extra rows, alerts, log sources, EPS, rules

export type CmdbAsset = typeof cmdbAssets.$inferSelect;
export type NewAlert = typeof alerts.$inferInsert;
export type NewSnapshot = typeof incidentSnapshots.$inferInsert;
export type IncidentChanges = Partial<typeof incidents.$inferInsert>;
export type NewMisconfig = Omit<typeof misconfigurations.$inferInsert, 'id'>;
export type NewLogSource = typeof logSources.$inferInsert;
export type RuleValues = typeof rules.$inferInsert;

export function assetsByCmdbId(db: Db, systemId: number, cmdbIds: string[]): Promise<CmdbAsset[]> {
  return db
    .select()
    .from(cmdbAssets)
    .where(and(eq(cmdbAssets.systemId, systemId), inArray(cmdbAssets.cmdbId, cmdbIds)));
}

/** Asset snapshots of an incident; those it has already stay as recorded. */
export async function insertSnapshots(tx: Tx, values: NewSnapshot[]): Promise<void> {
  if (values.length) await tx.insert(incidentSnapshots).values(values).onConflictDoNothing();
}

export function alertsByIds(db: Db, uuids: string[]) {
  return db
    .select({ id: alerts.id, incidentId: alerts.incidentId, systemId: alerts.systemId })
    .from(alerts)
    .where(inArray(alerts.id, uuids));
}

/** Inserts the alerts whose uuid is not stored yet; returns the ids inserted. */
export async function insertNewAlerts(tx: Tx, values: NewAlert[]): Promise<Set<string>> {
  const inserted = await tx
    .insert(alerts)
    .values(values)
    .onConflictDoNothing({ target: alerts.id })
    .returning({ id: alerts.id });
  return new Set(inserted.map((r) => r.id));
}

export async function serviceOfSystem(db: Db, serviceId: number, systemId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: services.id })
    .from(services)
    .where(and(eq(services.id, serviceId), eq(services.systemId, systemId)));
  return row !== undefined;
}

export async function updateIncident(tx: Tx, incidentId: string, set: IncidentChanges): Promise<void> {
  await tx.update(incidents).set(set).where(eq(incidents.id, incidentId));
}

/** Misconfigurations of a system linked to one of its incidents; returns their ids. */
export async function insertIncidentMisconfigs(
  tx: Tx,
  incidentId: string,
  items: NewMisconfig[],
): Promise<{ id: number }[]> {
  const created = await tx.insert(misconfigurations).values(items).returning({ id: misconfigurations.id });
  await tx
    .insert(misconfigurationIncidents)
    .values(created.map((m) => ({ misconfigurationId: m.id, incidentId })));
  return created;
}

export async function insertLogSource(db: Db, values: NewLogSource) {
  const [row] = await db.insert(logSources).values(values).returning();
  return row!;
}

/** The log source with this id if the scope holds its system. */
export async function logSourceInScope(db: Db, id: number, scope: SystemScope) {
  const [row] = await db
    .select()
    .from(logSources)
    .where(and(eq(logSources.id, id), inScope(logSources.systemId, scope)));
  return row;
}

/**
 * Writes event counts into a log source's hour buckets (`add` to the stored counts or `set`
 * them), skipping unchanged rows so the statement triggers see only real changes; then moves
 * the source's last event time forward. Returns that time.
 */
export async function writeEpsBuckets(
  tx: Tx,
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
  await tx.execute(sql`
    INSERT INTO log_source_event_buckets (log_source_id, system_id, bucket_start, events)
    VALUES ${sql.join(values, sql`, `)}
    ON CONFLICT (log_source_id, bucket_start) DO UPDATE SET ${update}
    WHERE log_source_event_buckets.events IS DISTINCT FROM (${mode === 'add' ? sql`log_source_event_buckets.events + EXCLUDED.events` : sql`EXCLUDED.events`})`);
  const rows = await queryRows<{ last_event_at: string | Date | null }>(
    tx,
    sql`UPDATE log_sources SET last_event_at = GREATEST(COALESCE(last_event_at, '-infinity'::timestamptz), ${new Date(latest).toISOString()}::timestamptz)
        WHERE id = ${source.id} RETURNING last_event_at`,
  );
  return rows[0]?.last_event_at;
}

/** The `rule_id` of the rule with this name, if any. */
export async function ruleIdOfName(db: Db, name: string): Promise<string | undefined> {
  const [row] = await db.select({ ruleId: rules.ruleId }).from(rules).where(eq(rules.name, name));
  return row?.ruleId;
}

export async function ruleByRuleId(db: Db, ruleId: string): Promise<{ id: number } | undefined> {
  const [row] = await db.select({ id: rules.id }).from(rules).where(eq(rules.ruleId, ruleId));
  return row;
}

/** Replaces the rule with id `id`, or inserts one when there is none. */
export async function saveRule(db: Db, id: number | undefined, values: RuleValues) {
  const [row] =
    id !== undefined
      ? await db.update(rules).set(values).where(eq(rules.id, id)).returning()
      : await db.insert(rules).values(values).returning();
  return row!;
}
