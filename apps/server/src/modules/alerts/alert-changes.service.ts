import type {
  AlertBulkPayload,
  AlertDetail,
  AlertPatch,
  IncidentIocsPayload,
  Ioc,
  LinkTemplate,
  LinkTemplateCreate,
} from '@soc/contracts';
import {
  ALERT_BULK_MAX,
  AlertBulkPayloadSchema,
  AlertPatchSchema,
  IncidentIocsPayloadSchema,
  LinkTemplateCreateSchema,
} from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { audit } from '../../lib/audit.ts';
import { badRequest, forbidden, notFound } from '../../lib/http-errors.ts';
import type { AuthContext } from '../../core/auth.ts';
import { systemScope } from '../../core/auth.ts';
import { loadIncident } from '../incidents/index.ts';
import type { AlertAccess } from './alert-access.repository.ts';
import type { AlertsRepository } from './alerts.repository.ts';
import { createAlertsRepository } from './alerts.repository.ts';
import { msg } from '../../lib/messages.ts';

/** The changes of alerts (one, or in bulk), of link templates and of an incident's IOC list; each audited. */
export function createAlertChanges(db: Db, repo: AlertsRepository, { visibleAlert, detail }: AlertAccess) {
  return {
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
              response_team: [msg('objectDoesNotExist', input.response_team.id)],
            });
          teamId = team.id;
        }
      }
      await db.transaction(async (tx) => {
        const writes = createAlertsRepository(tx);
        if (input.tags) await writes.setTags(uuid, alert.systemId, input.tags);
        await writes.update([uuid], {
          updatedTime: new Date(),
          ...(teamId !== undefined ? { responseTeamId: teamId } : {}),
        });
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
        const writes = createAlertsRepository(tx);
        const rows = await writes.lockForBulk(ids, input.groups);
        const mine = (systemId: number) => !scope || scope.includes(systemId);
        const found = new Set(rows.map((r) => r.id));
        // a missing or foreign alert or group is a 404 for the whole batch (ids cannot be probed)
        if (ids.some((id) => !found.has(id)) || rows.some((r) => !mine(r.systemId))) throw notFound();
        for (const group of input.groups) if (!rows.some((r) => r.groupNo === group)) throw notFound();
        if (rows.length > ALERT_BULK_MAX)
          throw badRequest({
            non_field_errors: [msg('alertsBulkMax', ALERT_BULK_MAX)],
          });
        if (issue && rows.some((r) => r.systemId !== issue.systemId))
          throw badRequest({ issue: [msg('alertsOwnSystem')] });
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
        if (ids2.length) await writes.update(ids2, { ...set, updatedTime: now });
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

    /** Analysts add link templates (for every system, or one). */
    async createLinkTemplate(raw: LinkTemplateCreate, auth: AuthContext, ip: string): Promise<LinkTemplate> {
      if (auth.role === 'customer') throw forbidden();
      const input = LinkTemplateCreateSchema.parse(raw);
      const row = await repo.insertLinkTemplate({
        name: input.name,
        field: input.field,
        urlTemplate: input.url_template,
      });
      await audit(db, {
        userId: auth.userId,
        action: 'link_template.create',
        objectType: 'link_template',
        objectId: row.id,
        ip,
        details: { name: input.name },
      });
      return { id: row.id, name: row.name, field: row.field, url_template: row.urlTemplate, values: [] };
    },

    /** Analysts replace the incident's IOC list (values checked per type by the schema). */
    async setIocs(key: number, raw: IncidentIocsPayload, auth: AuthContext, ip: string): Promise<Ioc[]> {
      if (auth.role === 'customer') throw forbidden();
      const { iocs } = IncidentIocsPayloadSchema.parse(raw);
      const incident = await loadIncident(db, key, auth);
      const list = iocs.map((i) => ({ ioc: i.ioc, ioc_type: i.ioc_type, category: i.category }));
      await repo.setIncidentIocs(incident.id, list);
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
  };
}
