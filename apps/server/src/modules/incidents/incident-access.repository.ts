import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { parseJson } from '../../db/client.ts';
import { incidents } from '../../db/schema/index.ts';

import type { AuthContext } from '../../core/auth.ts';
import { systemScope } from '../../core/auth.ts';
import { inScope } from '../../db/fragments.ts';

export type IncidentRecord = typeof incidents.$inferSelect;

/** The tenant condition of a caller on the incidents table. */
export function scopeCondition(auth: AuthContext) {
  return inScope(incidents.systemId, systemScope(auth)) ?? sql`TRUE`;
}

/** The reads of one incident that its actions share; a writer passes its transaction. */
export function createIncidentAccessRepository(db: Db) {
  return {
    /** The incident with this key within a tenant condition; `forUpdate` locks the row. */
    async findIncidentByKey(key: number, seen: SQL, forUpdate: boolean) {
      const query = db
        .select()
        .from(incidents)
        .where(and(eq(incidents.key, key), seen))
        .limit(1);
      const [row] = forUpdate ? await query.for('update') : await query;
      return row;
    },

    /**
     * The incident a comment or file is about, locked for the writer's transaction (status moves are
     * serialised). Take it first, before the storage-quota lock: every writer of an incident's files
     * locks in that order, so two of them never wait on each other's lock.
     */
    async lockIncident(incidentId: string) {
      const [locked] = await db
        .select({
          id: incidents.id,
          key: incidents.key,
          status: incidents.status,
          systemId: incidents.systemId,
        })
        .from(incidents)
        .where(eq(incidents.id, incidentId))
        .for('update');
      return locked;
    },
  };
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
