import type {
  Language,
  QueueBulk,
  QueueBulkResult,
  QueueCounts,
  QueueCountsQuery,
  QueueItem,
  QueueListQuery,
  QueueReason,
  SlaState,
  StaffListQuery,
} from '@soc/contracts';
import { QUEUE_REASONS, QueueBulkSchema, SLA_NEAR_MS, TOTAL_COUNT_CAP } from '@soc/contracts';
import type { AuthContext } from '../../core/auth.ts';
import { systemScope } from '../../core/auth.ts';
import type { Db } from '../../db/client.ts';
import { HttpError } from '../../lib/http-errors.ts';
import type { Message } from '../../lib/messages.ts';
import { stoppedAt } from '../../lib/pagination.ts';
import type { QueueFilter, QueueRow } from './soc-queue.repository.ts';
import { createSocQueueRepository } from './soc-queue.repository.ts';
import type { SocApiService } from './soc-api.service.ts';
import { staffOnly } from './soc-api.shared.ts';

export interface SocQueueDeps {
  db: Db;
  socApi: Pick<SocApiService, 'updateIncident' | 'setStatus'>;
  /** The clock (tests fix it). */
  now?: () => Date;
}

const num = (v: string | number | null): number | null => (v === null ? null : Number(v));

function filterOf(q: QueueCountsQuery, auth: AuthContext): QueueFilter {
  return {
    systems: q.system__in,
    priorities: q.priority__in,
    statuses: q.status__in,
    categories: q.category__in,
    socAssignees: q.soc_assignee__in,
    unassigned: q.soc_assignee__isnull,
    mine: q.mine ? auth.userId : undefined,
    slaStates: q.sla_state__in,
    reasons: q.reason__in,
  };
}

/** The reasons and SLA state of a row at `now`, by the rules of the repository's conditions. */
export function presentQueueItem(r: QueueRow, now: Date): QueueItem {
  const sla = num(r.sla_ms);
  const pressing = r.notified_ms === null && sla !== null;
  const slaState: SlaState =
    pressing && sla <= now.getTime()
      ? 'breached'
      : pressing && sla <= now.getTime() + SLA_NEAR_MS
        ? 'near'
        : 'ok';
  const holds: Record<QueueReason, boolean> = {
    waiting_for_support: r.status === 'waiting_for_support',
    reopened: r.reopened,
    customer_comment: r.customer_comment_ms !== null,
    sla_near: slaState === 'near',
    sla_breached: slaState === 'breached',
    unassigned: r.soc_assignee_id === null,
  };
  return {
    key: Number(r.key),
    summary: r.summary,
    priority: r.priority as QueueItem['priority'],
    status: r.status as QueueItem['status'],
    system: { id: r.system_id, is_id: r.system_is_id, full_name: r.system_name },
    category_ref: r.category_id === null ? [] : [{ id: r.category_id, title: r.category_title ?? '' }],
    created: Number(r.created_ms),
    updated: Number(r.updated_ms),
    sla,
    sla_state: slaState,
    notified: num(r.notified_ms),
    soc_assignee:
      r.soc_assignee_id === null
        ? null
        : {
            id: r.soc_assignee_id,
            username: r.soc_assignee_username ?? '',
            full_name: r.soc_assignee_name ?? '',
          },
    customer_comment_at: num(r.customer_comment_ms),
    reasons: QUEUE_REASONS.filter((reason) => holds[reason]),
  };
}

/**
 * The SOC's triage queue (issue 41): the open incidents of every system the caller may see that
 * wait for the SOC, why, counted per tenant, and changed in bulk through the single-incident
 * calls (so that each change is audited and writes its events as they do).
 */
export function createSocQueueService({ db, socApi, now = () => new Date() }: SocQueueDeps) {
  const repo = createSocQueueRepository(db);
  return {
    async list(q: QueueListQuery, auth: AuthContext, lang: Language) {
      staffOnly(auth);
      const at = now();
      const scope = systemScope(auth);
      const filter = filterOf(q, auth);
      const [rows, n] = await Promise.all([
        repo.page(scope, filter, q.ordering, q.limit, q.offset, at, lang),
        repo.count(scope, filter, at),
      ]);
      const { total, exact } = stoppedAt(n, TOTAL_COUNT_CAP);
      return { total, total_exact: exact, results: rows.map((r) => presentQueueItem(r, at)) };
    },

    async counts(q: QueueCountsQuery, auth: AuthContext): Promise<QueueCounts> {
      staffOnly(auth);
      const results = await repo.countsBySystem(systemScope(auth), filterOf(q, auth), now());
      return { results, total: results.reduce((sum, r) => sum + r.count, 0) };
    },

    /** The staff an incident can be assigned to (SOC assignee choices). */
    async staff(q: StaffListQuery, auth: AuthContext) {
      staffOnly(auth);
      const { rows, total } = await repo.staff(q.search || undefined, q.limit, q.offset);
      return { total, total_exact: true, results: rows };
    },

    /** Each incident in turn; a refused one does not stop the others. */
    async bulk(raw: QueueBulk, auth: AuthContext, ip: string, lang: Language): Promise<QueueBulkResult> {
      staffOnly(auth);
      const input = QueueBulkSchema.parse(raw);
      const text = (m: Message) => (typeof m === 'string' ? m : m.in(lang));
      const results: QueueBulkResult['results'] = [];
      for (const key of new Set(input.keys)) {
        try {
          const card =
            input.action === 'status'
              ? await socApi.setStatus(key, { status: input.status, comment: input.comment }, auth, ip, lang)
              : await socApi.updateIncident(
                  key,
                  input.action === 'assign'
                    ? { soc_assignee: input.soc_assignee }
                    : { priority: input.priority },
                  auth,
                  ip,
                  lang,
                );
          results.push({ key, status: 200, incident_status: card.status, errors: null });
        } catch (error) {
          if (!(error instanceof HttpError)) throw error;
          const errors = error.fields
            ? Object.fromEntries(Object.entries(error.fields).map(([f, ms]) => [f, ms.map(text)]))
            : { detail: text(error.detail) };
          results.push({ key, status: error.statusCode, incident_status: null, errors });
        }
      }
      return { results };
    },
  };
}

export type SocQueueService = ReturnType<typeof createSocQueueService>;
