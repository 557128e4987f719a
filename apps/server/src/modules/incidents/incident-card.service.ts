import type {
  ClosePayload,
  ConfirmPayload,
  IncidentAction,
  IncidentCard,
  IncidentPatch,
  IncidentPriority,
  IncidentStatus,
  Language,
  RatingPayload,
} from '@soc/contracts';
import {
  CUSTOMER_PRIORITIES,
  ClosePayloadSchema,
  ConfirmPayloadSchema,
  INCIDENT_PRIORITIES,
  RatingPayloadSchema,
} from '@soc/contracts';
import { parseJson, type Db } from '../../db/client.ts';
import { audit } from '../../lib/audit.ts';
import { badRequest, notFound } from '../../lib/http-errors.ts';
import { msg } from '../../lib/messages.ts';
import { renderTypedMarkdown } from '../../lib/markdown.ts';
import type { AuthContext } from '../../core/auth.ts';
import { systemScope } from '../../core/auth.ts';
import { presentAttachment } from './attachments.service.ts';
import type { StatusListener } from './comments.service.ts';
import { insertComment } from './comments.service.ts';
import { displayName } from '../users/index.ts';
import type { IncidentRecord } from './incident-access.ts';
import { incidentFromJson, loadIncident } from './incident-access.ts';
import { presentIncidentCard } from './incident-card.presenter.ts';
import { createIncidentCardRepository } from './incident-card.repository.ts';
import { HANDLED_STATUSES, TRANSITIONS, availableActions } from './incident-workflow.ts';
import { createIncidentsRepository } from './incidents.repository.ts';
import { presentIncidentListItem } from './incidents.presenter.ts';
import type { IncidentResponseCache } from './response-cache.ts';

export interface IncidentCardDeps {
  db: Db;
  onStatus: StatusListener;
  /** Schedules the automatic report to the national centre. */
  planGossopka: (incidentId: string, at: Date) => Promise<void>;
  /** Keeps cards until something they show changes. */
  responses?: IncidentResponseCache;
}

/** The incident card and what can be done on it (product §A3, §A4; design §5). */
export function createIncidentCardService({ db, onStatus, planGossopka, responses }: IncidentCardDeps) {
  const listRepo = createIncidentsRepository(db);
  const repo = createIncidentCardRepository(db);

  const allowedPriorities = (auth: AuthContext): IncidentPriority[] =>
    auth.role === 'customer' ? [...CUSTOMER_PRIORITIES] : [...INCIDENT_PRIORITIES];

  const canRate = (row: IncidentRecord, auth: AuthContext) =>
    auth.role === 'customer' && row.customerStarRating === null && HANDLED_STATUSES.includes(row.status);

  async function card(key: number, auth: AuthContext, lang: Language): Promise<IncidentCard> {
    const scope = systemScope(auth);
    const build = () => readCard(key, auth, lang);
    return responses ? responses.card(key, scope, auth.role, lang, build) : build();
  }

  async function readCard(key: number, auth: AuthContext, lang: Language): Promise<IncidentCard> {
    const found = await listRepo.card(key, systemScope(auth), lang);
    if (!found) throw notFound();
    const row = incidentFromJson(found.record);
    const files = parseJson(found.files);
    const linked = parseJson(found.related);
    return presentIncidentCard(presentIncidentListItem(found), row, {
      attachments: files.map((f) =>
        presentAttachment(key, {
          id: f.id,
          filename: f.filename,
          size: Number(f.size),
          contentType: f.content_type,
          created: new Date(f.created),
        }),
      ),
      related: linked.map((r) => ({ ...r, key: Number(r.key), created: new Date(r.created).getTime() })),
      canRate: canRate(row, auth),
      allowedPriorities: allowedPriorities(auth),
      isIncidentType: found.issuetype_code === 'incident',
    });
  }

  async function runAction(
    action: IncidentAction,
    key: number,
    raw: ConfirmPayload | ClosePayload,
    auth: AuthContext,
    ip: string,
    lang: Language,
  ): Promise<IncidentCard> {
    const closeInput = action === 'close' ? ClosePayloadSchema.parse(raw) : null;
    const input = closeInput ?? ConfirmPayloadSchema.parse(raw);
    const before = await loadIncident(db, key, auth);
    const notAvailable = (status: IncidentStatus) =>
      badRequest({
        non_field_errors: [msg('actionNotAvailable', action, status)],
      });
    if (!availableActions(before.status, auth.role).includes(action)) throw notAvailable(before.status);
    let resolution: { id: number; kind: 'TP' | 'FP' } | undefined;
    if (closeInput) {
      const r = await repo.resolution(closeInput.resolution_name, before.issueTypeId);
      if (!r)
        throw badRequest({
          resolution_name: [msg('objectDoesNotExist', closeInput.resolution_name)],
        });
      resolution = r;
    }
    if (input.change_customer_assignee && !(await repo.isActiveMember(auth.userId, before.systemId))) {
      throw badRequest({
        change_customer_assignee: [msg('assigneeNotMember')],
      });
    }
    const me = await displayName(db, auth.userId);
    const to = TRANSITIONS[action].to;
    const now = new Date();
    await db.transaction(async (tx) => {
      const card = createIncidentCardRepository(tx);
      const locked = await card.lockIncidentRecord(before.id);
      // a concurrent action may have moved the incident meanwhile
      if (!availableActions(locked!.status, auth.role).includes(action)) throw notAvailable(locked!.status);
      await card.updateIncident(before.id, {
        status: to,
        updated: now,
        ...(action === 'confirm' ? { resolution: 'TP' as const } : {}),
        ...(resolution ? { resolution: resolution.kind, resolutionId: resolution.id } : {}),
        ...(action === 'reopen' ? { resolution: null, resolutionId: null, resolutionDate: null } : {}),
        ...(to === 'closed' || to === 'completed' || to === 'canceled' ? { resolutionDate: now } : {}),
        ...(input.change_customer_assignee
          ? { customerAssigneeId: auth.userId, customerAssigneeLastTime: now }
          : {}),
      });
      await insertComment(tx, {
        incident: { ...locked!, status: to },
        authorId: auth.userId,
        authorName: me.name,
        authorEmail: me.email,
        html: renderTypedMarkdown(input.comment),
        source: 'API',
        fromSoc: auth.role !== 'customer',
        affectsStatus: false,
      });
    });
    await audit(db, {
      userId: auth.userId,
      action: `incident.${action}`,
      objectType: 'incident',
      objectId: key,
      ip,
      details: {
        status: [before.status, to],
        ...(resolution ? { resolution: resolution.kind, resolution_id: resolution.id } : {}),
        ...(input.change_customer_assignee ? { assignee: auth.userId } : {}),
      },
    });
    await onStatus(before.id, to);
    return card(key, auth, lang);
  }

  return {
    card,
    runAction,

    async availableActions(key: number, auth: AuthContext): Promise<IncidentAction[]> {
      const row = await loadIncident(db, key, auth);
      return availableActions(row.status, auth.role);
    },

    /** PATCH: the priority and, for analysts, the planned report to the national centre. */
    async patch(
      key: number,
      input: IncidentPatch,
      auth: AuthContext,
      ip: string,
      lang: Language,
    ): Promise<IncidentCard> {
      const row = await loadIncident(db, key, auth);
      const { priority, gossopka_planned_time: plannedMs } = input;
      if (priority !== undefined && !allowedPriorities(auth).includes(priority)) {
        throw badRequest({ priority: [msg('criticalByAnalystsOnly')] });
      }
      let planned: Date | null | undefined;
      if (plannedMs !== undefined) {
        if (auth.role === 'customer') {
          throw badRequest({
            gossopka_planned_time: [msg('gossopkaPlanByAnalystsOnly')],
          });
        }
        if (row.gossopkaId) throw badRequest({ gossopka_planned_time: [msg('gossopkaAlreadySent')] });
        planned = plannedMs === null ? null : new Date(plannedMs);
        if (planned && planned.getTime() <= Date.now()) {
          throw badRequest({ gossopka_planned_time: [msg('plannedTimeInPast')] });
        }
      }
      const changes = {
        ...(priority !== undefined && priority !== row.priority ? { priority } : {}),
        ...(planned !== undefined && planned?.getTime() !== row.gossopkaPlannedTime?.getTime()
          ? { gossopkaPlannedTime: planned }
          : {}),
      };
      if (Object.keys(changes).length) {
        await repo.updateIncident(row.id, { ...changes, updated: new Date() });
        if (changes.gossopkaPlannedTime) await planGossopka(row.id, changes.gossopkaPlannedTime);
        await audit(db, {
          userId: auth.userId,
          action: 'incident.update',
          objectType: 'incident',
          objectId: key,
          ip,
          details: {
            ...(changes.priority ? { priority: [row.priority, changes.priority] } : {}),
            ...('gossopkaPlannedTime' in changes
              ? { gossopka_planned_time: [row.gossopkaPlannedTime?.getTime() ?? null, plannedMs] }
              : {}),
          },
        });
      }
      return card(key, auth, lang);
    },

    /** Assigns an active user of the incident's system, or clears the assignee (null). */
    async assign(
      key: number,
      assigneeId: number | null,
      auth: AuthContext,
      ip: string,
      lang: Language,
    ): Promise<IncidentCard> {
      const row = await loadIncident(db, key, auth);
      if (assigneeId !== null && !(await repo.isActiveMember(assigneeId, row.systemId))) {
        throw badRequest({ customer_assignee_id: [msg('objectDoesNotExist', assigneeId)] });
      }
      if (row.customerAssigneeId !== assigneeId) {
        const now = new Date();
        await repo.updateIncident(row.id, {
          customerAssigneeId: assigneeId,
          customerAssigneeLastTime: assigneeId === null ? null : now,
          updated: now,
        });
        await audit(db, {
          userId: auth.userId,
          action: 'incident.assign',
          objectType: 'incident',
          objectId: key,
          ip,
          details: { assignee: [row.customerAssigneeId, assigneeId] },
        });
      }
      return card(key, auth, lang);
    },

    /** The customer's star rating of a handled incident, once (product §A4, §A5). */
    async rate(
      key: number,
      raw: RatingPayload,
      auth: AuthContext,
      ip: string,
      lang: Language,
    ): Promise<IncidentCard> {
      const input = RatingPayloadSchema.parse(raw);
      const row = await loadIncident(db, key, auth);
      if (auth.role !== 'customer') throw badRequest({ rating: [msg('rateByCustomerOnly')] });
      if (!HANDLED_STATUSES.includes(row.status)) {
        throw badRequest({ rating: [msg('rateHandledOnly')] });
      }
      if (!(await repo.rate(row.id, input.rating, input.comment || null)))
        throw badRequest({ rating: [msg('alreadyRated')] });
      await audit(db, {
        userId: auth.userId,
        action: 'incident.rate',
        objectType: 'incident',
        objectId: key,
        ip,
        details: { rating: input.rating },
      });
      return card(key, auth, lang);
    },
  };
}

export type IncidentCardService = ReturnType<typeof createIncidentCardService>;
