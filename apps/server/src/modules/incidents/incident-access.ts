import { getTableColumns, sql } from 'drizzle-orm';
import { parseJson, type Db } from '../../db/client.ts';
import { incidents } from '../../db/schema/index.ts';
import { notFound } from '../../lib/http-errors.ts';
import { inScope } from '../../lib/scope.ts';
import type { AuthContext } from '../../core/auth.ts';
import { systemScope } from '../../core/auth.ts';
import { findIncidentByKey, lockIncident } from './incident-access.repository.ts';

export type IncidentRecord = typeof incidents.$inferSelect;

/** The tenant condition of a caller on the incidents table. */
export function scopeCondition(auth: AuthContext) {
  return inScope(incidents.systemId, systemScope(auth)) ?? sql`TRUE`;
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
  const row = await findIncidentByKey(db, key, scopeCondition(auth), forUpdate);
  if (!row) throw notFound();
  return row;
}

export { lockIncident };

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
