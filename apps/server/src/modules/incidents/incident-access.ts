import { and, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { parseJson, type Db, type Tx } from '../../db/client.ts';
import { incidents } from '../../db/schema/index.ts';
import { notFound } from '../../lib/http-errors.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import { systemScope } from '../../plugins/auth.ts';

export type IncidentRecord = typeof incidents.$inferSelect;

/** The tenant condition of a caller on the incidents table. */
export function scopeCondition(auth: AuthContext) {
  const scope = systemScope(auth);
  if (!scope) return sql`TRUE`;
  return scope.length ? inArray(incidents.systemId, scope) : sql`FALSE`;
}

/**
 * The incident with this key if the caller may see it; another tenant's incident is a 404 so
 * that keys cannot be probed. `forUpdate` locks the row inside a transaction.
 */
export async function loadIncident(
  db: Db,
  key: number,
  auth: AuthContext,
  forUpdate = false,
): Promise<IncidentRecord> {
  const query = db
    .select()
    .from(incidents)
    .where(and(eq(incidents.key, key), scopeCondition(auth)))
    .limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  if (!row) throw notFound();
  return row;
}

/**
 * The incident a comment or file is about, locked for the writer's transaction (status moves are
 * serialised). Take it first, before the storage-quota lock: every writer of an incident's files
 * locks in that order, so two of them never wait on each other's lock.
 */
export async function lockIncident(tx: Tx, incidentId: string) {
  const [locked] = await tx
    .select({ id: incidents.id, key: incidents.key, status: incidents.status, systemId: incidents.systemId })
    .from(incidents)
    .where(eq(incidents.id, incidentId))
    .for('update');
  return locked;
}

const INCIDENT_COLUMNS = Object.entries(getTableColumns(incidents));

/**
 * An incident record from `row_to_json` of an incidents row (as the card's statement reads it):
 * the same values as a drizzle select, JSON columns parsed, timestamps as Dates.
 */
export function incidentFromJson(value: Record<string, unknown> | string): IncidentRecord {
  const raw = parseJson(value);
  const record: Record<string, unknown> = {};
  for (const [field, column] of INCIDENT_COLUMNS) {
    const v = raw[column.name] ?? null;
    record[field] = v !== null && column.dataType === 'date' ? new Date(v as string) : v;
  }
  return record as IncidentRecord;
}
