import type {
  Alert,
  AlertDetail,
  AlertListParams,
  AlertTree,
  GroupedAlertData,
  LinkTemplate,
  Misconfig,
  ResponseTeam,
  Snapshot,
  Tag,
} from '@soc/contracts';
import { isSafeLink } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { badRequest } from '../../lib/http-errors.ts';
import { msg } from '../../lib/messages.ts';
import type { AuthContext } from '../../core/auth.ts';
import { effectiveSystems } from '../../lib/scope.ts';
import { systemScope } from '../../core/auth.ts';
import { loadIncident } from '../incidents/index.ts';
import { createMisconfigsService } from '../misconfigs/index.ts';
import type { Page } from './alert-access.repository.ts';
import { alertScope, createAlertAccess } from './alert-access.repository.ts';
import { createAlertChanges } from './alert-changes.service.ts';
import { createAlertPages } from './alert-pages.repository.ts';
import {
  buildProcessTree,
  eventValues,
  presentAlert,
  presentGroupedData,
  presentSnapshot,
} from './alerts.presenter.ts';
import type { AlertsResponseCache } from './alerts.cache.ts';
import { createAlertsRepository } from './alerts.repository.ts';

/** Alerts, their tags, teams and links; the CMDB snapshots and misconfigurations of incidents (product §A7). */
export interface AlertsDeps {
  db: Db;
  /** Pages answered through it when given. */
  cache?: AlertsResponseCache;
}

export function createAlertsService({ db, cache }: AlertsDeps) {
  const repo = createAlertsRepository(db);
  const misconfigs = createMisconfigsService({ db });
  const access = createAlertAccess(db, repo);
  const { incidentAlert, detail, events, visibleAlert } = access;
  const { incidentAlertsPage, alertList } = createAlertPages(repo);

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
      if (!tree) throw badRequest({ non_field_errors: [msg('alertNoProcessTree')] });
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
        repo.symptomaticWhere(uuid, alert.groupNo, alertScope(auth)),
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
      if (!template) throw badRequest({ template: [msg('objectDoesNotExist', q.template)] });
      const values = eventValues((await events(uuid)).events, template.field).map((v) => v.value);
      const value = q.value ?? values[0];
      if (value === undefined || !values.includes(value))
        throw badRequest({ value: [msg('alertNoSuchValue')] });
      const url = template.urlTemplate.replaceAll('{value}', encodeURIComponent(value));
      if (!isSafeLink(url) || !/^https?:\/\//i.test(url))
        throw badRequest({ non_field_errors: [msg('httpLinksOnly')] });
      return { url };
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

    ...createAlertChanges(db, repo, access),
  };
}

export type AlertsService = ReturnType<typeof createAlertsService>;
