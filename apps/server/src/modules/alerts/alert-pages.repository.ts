import type { SQL } from 'drizzle-orm';
import { and, eq, gte, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { Alert, AlertListParams } from '@soc/contracts';
import { alerts, incidents } from '../../db/schema/index.ts';
import { notFound } from '../../lib/http-errors.ts';
import { likePattern } from '../../lib/pagination.ts';
import type { SystemScope } from '../../lib/scope.ts';
import type { AuthContext } from '../../core/auth.ts';
import { scopeCondition } from '../incidents/index.ts';
import type { Page } from './alert-access.repository.ts';
import { alertScope } from './alert-access.repository.ts';
import { presentAlert } from './alerts.presenter.ts';
import type { AlertsRepository } from './alerts.repository.ts';
import { incidentTotal, ofIncidentKeys, systemsTotal } from './alerts.repository.ts';

/** The two alert lists as their pages are built (the cache in alerts.service.ts sits in front). */
export function createAlertPages(repo: AlertsRepository) {
  /** A page of an incident's alerts, newest first (404 for another tenant's incident). */
  async function incidentAlertsPage(
    key: number,
    q: { page: number; page_size: number; search?: string },
    auth: AuthContext,
  ): Promise<Page<Alert>> {
    const scope = scopeCondition(auth);
    if (!q.search && q.page === 1) {
      // the common request in one statement: the incident's id from its key within the
      // caller's scope, the page and the count table's total; no row leaves the 404 or the
      // empty list to the statements below
      const incidentId = sql`(SELECT ${incidents.id} FROM ${incidents} WHERE ${incidents.key} = ${key} AND ${scope})`;
      const first = await repo.firstPage(
        sql`${alerts.incidentId} = ${incidentId}`,
        '-created_time',
        q.page_size,
        incidentTotal,
      );
      if (first.rows.length) return { total: first.total, results: first.rows.map(presentAlert) };
    }
    // the incident (404 for another tenant's) and its alert count from one statement
    const incident = await repo.incidentWithCount(key, scope);
    if (!incident) throw notFound();
    const conditions: SQL[] = [eq(alerts.incidentId, incident.id)];
    if (q.search) {
      const p = likePattern(q.search);
      conditions.push(
        or(
          sql`${alerts.title} ILIKE ${p}`,
          sql`${alerts.sourceTag} ILIKE ${p}`,
          sql`${alerts.affectedAssets}::text ILIKE ${p}`,
        )!,
      );
    }
    const { total, rows } = await repo.page(
      and(...conditions),
      '-created_time',
      q.page_size,
      (q.page - 1) * q.page_size,
      q.search ? undefined : incident.n,
    );
    return { total, results: rows.map(presentAlert) };
  }

  /** A page of /soc/alerts/; `systemIds`: the systems whose alerts it can show (null: all). */
  async function alertList(
    q: AlertListParams,
    auth: AuthContext,
    systemIds: SystemScope,
  ): Promise<Page<Alert>> {
    const c: (SQL | undefined)[] = [alertScope(auth)];
    if (q.severity__in) c.push(inArray(alerts.severity, q.severity__in));
    if (q.status__in) c.push(inArray(alerts.status, q.status__in));
    if (q.priority__in) c.push(inArray(alerts.priority, q.priority__in));
    if (q.state__in) c.push(inArray(alerts.state, q.state__in));
    if (q.platform__in) c.push(inArray(alerts.platform, q.platform__in));
    if (q.group__in) c.push(inArray(alerts.groupNo, q.group__in));
    if (q.system__in) c.push(inArray(alerts.systemId, q.system__in));
    if (q.assignee__in) c.push(inArray(alerts.assigneeId, q.assignee__in));
    if (q.assignee__isnull !== undefined)
      c.push(q.assignee__isnull ? isNull(alerts.assigneeId) : isNotNull(alerts.assigneeId));
    if (q.grouped !== undefined) c.push(q.grouped ? isNotNull(alerts.incidentId) : isNull(alerts.incidentId));
    if (q.incident__in) c.push(ofIncidentKeys(q.incident__in));
    if (q.title__icontains) c.push(sql`${alerts.title} ILIKE ${likePattern(q.title__icontains)}`);
    if (q.affected_assets__icontains)
      c.push(sql`${alerts.affectedAssets}::text ILIKE ${likePattern(q.affected_assets__icontains)}`);
    if (q.search) {
      const p = likePattern(q.search);
      c.push(or(sql`${alerts.title} ILIKE ${p}`, sql`${alerts.sourceTag} ILIKE ${p}`));
    }
    if (q.created_time__gte !== undefined) c.push(gte(alerts.createdTime, new Date(q.created_time__gte)));
    if (q.created_time__lte !== undefined) c.push(lte(alerts.createdTime, new Date(q.created_time__lte)));
    if (q.updated_time__gte !== undefined) c.push(gte(alerts.updatedTime, new Date(q.updated_time__gte)));
    if (q.updated_time__lte !== undefined) c.push(lte(alerts.updatedTime, new Date(q.updated_time__lte)));
    // no filter but the systems: the total is a sum over the per-system count table, and the
    // first page comes with it in one statement
    let knownTotal: number | undefined;
    if (c.length === (q.system__in ? 2 : 1)) {
      if (q.page === 1) {
        const first = await repo.firstPage(and(...c)!, q.ordering, q.page_size, systemsTotal(systemIds));
        return { total: first.total, results: first.rows.map(presentAlert) };
      }
      knownTotal = await repo.systemsCount(systemIds);
    }
    const { total, rows } = await repo.page(
      and(...c),
      q.ordering,
      q.page_size,
      (q.page - 1) * q.page_size,
      knownTotal,
    );
    return { total, results: rows.map(presentAlert) };
  }

  return { incidentAlertsPage, alertList };
}
