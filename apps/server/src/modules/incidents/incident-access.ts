import type { Db } from '../../db/client.ts';
import { notFound } from '../../lib/http-errors.ts';
import type { AuthContext } from '../../core/auth.ts';
import type { IncidentRecord } from './incident-access.repository.ts';
import { createIncidentAccessRepository, scopeCondition } from './incident-access.repository.ts';

export type { IncidentRecord } from './incident-access.repository.ts';
export {
  createIncidentAccessRepository,
  incidentFromJson,
  scopeCondition,
} from './incident-access.repository.ts';

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
  const row = await createIncidentAccessRepository(db).findIncidentByKey(
    key,
    scopeCondition(auth),
    forUpdate,
  );
  if (!row) throw notFound();
  return row;
}
