import type { SQL } from 'drizzle-orm';
import { and, eq, gte, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type {
  Alert,
  AlertBulkPayload,
  AlertDetail,
  AlertListParams,
  AlertPatch,
  AlertTree,
  GroupedAlertData,
  IncidentIocsPayload,
  Ioc,
  LinkTemplate,
  LinkTemplateCreate,
  Misconfig,
  ResponseTeam,
  Snapshot,
  Tag,
} from '@soc/contracts';
import {
  ALERT_BULK_MAX,
  AlertBulkPayloadSchema,
  AlertPatchSchema,
  IncidentIocsPayloadSchema,
  LinkTemplateCreateSchema,
  isSafeLink,
} from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { alerts, incidents, linkTemplates } from '../../db/schema/index.ts';
import { audit } from '../../lib/audit.ts';
import { badRequest, forbidden, notFound } from '../../lib/http-errors.ts';
import { likePattern } from '../../lib/pagination.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import { effectiveSystems } from '../../lib/scope.ts';
import { systemScope } from '../../plugins/auth.ts';
import { loadIncident, scopeCondition } from '../incidents/index.ts';
import {
  buildProcessTree,
  eventValues,
  presentAlert,
  presentAlertDetail,
  presentGroupedData,
  presentSnapshot,
} from './alerts.presenter.ts';
import { createMisconfigsService } from '../misconfigs/misconfigs.service.ts';
import type { AlertsResponseCache } from './alerts.cache.ts';
import { createAlertsRepository, incidentTotal, systemsTotal } from './alerts.repository.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Page<T> = { total: number; results: T[] };

/** The tenant condition of a caller on the alerts table. */
function alertScope(auth: AuthContext): SQL {
  const scope = systemScope(auth);
  if (!scope) return sql`TRUE`;
  return scope.length ? inArray(alerts.systemId, scope) : sql`FALSE`;
}

/** Alerts, their tags, teams and links; the CMDB snapshots and misconfigurations of incidents (spec 000 §7). */
export interface AlertsDeps {
  db: Db;
  /** Pages answered through it when given. */
  cache?: AlertsResponseCache;
}

export function createAlertsService({ db, cache }: AlertsDeps) {
  const repo = createAlertsRepository(db);
  const misconfigs = createMisconfigsService({ db });

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
    systemIds: number[] | null,
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
    if (q.incident__in)
      c.push(
        inArray(
          alerts.incidentId,
          db.select({ id: incidents.id }).from(incidents).where(inArray(incidents.key, q.incident__in)),
        ),
      );
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

  return {
    /** GET {incident}/alerts/?page=n: newest first. */
    async incidentAlerts(
      key: number,
      q: { page: number; page_size: number; search?: string },
      auth: AuthContext,
    ): Promise<Page<Alert>> {
      const build = () => incidentAlertsPage(key, q, auth);
      return cache ? cache.incident(key, systemScope(auth), q, build) : build();
    },

    async incidentAlert(key: number, uuid: string, auth: AuthContext): Promise<AlertDetail> {
      await incidentAlert(key, uuid, auth);
      return detail(uuid, auth);
    },

    async groupedData(key: number, uuid: string, auth: AuthContext): Promise<GroupedAlertData> {
      await incidentAlert(key, uuid, auth);
      return presentGroupedData((await events(uuid)).events);
    },

    async tree(key: number, uuid: string, auth: AuthContext): Promise<AlertTree> {
      await incidentAlert(key, uuid, auth);
      const found = await events(uuid);
      const tree = buildProcessTree(found.events, found.created);
      if (!tree)
        throw badRequest({ non_field_errors: ['The alert has no process events to build a tree from.'] });
      return tree;
    },

    /** The other alerts of the alert's correlation group. */
    async symptomatic(
      key: number,
      uuid: string,
      q: { page: number; page_size: number },
      auth: AuthContext,
    ): Promise<Page<Alert>> {
      const alert = await incidentAlert(key, uuid, auth);
      if (alert.groupNo === null) return { total: 0, results: [] };
      const { total, rows } = await repo.page(
        and(repo.symptomaticWhere(uuid, alert.groupNo), alertScope(auth)),
        '-created_time',
        q.page_size,
        (q.page - 1) * q.page_size,
      );
      return { total, results: rows.map(presentAlert) };
    },

    /** GET /soc/alerts/: the alert columns as filters. */
    async list(q: AlertListParams, auth: AuthContext): Promise<Page<Alert>> {
      const scope = systemScope(auth);
      // the systems whose alerts the page can show
      const systemIds = effectiveSystems(q, scope);
      if (systemIds?.length === 0) return { total: 0, results: [] };
      const build = () => alertList(q, auth, systemIds);
      return cache ? cache.list(systemIds, scope, q, build) : build();
    },

    /** PATCH /soc/alerts/{uuid}/: tags (the whole list) and the response team. */
    async patch(uuid: string, raw: AlertPatch, auth: AuthContext, ip: string): Promise<AlertDetail> {
      const input = AlertPatchSchema.parse(raw);
      const alert = await visibleAlert(uuid, auth);
      let teamId: number | null | undefined;
      if (input.response_team !== undefined) {
        if (input.response_team === null) teamId = null;
        else {
          const team = await repo.teamOfSystem(input.response_team.id, alert.systemId);
          if (!team)
            throw badRequest({
              response_team: [`Invalid pk "${input.response_team.id}" - object does not exist.`],
            });
          teamId = team.id;
        }
      }
      await db.transaction(async (tx) => {
        if (input.tags) await repo.setTags(tx, uuid, alert.systemId, input.tags);
        await tx
          .update(alerts)
          .set({ updatedTime: new Date(), ...(teamId !== undefined ? { responseTeamId: teamId } : {}) })
          .where(eq(alerts.id, uuid));
      });
      await audit(db, {
        userId: auth.userId,
        action: 'alert.update',
        objectType: 'alert',
        objectId: uuid,
        ip,
        details: {
          ...(input.tags ? { tags: input.tags.map((t) => t.name) } : {}),
          ...(teamId !== undefined ? { response_team: teamId } : {}),
        },
      });
      return detail(uuid, auth);
    },

    /**
     * POST /soc/alerts/bulk/: every alert (named or in a group) must be the caller's, else 404
     * and nothing changes; one transaction with the rows locked.
     */
    async bulk(
      raw: AlertBulkPayload,
      auth: AuthContext,
      ip: string,
    ): Promise<{ updated: number; alerts: string[] }> {
      const input = AlertBulkPayloadSchema.parse(raw);
      const scope = systemScope(auth);
      const ids = [...new Set(input.alerts.map((a) => a.toLowerCase()))];
      const issue = input.action === 'attach' ? await loadIncident(db, input.issue!, auth) : null;
      const now = new Date();
      const changed = await db.transaction(async (tx) => {
        const rows = await repo.lockForBulk(tx, ids, input.groups);
        const mine = (systemId: number) => !scope || scope.includes(systemId);
        const found = new Set(rows.map((r) => r.id));
        // a missing or foreign alert or group is a 404 for the whole batch (ids cannot be probed)
        if (ids.some((id) => !found.has(id)) || rows.some((r) => !mine(r.systemId))) throw notFound();
        for (const group of input.groups) if (!rows.some((r) => r.groupNo === group)) throw notFound();
        if (rows.length > ALERT_BULK_MAX)
          throw badRequest({
            non_field_errors: [`At most ${ALERT_BULK_MAX} alerts can be changed at once.`],
          });
        if (issue && rows.some((r) => r.systemId !== issue.systemId))
          throw badRequest({ issue: ['Alerts can only be attached to an incident of their own system.'] });
        const set =
          input.action === 'close'
            ? {
                status: 'closed' as const,
                state: input.classification!,
                classificationDetails: input.classification_details,
              }
            : input.action === 'reopen'
              ? { status: 'new' as const, state: 'unclassified' as const, classificationDetails: '' }
              : input.action === 'take_in_work'
                ? { status: 'in_progress' as const, assigneeId: auth.userId }
                : { incidentId: issue!.id };
        const ids2 = rows.map((r) => r.id);
        if (ids2.length)
          await tx
            .update(alerts)
            .set({ ...set, updatedTime: now })
            .where(inArray(alerts.id, ids2));
        return ids2;
      });
      await audit(db, {
        userId: auth.userId,
        action: `alert.bulk.${input.action}`,
        objectType: 'alert',
        ip,
        details: {
          alerts: changed.length,
          groups: input.groups,
          ...(input.classification ? { classification: input.classification } : {}),
          ...(issue ? { issue: issue.key } : {}),
        },
      });
      return { updated: changed.length, alerts: changed };
    },

    async tags(q: { limit: number; q?: string }, auth: AuthContext): Promise<Tag[]> {
      return repo.tagSuggestions(systemScope(auth), q.q || undefined, q.limit);
    },

    async responseTeams(
      q: { limit: number; search?: string; system?: number },
      auth: AuthContext,
    ): Promise<ResponseTeam[]> {
      return repo.teams(systemScope(auth), q.system, q.search || undefined, q.limit);
    },

    /** Link templates whose field has values in the alert. */
    async availableLinkTemplates(uuid: string, auth: AuthContext): Promise<LinkTemplate[]> {
      const alert = await visibleAlert(uuid, auth);
      const { events: list } = await events(uuid);
      const templates = await repo.templates(alert.systemId);
      return templates
        .map((t) => ({
          id: t.id,
          name: t.name,
          field: t.field,
          url_template: t.urlTemplate,
          values: eventValues(list, t.field).map((v) => v.value),
        }))
        .filter((t) => t.values.length > 0);
    },

    /** The template filled with one of the alert's values; only http(s) results are given out. */
    async link(
      uuid: string,
      q: { template: number; value?: string },
      auth: AuthContext,
    ): Promise<{ url: string }> {
      const alert = await visibleAlert(uuid, auth);
      const template = await repo.template(q.template, alert.systemId);
      if (!template) throw badRequest({ template: [`Invalid pk "${q.template}" - object does not exist.`] });
      const values = eventValues((await events(uuid)).events, template.field).map((v) => v.value);
      const value = q.value ?? values[0];
      if (value === undefined || !values.includes(value))
        throw badRequest({ value: ['The alert has no such value for this template.'] });
      const url = template.urlTemplate.replaceAll('{value}', encodeURIComponent(value));
      if (!isSafeLink(url) || !/^https?:\/\//i.test(url))
        throw badRequest({ non_field_errors: ['Only http and https links are allowed.'] });
      return { url };
    },

    /** Analysts add link templates (for every system, or one). */
    async createLinkTemplate(raw: LinkTemplateCreate, auth: AuthContext, ip: string): Promise<LinkTemplate> {
      if (auth.role === 'customer') throw forbidden();
      const input = LinkTemplateCreateSchema.parse(raw);
      const [row] = await db
        .insert(linkTemplates)
        .values({ name: input.name, field: input.field, urlTemplate: input.url_template })
        .returning();
      await audit(db, {
        userId: auth.userId,
        action: 'link_template.create',
        objectType: 'link_template',
        objectId: row!.id,
        ip,
        details: { name: input.name },
      });
      return { id: row!.id, name: row!.name, field: row!.field, url_template: row!.urlTemplate, values: [] };
    },

    /** Analysts replace the incident's IOC list (values checked per type by the schema). */
    async setIocs(key: number, raw: IncidentIocsPayload, auth: AuthContext, ip: string): Promise<Ioc[]> {
      if (auth.role === 'customer') throw forbidden();
      const { iocs } = IncidentIocsPayloadSchema.parse(raw);
      const incident = await loadIncident(db, key, auth);
      const list = iocs.map((i) => ({ ioc: i.ioc, ioc_type: i.ioc_type, category: i.category }));
      await db
        .update(incidents)
        .set({ observedIocs: list, updated: new Date() })
        .where(eq(incidents.id, incident.id));
      await audit(db, {
        userId: auth.userId,
        action: 'incident.iocs',
        objectType: 'incident',
        objectId: key,
        ip,
        details: { iocs: list.length },
      });
      return list;
    },

    async snapshots(
      key: number,
      q: { page: number; page_size: number },
      auth: AuthContext,
    ): Promise<Page<Snapshot>> {
      const incident = await loadIncident(db, key, auth);
      const { total, rows } = await repo.snapshots(incident.id, q.page_size, (q.page - 1) * q.page_size);
      return { total, results: rows.map(presentSnapshot) };
    },

    async misconfigs(
      key: number,
      q: { page: number; page_size: number },
      auth: AuthContext,
    ): Promise<Page<Misconfig>> {
      const incident = await loadIncident(db, key, auth);
      return misconfigs.ofIncident(incident.id, q);
    },
  };
}

export type AlertsService = ReturnType<typeof createAlertsService>;
