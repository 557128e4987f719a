import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/client.ts';
import { jobs, systems, webhookDeliveries, webhookEndpoints } from '../../db/schema/index.ts';
import { endpointColumns } from './webhook-endpoints.repository.ts';

/** Job types: one attempt of one delivery; the mail to the contacts of an endpoint turned off. */
export const WEBHOOK_DELIVER_JOB = 'webhooks.deliver';
export const WEBHOOK_DISABLED_MAIL_JOB = 'webhooks.disabled_mail';

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/**
 * Incident columns a customer sees, by the name the payload gives them: an incident.updated
 * event is sent only when one of these changed, and its `changed_fields` lists only these.
 */
export const PUBLIC_INCIDENT_COLUMNS: Record<string, string> = {
  summary: 'summary',
  description: 'description',
  status: 'status',
  priority: 'priority',
  category_id: 'category',
  issue_type_id: 'issue_type',
  tags: 'tags',
  recommendations: 'recommendations',
  status_description: 'status_description',
  affected_systems: 'affected_systems',
  sla: 'sla',
  sla_breached: 'sla_breached',
  customer_assignee_id: 'customer_assignee',
  resolution: 'resolution',
  resolution_date: 'resolution_date',
};

const publicColumns = sql`ARRAY[${sql.join(
  Object.keys(PUBLIC_INCIDENT_COLUMNS).map((c) => sql`${c}`),
  sql`, `,
)}]::text[]`;

/**
 * The webhook event names a stored event stands for, in SQL over an events row `c`: its own type
 * for the kinds that webhooks carry, and `incident.status_changed` beside an incident.updated
 * that changed the status. An incident.updated that changed nothing a customer sees is none.
 */
const WEBHOOK_EVENTS_OF = sql`(VALUES
  (CASE WHEN c.type IN ('incident.created', 'comment.created', 'report.ready', 'task.updated') THEN c.type
        WHEN c.type = 'incident.updated' AND (NOT (c.data ? 'changed') OR c.data->'changed' ?| ${publicColumns})
        THEN c.type END),
  (CASE WHEN c.type = 'incident.updated' AND c.data->>'previous_status' IS NOT NULL
        THEN 'incident.status_changed' END))`;

const newMessageId = sql`'msg_' || replace(gen_random_uuid()::text, '-', '')`;

/**
 * The most deliveries not yet done (pending or retrying) an endpoint, and all endpoints of one
 * system, may have (config `webhooks.queueMax…`): while a receiver is down its retries wait,
 * and what comes beyond is not sent, so one tenant cannot make the portal send without bound.
 */
export interface QueueCaps {
  perEndpoint: number;
  perSystem: number;
}

/** The error of a delivery recorded, not sent, because its endpoint's or system's queue was full. */
export const queueFullError = (caps: QueueCaps) =>
  `not sent: too many deliveries waiting (at most ${caps.perEndpoint} per endpoint, ${caps.perSystem} per system)`;

/**
 * The deliveries of the endpoints: the fan-out of recorded events, the queue of attempts and the
 * record of each attempt with its effect on the endpoint's health.
 */
export function createWebhookDeliveriesRepository(db: Db) {
  return {
    async deliveries(
      endpointId: number,
      page: number,
      pageSize: number,
    ): Promise<{ total: number; rows: DeliveryRow[] }> {
      const where = eq(webhookDeliveries.endpointId, endpointId);
      const [{ total } = { total: 0 }] = await db
        .select({ total: count() })
        .from(webhookDeliveries)
        .where(where);
      const rows = await db
        .select()
        .from(webhookDeliveries)
        .where(where)
        .orderBy(desc(webhookDeliveries.id))
        .limit(pageSize)
        .offset((page - 1) * pageSize);
      return { total, rows };
    },

    async delivery(endpointId: number, id: number): Promise<DeliveryRow | undefined> {
      const [row] = await db
        .select()
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.endpointId, endpointId)));
      return row;
    },

    /**
     * A new delivery and the job of its first attempt, in one transaction; none when the
     * endpoint's or its system's queue is full (`full` says which). The endpoint's row lock
     * orders the requests of one endpoint, so they never pass its cap together.
     */
    async queueDelivery(
      values: {
        endpointId: number;
        event: string;
        eventId: number | null;
        messageId?: string;
        payload: Record<string, unknown> | null;
      },
      caps: QueueCaps,
    ): Promise<
      { delivery: DeliveryRow; full?: undefined } | { delivery?: undefined; full: 'endpoint' | 'system' }
    > {
      return db.transaction(async (tx) => {
        await tx.execute(sql`SELECT id FROM webhook_endpoints WHERE id = ${values.endpointId} FOR UPDATE`);
        const [waiting] = await queryRows<{ endpoint: string | number; system: string | number }>(
          tx,
          sql`SELECT (SELECT count(*) FROM webhook_deliveries
                       WHERE endpoint_id = ${values.endpointId} AND status IN ('pending', 'retrying')) AS endpoint,
                     (SELECT count(*) FROM webhook_deliveries d
                        JOIN webhook_endpoints w ON w.id = d.endpoint_id
                       WHERE w.system_id = (SELECT system_id FROM webhook_endpoints WHERE id = ${values.endpointId})
                         AND d.status IN ('pending', 'retrying')) AS system`,
        );
        if (Number(waiting?.endpoint ?? 0) >= caps.perEndpoint) return { full: 'endpoint' as const };
        if (Number(waiting?.system ?? 0) >= caps.perSystem) return { full: 'system' as const };
        const [row] = await tx
          .insert(webhookDeliveries)
          .values({
            endpointId: values.endpointId,
            event: values.event,
            eventId: values.eventId,
            messageId: values.messageId ?? sql`${newMessageId}`,
            payload: values.payload,
            nextAttemptAt: new Date(),
          })
          .returning();
        await tx
          .insert(jobs)
          .values({ type: WEBHOOK_DELIVER_JOB, payload: { deliveryId: row!.id, attempt: 1 } });
        return { delivery: row! };
      });
    },

    /**
     * Claims up to `limit` events not yet fanned out (each by exactly one instance: SKIP LOCKED)
     * and, in the same statement, records a delivery and queues its job for every active
     * endpoint that subscribed to the event and whose system alone the event belongs to (an
     * event of several systems reaches none: its object is not one tenant's). A delivery past
     * the endpoint's or the system's queue cap (counted before the statement, oldest events
     * first) is recorded as failed with `queueFullError` and no job: the delivery log shows
     * what was not sent, and "send again" sends it later. Instances dispatching at once may each
     * fill a cap with one batch. Returns how many events were claimed.
     */
    async dispatch(caps: QueueCaps, limit = 200): Promise<number> {
      const rows = await queryRows<{ claimed: string | number }>(
        db,
        sql`WITH claimed AS (
              UPDATE events SET webhooks_dispatched_at = now()
               WHERE id IN (SELECT id FROM events WHERE webhooks_dispatched_at IS NULL
                             ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
              RETURNING id, type, system_ids, data),
            kinds AS (
              SELECT c.id, c.system_ids, k.event
                FROM claimed c CROSS JOIN LATERAL ${WEBHOOK_EVENTS_OF} AS k(event)
               WHERE k.event IS NOT NULL),
            matched AS (
              SELECT k.id AS event_id, k.event, w.id AS endpoint_id, w.system_id
                FROM kinds k JOIN webhook_endpoints w
                  ON w.active AND k.event = ANY(w.events)
                 AND cardinality(k.system_ids) > 0 AND k.system_ids <@ ARRAY[w.system_id]),
            waiting AS (
              SELECT d.endpoint_id, w.system_id, count(*) AS n
                FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
               WHERE d.status IN ('pending', 'retrying')
                 AND w.system_id IN (SELECT system_id FROM matched)
               GROUP BY d.endpoint_id, w.system_id),
            per_endpoint AS (
              SELECT m.*,
                     coalesce((SELECT q.n FROM waiting q WHERE q.endpoint_id = m.endpoint_id), 0)
                       + row_number() OVER (PARTITION BY m.endpoint_id ORDER BY m.event_id, m.event)
                       <= ${caps.perEndpoint} AS fits_endpoint
                FROM matched m),
            decided AS (
              SELECT p.*,
                     p.fits_endpoint
                     AND coalesce((SELECT sum(q.n) FROM waiting q WHERE q.system_id = p.system_id), 0)
                       + count(*) FILTER (WHERE p.fits_endpoint) OVER (
                           PARTITION BY p.system_id ORDER BY p.event_id, p.endpoint_id, p.event
                           ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
                       <= ${caps.perSystem} AS fits
                FROM per_endpoint p),
            deliveries AS (
              INSERT INTO webhook_deliveries
                     (endpoint_id, message_id, event, event_id, status, error, next_attempt_at)
              SELECT endpoint_id, ${newMessageId}, event, event_id,
                     CASE WHEN fits THEN 'pending' ELSE 'failed' END,
                     CASE WHEN fits THEN NULL ELSE ${queueFullError(caps)} END,
                     CASE WHEN fits THEN now() END
                FROM decided
               ORDER BY event_id, endpoint_id
              RETURNING id, status),
            queued AS (
              INSERT INTO jobs (type, payload)
              SELECT ${WEBHOOK_DELIVER_JOB}, jsonb_build_object('deliveryId', d.id, 'attempt', 1)
                FROM deliveries d
               WHERE d.status = 'pending'
              RETURNING id)
            SELECT (SELECT count(*) FROM claimed) AS claimed, (SELECT count(*) FROM queued) AS queued`,
      );
      return Number(rows[0]?.claimed ?? 0);
    },

    /** A delivery with its endpoint and system, for an attempt. */
    async forAttempt(id: number) {
      const [row] = await db
        .select({ delivery: webhookDeliveries, ...endpointColumns })
        .from(webhookDeliveries)
        .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
        .innerJoin(systems, eq(systems.id, webhookEndpoints.systemId))
        .where(eq(webhookDeliveries.id, id));
      return row;
    },

    async setPayload(id: number, payload: Record<string, unknown>): Promise<void> {
      await db.update(webhookDeliveries).set({ payload }).where(eq(webhookDeliveries.id, id));
    },

    /**
     * Records attempt `attempt` of a delivery and its consequences in one transaction: the next
     * attempt's job, the endpoint's health (failing since, turned off with a mail job).
     */
    async recordAttempt(r: {
      deliveryId: number;
      endpointId: number;
      attempt: number;
      at: Date;
      status: DeliveryRow['status'];
      statusCode: number | null;
      durationMs: number | null;
      error: string | null;
      nextAttemptAt: Date | null;
      /** Whether the endpoint's failing counts: true on a failure, false on success, null: untouched. */
      failed: boolean | null;
      disableIfFailingBefore: Date;
    }): Promise<{ disabled: boolean }> {
      return db.transaction(async (tx) => {
        await tx
          .update(webhookDeliveries)
          .set({
            attempts: r.attempt,
            status: r.status,
            statusCode: r.statusCode,
            durationMs: r.durationMs,
            error: r.error,
            lastAttemptAt: r.at,
            nextAttemptAt: r.nextAttemptAt,
          })
          .where(eq(webhookDeliveries.id, r.deliveryId));
        if (r.nextAttemptAt) {
          await tx.insert(jobs).values({
            type: WEBHOOK_DELIVER_JOB,
            payload: { deliveryId: r.deliveryId, attempt: r.attempt + 1 },
            runAt: r.nextAttemptAt,
          });
        }
        if (r.failed === false) {
          await tx
            .update(webhookEndpoints)
            .set({ failingSince: null })
            .where(eq(webhookEndpoints.id, r.endpointId));
          return { disabled: false };
        }
        if (r.failed !== true) return { disabled: false };
        const [endpoint] = await tx
          .update(webhookEndpoints)
          .set({
            failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${r.at.toISOString()}::timestamptz)`,
          })
          .where(eq(webhookEndpoints.id, r.endpointId))
          .returning({ failingSince: webhookEndpoints.failingSince, active: webhookEndpoints.active });
        if (!endpoint?.active || !endpoint.failingSince || endpoint.failingSince > r.disableIfFailingBefore) {
          return { disabled: false };
        }
        await tx
          .update(webhookEndpoints)
          .set({ active: false, disabledAt: r.at, updatedAt: r.at })
          .where(eq(webhookEndpoints.id, r.endpointId));
        await tx
          .insert(jobs)
          .values({ type: WEBHOOK_DISABLED_MAIL_JOB, payload: { endpointId: r.endpointId } });
        return { disabled: true };
      });
    },
  };
}

export type WebhookDeliveriesRepository = ReturnType<typeof createWebhookDeliveriesRepository>;
