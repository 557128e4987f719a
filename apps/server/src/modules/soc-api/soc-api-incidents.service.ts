import type {
  AnalystComment,
  AnalystIncidentCard,
  AnalystNote,
  AnalystNoteCreate,
  AnalystIncidentCreate,
  AnalystIncidentUpdate,
  AnalystStatus,
  Language,
} from '@soc/contracts';
import {
  AnalystCommentSchema,
  AnalystNoteCreateSchema,
  AnalystIncidentCreateSchema,
  AnalystIncidentUpdateSchema,
  AnalystStatusSchema,
} from '@soc/contracts';
import { audit } from '../../lib/audit.ts';
import { badRequest } from '../../lib/http-errors.ts';
import { msg } from '../../lib/messages.ts';
import { renderMarkdown } from '../../lib/markdown.ts';
import type { AuthContext } from '../../core/auth.ts';
import type { CommentRow } from '../incidents/index.ts';
import { insertComment, insertNote, notesPage } from '../incidents/index.ts';
import { displayName } from '../users/index.ts';
import {
  checkCategories,
  createIncidentAccessRepository,
  doesNotExist,
  loadIncident,
  registerIncident,
} from '../incidents/index.ts';
import { createSocApiRepository } from './soc-api.repository.ts';
import { createSocQueueRepository } from './soc-queue.repository.ts';
import type { SocApiContext } from './soc-api.context.ts';
import {
  alertAssetIds,
  assetsOf,
  flattenMitre,
  futurePlan,
  insertAlerts,
  snapshot,
  staffOnly,
  storedAlerts,
} from './soc-api.shared.ts';

/** A note as staff read it. */
const presentNote = (r: CommentRow): AnalystNote => ({
  id: r.id,
  author: r.authorName,
  author_id: r.authorId,
  body: r.body,
  created: r.created.getTime(),
  internal: true,
});

/** The analyst API's incident calls: create, change, close, comment, internal notes. */
export function createSocApiIncidents({ db, card, onCreated, onStatus, planGossopka }: SocApiContext) {
  const repo = createSocApiRepository(db);
  const queue = createSocQueueRepository(db);
  /** The card as customers get it and, for staff only, who works the incident at the SOC. */
  const staffCard = async (key: number, auth: AuthContext, lang: Language): Promise<AnalystIncidentCard> => ({
    ...(await card.card(key, auth, lang)),
    soc_assignee: await queue.socAssignee(key),
  });
  return {
    staffCard,

    /** Creates an incident with every field of product §A3, its asset snapshots and alerts, in one transaction. */
    async createIncident(
      raw: AnalystIncidentCreate,
      auth: AuthContext,
      ip: string,
      lang: Language,
    ): Promise<AnalystIncidentCard> {
      staffOnly(auth);
      const input = AnalystIncidentCreateSchema.parse(raw);
      const uuids = input.alerts.map((a) => a.uuid);
      const created = await registerIncident(db, input, auth, ip, async (systemId) => {
        const assets = await assetsOf(
          db,
          systemId,
          [...input.affected_assets, ...alertAssetIds(input.alerts)],
          'affected_assets',
        );
        if (new Set(uuids).size !== uuids.length)
          throw badRequest({ alerts: ['Each alert uuid may appear once.'] });
        const taken = [...(await storedAlerts(db, uuids)).keys()];
        if (taken.length) throw badRequest({ alerts: [`Alert ${taken[0]} is already stored.`] });
        return {
          reporterName: input.reporter_name,
          fields: {
            tags: [...new Set(input.tags)],
            recommendations: input.recommendations,
            statusDescription: input.status_description,
            affectedSystems: input.affected_systems,
            activityDetectedAt:
              input.activity_detected_at === null ? null : new Date(input.activity_detected_at),
            observedIocs: input.observed_iocs.map((i) => ({
              ioc: i.ioc,
              ioc_type: i.ioc_type,
              category: i.category,
            })),
            ...flattenMitre(input.mitre_cov),
            detectionRules: [...new Set(input.detection_rules)],
            gossopkaPlannedTime: futurePlan(input.gossopka_planned_time),
          },
          async write(tx, row) {
            await snapshot(
              tx,
              row.id,
              input.affected_assets.map((id) => assets.get(id)!),
            );
            await insertAlerts(tx, row, input.alerts, assets);
          },
          auditDetails: { alerts: uuids.length, via: auth.tokenId ? 'token' : 'session' },
        };
      });
      // `extend` refused a plan that is not in the future before anything was written
      if (input.gossopka_planned_time !== null)
        await planGossopka(created.id, new Date(input.gossopka_planned_time));
      await onCreated(created.id);
      return staffCard(created.key, auth, lang);
    },

    /** Changes any field; lists replace the stored ones, `affected_assets` adds snapshots. */
    async updateIncident(
      key: number,
      raw: AnalystIncidentUpdate,
      auth: AuthContext,
      ip: string,
      lang: Language,
    ): Promise<AnalystIncidentCard> {
      staffOnly(auth);
      const input = AnalystIncidentUpdateSchema.parse(raw);
      const row = await loadIncident(db, key, auth);
      await checkCategories(db, row.issueTypeId, input.primary_category, input.secondary_category);
      if (input.service !== undefined && !(await repo.serviceOfSystem(input.service, row.systemId)))
        throw badRequest({ service: [doesNotExist(input.service)] });
      const assets = await assetsOf(db, row.systemId, input.affected_assets ?? [], 'affected_assets');
      if (input.soc_assignee != null) {
        const role = await queue.userRole(input.soc_assignee);
        if (role !== 'analyst' && role !== 'admin')
          throw badRequest({ soc_assignee: [msg('socAssigneeNotStaff')] });
      }
      let planned: Date | null | undefined;
      if (input.gossopka_planned_time !== undefined) {
        if (row.gossopkaId) throw badRequest({ gossopka_planned_time: [msg('gossopkaAlreadySent')] });
      }
      const set = {
        ...(input.service !== undefined ? { serviceId: input.service } : {}),
        ...(input.primary_category !== undefined ? { categoryId: input.primary_category } : {}),
        ...(input.secondary_category !== undefined
          ? { secondaryCategoryIds: [...new Set(input.secondary_category)] }
          : {}),
        ...(input.summary !== undefined ? { summary: input.summary } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.priority !== undefined ? { priority: input.priority } : {}),
        ...(input.tags !== undefined ? { tags: [...new Set(input.tags)] } : {}),
        ...(input.recommendations !== undefined ? { recommendations: input.recommendations } : {}),
        ...(input.status_description !== undefined ? { statusDescription: input.status_description } : {}),
        ...(input.affected_systems !== undefined ? { affectedSystems: input.affected_systems } : {}),
        ...(input.activity_detected_at !== undefined
          ? {
              activityDetectedAt:
                input.activity_detected_at === null ? null : new Date(input.activity_detected_at),
            }
          : {}),
        ...(input.observed_iocs !== undefined
          ? {
              observedIocs: input.observed_iocs.map((i) => ({
                ioc: i.ioc,
                ioc_type: i.ioc_type,
                category: i.category ?? [],
              })),
            }
          : {}),
        ...(input.mitre_cov !== undefined ? flattenMitre(input.mitre_cov) : {}),
        ...(input.detection_rules !== undefined
          ? { detectionRules: [...new Set(input.detection_rules)] }
          : {}),
        ...(planned !== undefined ? { gossopkaPlannedTime: planned } : {}),
        ...(input.soc_assignee !== undefined ? { socAssigneeId: input.soc_assignee } : {}),
      };
      await db.transaction(async (tx) => {
        await createSocApiRepository(tx).updateIncident(row.id, { ...set, updated: new Date() });
        await snapshot(tx, row.id, assets.values());
      });
      await audit(db, {
        userId: auth.userId,
        action: 'incident.update',
        objectType: 'incident',
        objectId: key,
        ip,
        details: {
          fields: Object.keys(input),
          ...(input.priority && input.priority !== row.priority
            ? { priority: [row.priority, input.priority] }
            : {}),
          ...(input.soc_assignee !== undefined && input.soc_assignee !== row.socAssigneeId
            ? { soc_assignee: [row.socAssigneeId, input.soc_assignee] }
            : {}),
        },
      });
      if (planned) await planGossopka(row.id, planned);
      return staffCard(key, auth, lang);
    },

    /** Completed or Canceled, with the analysts' comment (the workflow of design §5 decides). */
    async setStatus(
      key: number,
      raw: AnalystStatus,
      auth: AuthContext,
      ip: string,
      lang: Language,
    ): Promise<AnalystIncidentCard> {
      staffOnly(auth);
      const input = AnalystStatusSchema.parse(raw);
      const done = await card.runAction(
        input.status === 'completed' ? 'complete' : 'cancel',
        key,
        { comment: input.comment },
        auth,
        ip,
        lang,
      );
      return { ...done, soc_assignee: await queue.socAssignee(key) };
    },

    /** A comment marked as the SOC's; in Waiting for support it hands the incident to the customer. */
    async comment(key: number, raw: AnalystComment, auth: AuthContext, ip: string) {
      staffOnly(auth);
      const input = AnalystCommentSchema.parse(raw);
      const incident = await loadIncident(db, key, auth);
      const me = await displayName(db, auth.userId);
      const result = await db.transaction(async (tx) => {
        const locked = await createIncidentAccessRepository(tx).lockIncident(incident.id);
        return insertComment(tx, {
          incident: locked!,
          authorId: auth.userId,
          authorName: me.name,
          authorEmail: me.email,
          html: renderMarkdown(input.body),
          source: 'API',
          fromSoc: true,
          affectsStatus: true,
        });
      });
      await audit(db, {
        userId: auth.userId,
        action: 'incident.comment',
        objectType: 'incident',
        objectId: key,
        ip,
        details: {
          comment: result.row.id,
          ...(result.newStatus ? { status: [incident.status, result.newStatus] } : {}),
        },
      });
      if (result.newStatus) await onStatus(incident.id, result.newStatus);
      return {
        id: result.row.id,
        author: result.row.authorName,
        body: result.row.body,
        from_soc: true,
        created: result.row.created.getTime(),
        status: result.newStatus ?? incident.status,
      };
    },

    /** An internal note of the SOC (design §9): staff only, no status change, nothing sent. */
    async createNote(
      key: number,
      raw: AnalystNoteCreate,
      auth: AuthContext,
      ip: string,
    ): Promise<AnalystNote> {
      staffOnly(auth);
      const input = AnalystNoteCreateSchema.parse(raw);
      const incident = await loadIncident(db, key, auth);
      const me = await displayName(db, auth.userId);
      const row = await insertNote(
        db,
        incident,
        { id: auth.userId, name: me.name, email: me.email },
        renderMarkdown(input.body),
        ip,
      );
      return presentNote(row);
    },

    /** A page of an incident's internal notes, oldest first. */
    async notes(key: number, q: { page: number; page_size: number }, auth: AuthContext) {
      staffOnly(auth);
      const incident = await loadIncident(db, key, auth);
      const { total, rows } = await notesPage(db, incident.id, q);
      return { total, results: rows.map(presentNote) };
    },
  };
}
