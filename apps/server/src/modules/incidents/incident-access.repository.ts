import { and, eq } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { incidents } from '../../db/schema/index.ts';

/** The incident with this key within a tenant condition; `forUpdate` locks the row. */
export async function findIncidentByKey(db: Db, key: number, seen: SQL, forUpdate: boolean) {
  const query = db
    .select()
    .from(incidents)
    .where(and(eq(incidents.key, key), seen))
    .limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
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
