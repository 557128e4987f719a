import type { SQL } from 'drizzle-orm';
import { and, eq, sql } from 'drizzle-orm';
import type { AlertDetail } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { alerts } from '../../db/schema/index.ts';
import { notFound } from '../../lib/http-errors.ts';

import type { AuthContext } from '../../core/auth.ts';
import { systemScope } from '../../core/auth.ts';
import { loadIncident } from '../incidents/index.ts';
import { presentAlertDetail } from './alerts.presenter.ts';
import type { AlertsRepository } from './alerts.repository.ts';
import { inScope } from '../../db/fragments.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type Page<T> = { total: number; results: T[] };

/** The tenant condition of a caller on the alerts table. */
export function alertScope(auth: AuthContext): SQL {
  const scope = systemScope(auth);
  return inScope(alerts.systemId, scope) ?? sql`TRUE`;
}

/** The reads of one alert that the alert services share, each within the caller's scope (404 otherwise). */
export function createAlertAccess(db: Db, repo: AlertsRepository) {
  /** The alert with this uuid if the caller may see it (and, with an incident, if it belongs to it). */
  async function visibleAlert(uuid: string, auth: AuthContext, incidentId?: string) {
    if (!UUID.test(uuid)) throw notFound();
    const row = await repo.find(
      and(eq(alerts.id, uuid), alertScope(auth), incidentId ? eq(alerts.incidentId, incidentId) : undefined)!,
    );
    if (!row) throw notFound();
    return row;
  }

  async function detail(uuid: string, auth: AuthContext): Promise<AlertDetail> {
    const row = await repo.one(and(eq(alerts.id, uuid), alertScope(auth))!);
    if (!row) throw notFound();
    return presentAlertDetail(row);
  }

  async function incidentAlert(key: number, uuid: string, auth: AuthContext) {
    const incident = await loadIncident(db, key, auth);
    return visibleAlert(uuid, auth, incident.id);
  }

  async function events(uuid: string) {
    const found = await repo.events(uuid);
    if (!found) throw notFound();
    return found;
  }

  return { visibleAlert, detail, incidentAlert, events };
}

export type AlertAccess = ReturnType<typeof createAlertAccess>;
