import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type {
  WebhookDeliveryListQuery,
  WebhookEndpointCreate,
  WebhookEndpointListQuery,
  WebhookEndpointUpdate,
} from '@soc/contracts';
import {
  ROLE_PERMISSIONS,
  WEBHOOK_DISABLE_AFTER_DAYS,
  WEBHOOK_ENDPOINTS_MAX_PER_SYSTEM,
  WEBHOOK_RETRY_HOURS,
  WEBHOOK_ROTATION_OVERLAP_HOURS,
  WEBHOOK_SECRET_PREFIX,
  WEBHOOK_TEST_EVENT,
  WebhookDeliveryListQuerySchema,
  WebhookEndpointListQuerySchema,
} from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import type { Db } from '../../db/client.ts';
import type { Mailer } from '../../integrations/mail/mailer.ts';
import { audit } from '../../lib/audit.ts';
import { HttpError, badRequest, forbidden, notFound } from '../../lib/http-errors.ts';
import { htmlToText } from '../../lib/markdown.ts';
import { deliveryResult, webhookDeliveries } from '../../lib/metrics.ts';
import { msg } from '../../lib/messages.ts';
import { SsrfError } from '../../lib/ssrf-guard.ts';
import { openSecret, sealSecret } from '../../lib/totp.ts';
import type { AuthContext } from '../../core/auth.ts';
import { systemScope } from '../../core/auth.ts';
import type { EventsRepository } from '../events/index.ts';
import type { WebhookData, WebhookMessage } from './webhook-formats.ts';
import { renderBody } from './webhook-formats.ts';
import type { WebhookSender } from './webhook-sender.ts';
import { maskWebhookUrl, presentDelivery, presentEndpoint } from './webhooks.presenter.ts';
import type { DeliveryRow, QueueCaps } from './webhook-deliveries.repository.ts';
import {
  PUBLIC_INCIDENT_COLUMNS,
  createWebhookDeliveriesRepository,
} from './webhook-deliveries.repository.ts';
import type { EndpointRow, EndpointWithSystem } from './webhook-endpoints.repository.ts';
import { createWebhookEndpointsRepository } from './webhook-endpoints.repository.ts';
import { createWebhookObjectsRepository } from './webhook-objects.repository.ts';

const HOUR_MS = 3_600_000;
/** The longest wait between two attempts (before jitter). */
const MAX_RETRY_DELAY_MS = HOUR_MS;
/** How long a target's name may take to resolve when it is saved. */
const SAVE_LOOKUP_MS = 3_000;
/** When a caller refused for a full queue may try again: deliveries finish or retry within it. */
const QUEUE_FULL_RETRY_AFTER_SECONDS = 60;

export interface WebhooksDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  sender: WebhookSender;
  events: EventsRepository;
  /** The clock of attempts (tests move it). */
  now?: () => Date;
  random?: () => number;
}

/**
 * The wait before attempt `attempt + 1`: exponential from `baseMs` (at most an hour), with jitter
 * (a random half of it off), and never shorter than what the receiver asked for in Retry-After.
 */
export function retryDelayMs(
  attempt: number,
  baseMs: number,
  retryAfterMs: number | null,
  random: () => number = Math.random,
): number {
  const exp = Math.min(MAX_RETRY_DELAY_MS, baseMs * 2 ** (attempt - 1));
  return Math.max(Math.round(exp / 2 + (random() * exp) / 2), retryAfterMs ?? 0);
}

const newSecret = () => `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;

/**
 * Outbound webhooks (issue 29 part 2): endpoints per system, the fan-out of recorded events to
 * deliveries (a job-runner poller), and one job per delivery attempt. Every attempt's outcome is
 * recorded with the next attempt's job in one transaction, so a process killed mid-request
 * loses nothing: its job's lease passes and another runner makes the attempt again.
 */
export function createWebhooksService({
  db,
  config,
  mailer,
  sender,
  events,
  now = () => new Date(),
  random = Math.random,
}: WebhooksDeps) {
  const endpoints = createWebhookEndpointsRepository(db);
  const queue = createWebhookDeliveriesRepository(db);
  const objects = createWebhookObjectsRepository(db);
  const origin = () => (config.publicUrl ?? `http://${config.host}:${config.port}`).replace(/\/$/, '');
  const seal = (secret: string) => sealSecret(Buffer.from(secret), config.jwtSecret);
  const unseal = (sealed: string) =>
    openSecret(sealed, config.jwtSecret, config.jwtPreviousSecret).toString();
  const caps: QueueCaps = {
    perEndpoint: config.webhooks.queueMaxPerEndpoint,
    perSystem: config.webhooks.queueMaxPerSystem,
  };

  /** Queues a test or a resend; 429 with Retry-After when the endpoint's or its system's queue is full. */
  async function queueOrRefuse(values: Parameters<typeof queue.queueDelivery>[0]): Promise<DeliveryRow> {
    const queued = await queue.queueDelivery(values, caps);
    if (queued.delivery) return queued.delivery;
    const detail =
      queued.full === 'endpoint'
        ? msg('webhookQueueFull', caps.perEndpoint)
        : msg('webhookSystemQueueFull', caps.perSystem);
    throw new HttpError(429, detail, undefined, { 'retry-after': String(QUEUE_FULL_RETRY_AFTER_SECONDS) });
  }

  function requireManager(auth: AuthContext): void {
    if (!ROLE_PERMISSIONS[auth.role].includes('webhooks.manage')) throw forbidden();
  }

  async function endpointOf(auth: AuthContext, id: number): Promise<EndpointWithSystem> {
    requireManager(auth);
    const found = await endpoints.byId(id, systemScope(auth));
    if (!found) throw notFound();
    return found;
  }

  /** Refuses a target that is private, loopback, link-local or metadata (unless allowed). */
  async function checkTarget(url: string): Promise<void> {
    try {
      await Promise.race([
        sender.check(url),
        new Promise<void>((resolve) => setTimeout(resolve, SAVE_LOOKUP_MS).unref()),
      ]);
    } catch (err) {
      if (!(err instanceof SsrfError)) throw err;
      // a name that does not resolve now may later: its deliveries fail and are retried
      if (err.reason === 'unresolved') return;
      if (err.reason === 'shape') throw badRequest({ url: [msg('webhookUrlInvalid')] });
      throw badRequest({ url: [msg('webhookAddressRefused')] });
    }
  }

  function signatureOf(e: EndpointRow, messageId: string, at: Date, body: string): string {
    const secrets = [unseal(e.secretSealed)];
    if (e.previousSecretSealed && e.previousSecretExpiresAt && e.previousSecretExpiresAt > at) {
      secrets.push(unseal(e.previousSecretSealed));
    }
    return secrets.map((s) => new Webhook(s).sign(messageId, at, body)).join(' ');
  }

  /**
   * The generic message of a delivery, from the event and the object as they are now, as the
   * endpoint's system (tenant) sees them; null when the object is gone or not that system's alone.
   */
  async function buildMessage(d: DeliveryRow, e: EndpointRow, s: EndpointWithSystem['system']) {
    const system = { id: s.id, is_id: s.isId, name: s.fullName };
    if (d.event === WEBHOOK_TEST_EVENT || d.eventId === null) {
      return {
        type: WEBHOOK_TEST_EVENT,
        timestamp: d.createdAt.toISOString(),
        data: { system, message: msg('webhookTestText').en },
      } satisfies WebhookMessage;
    }
    const ev = await events.byId(d.eventId);
    if (!ev || !ev.systemIds.length || !ev.systemIds.every((id) => id === e.systemId)) return null;
    const data: WebhookData = { system };
    const changed = Array.isArray(ev.data.changed) ? (ev.data.changed as string[]) : [];
    if (ev.incidentKey !== null) {
      const inc = await objects.incident(ev.incidentKey, e.systemId);
      if (!inc) return null;
      data.incident = {
        key: inc.key,
        summary: inc.summary,
        status: inc.status,
        priority: inc.priority,
        sla: inc.sla?.toISOString() ?? null,
        sla_breached: inc.slaBreached,
        resolution: inc.resolution,
        created: inc.created.toISOString(),
        updated: inc.updated.toISOString(),
        url: `${origin()}/inc/${inc.key}`,
      };
      if (d.event === 'incident.updated') {
        data.changed_fields = changed.flatMap((c) => PUBLIC_INCIDENT_COLUMNS[c] ?? []);
      }
      if (d.event === 'incident.status_changed') {
        data.previous_status = typeof ev.data.previous_status === 'string' ? ev.data.previous_status : null;
        data.incident.status = ev.data.status as typeof inc.status;
      }
      if (d.event === 'comment.created') {
        const c = await objects.comment(Number(ev.objectId), e.systemId);
        if (!c) return null;
        data.comment = {
          id: c.id,
          author: c.author,
          text: htmlToText(c.body).slice(0, 4000),
          from_soc: c.fromSoc,
          created: c.created.toISOString(),
        };
      }
    } else if (d.event === 'report.ready') {
      const r = await objects.report(Number(ev.objectId), e.systemId);
      if (!r) return null;
      data.report = { id: r.id, name: r.name, url: `${origin()}/reports/reportsList` };
    } else if (d.event === 'task.updated') {
      const t = await objects.task(Number(ev.objectId), e.systemId);
      if (!t) return null;
      data.task = {
        id: t.id,
        subject: t.subject,
        type: t.type,
        status: t.status,
        priority: t.priority,
        created: t.created.toISOString(),
        updated: t.updated.toISOString(),
        url: `${origin()}/issues/issues/task/${t.id}`,
      };
      data.changed_fields = changed.filter((c) =>
        ['status', 'priority', 'subject', 'description'].includes(c),
      );
      data.previous_status = typeof ev.data.previous_status === 'string' ? ev.data.previous_status : null;
    } else {
      return null;
    }
    return { type: d.event, timestamp: new Date(ev.created).toISOString(), data } satisfies WebhookMessage;
  }

  return {
    async list(auth: AuthContext, query: WebhookEndpointListQuery) {
      requireManager(auth);
      const q = WebhookEndpointListQuerySchema.parse(query);
      const { total, rows } = await endpoints.list(systemScope(auth), q.system, q.page, q.page_size);
      return { total, results: rows.map(presentEndpoint), page: q.page, pageSize: q.page_size };
    },

    async get(auth: AuthContext, id: number) {
      return presentEndpoint(await endpointOf(auth, id));
    },

    async create(auth: AuthContext, body: WebhookEndpointCreate, ip: string) {
      requireManager(auth);
      const input = body as Required<WebhookEndpointCreate>;
      if (!(await endpoints.systemInScope(input.system, systemScope(auth)))) {
        throw badRequest({ system: [msg('webhookSystemUnknown')] });
      }
      if ((await endpoints.countOfSystem(input.system)) >= WEBHOOK_ENDPOINTS_MAX_PER_SYSTEM) {
        throw badRequest({ non_field_errors: [msg('webhookTooMany', WEBHOOK_ENDPOINTS_MAX_PER_SYSTEM)] });
      }
      await checkTarget(input.url);
      const secret = newSecret();
      const id = await endpoints.insert({
        systemId: input.system,
        url: input.url,
        events: [...input.events],
        format: input.format,
        active: input.active,
        description: input.description,
        language: input.language,
        telegramChatId: input.telegram_chat_id,
        secretSealed: seal(secret),
        createdById: auth.userId,
      });
      await audit(db, {
        userId: auth.userId,
        action: 'webhook.create',
        objectType: 'webhook_endpoint',
        objectId: id,
        ip,
        details: {
          system: input.system,
          url: maskWebhookUrl(input.url),
          events: input.events,
          format: input.format,
        },
      });
      return { ...(await this.get(auth, id)), secret };
    },

    /**
     * Changes the fields given. The masked URL that answers show (sent back by a form that did not
     * touch it) leaves the URL as it is, so a change of other fields never needs the secret again.
     */
    async update(auth: AuthContext, id: number, given: WebhookEndpointUpdate, ip: string) {
      const { endpoint } = await endpointOf(auth, id);
      const { url: givenUrl, ...rest } = given;
      const urlChanged =
        givenUrl !== undefined && givenUrl !== endpoint.url && givenUrl !== maskWebhookUrl(endpoint.url);
      const body: WebhookEndpointUpdate = urlChanged ? { ...rest, url: givenUrl } : rest;
      if (body.url !== undefined) await checkTarget(body.url);
      const format = body.format ?? endpoint.format;
      const chatId = body.telegram_chat_id ?? endpoint.telegramChatId;
      if (format === 'telegram' && !chatId)
        throw badRequest({ telegram_chat_id: [msg('webhookChatIdRequired')] });
      const turnedOn = body.active === true && !endpoint.active;
      await endpoints.update(id, {
        ...(body.url !== undefined && { url: body.url }),
        ...(body.events !== undefined && { events: [...body.events] }),
        ...(body.format !== undefined && { format: body.format }),
        ...(body.active !== undefined && { active: body.active }),
        ...(body.description !== undefined && { description: body.description }),
        ...(body.language !== undefined && { language: body.language }),
        ...(body.telegram_chat_id !== undefined && { telegramChatId: body.telegram_chat_id }),
        // turned on again by a person: its failures start anew
        ...(turnedOn && { disabledAt: null, failingSince: null }),
      });
      await audit(db, {
        userId: auth.userId,
        action: 'webhook.update',
        objectType: 'webhook_endpoint',
        objectId: id,
        ip,
        details: {
          fields: Object.keys(body),
          ...(body.url !== undefined && { url: maskWebhookUrl(body.url) }),
        },
      });
      return this.get(auth, id);
    },

    async remove(auth: AuthContext, id: number, ip: string): Promise<void> {
      await endpointOf(auth, id);
      await endpoints.remove(id);
      await audit(db, {
        userId: auth.userId,
        action: 'webhook.delete',
        objectType: 'webhook_endpoint',
        objectId: id,
        ip,
      });
    },

    /** A new secret; the old one keeps signing (beside it) for 24 hours. */
    async rotate(auth: AuthContext, id: number, ip: string) {
      const { endpoint } = await endpointOf(auth, id);
      const secret = newSecret();
      await endpoints.update(id, {
        secretSealed: seal(secret),
        previousSecretSealed: endpoint.secretSealed,
        previousSecretExpiresAt: new Date(now().getTime() + WEBHOOK_ROTATION_OVERLAP_HOURS * HOUR_MS),
      });
      await audit(db, {
        userId: auth.userId,
        action: 'webhook.rotate_secret',
        objectType: 'webhook_endpoint',
        objectId: id,
        ip,
      });
      return { ...(await this.get(auth, id)), secret };
    },

    async sendTest(auth: AuthContext, id: number, ip: string) {
      await endpointOf(auth, id);
      const d = await queueOrRefuse({
        endpointId: id,
        event: WEBHOOK_TEST_EVENT,
        eventId: null,
        payload: null,
      });
      await audit(db, {
        userId: auth.userId,
        action: 'webhook.test',
        objectType: 'webhook_endpoint',
        objectId: id,
        ip,
      });
      return presentDelivery(d);
    },

    async deliveries(auth: AuthContext, id: number, query: WebhookDeliveryListQuery) {
      await endpointOf(auth, id);
      const q = WebhookDeliveryListQuerySchema.parse(query);
      const { total, rows } = await queue.deliveries(id, q.page, q.page_size);
      return { total, results: rows.map(presentDelivery), page: q.page, pageSize: q.page_size };
    },

    /** "Send again": the same message (id and body) as a new delivery. */
    async resend(auth: AuthContext, id: number, deliveryId: number, ip: string) {
      await endpointOf(auth, id);
      const old = await queue.delivery(id, deliveryId);
      if (!old) throw notFound();
      const d = await queueOrRefuse({
        endpointId: id,
        event: old.event,
        eventId: old.eventId,
        messageId: old.messageId,
        payload: old.payload,
      });
      await audit(db, {
        userId: auth.userId,
        action: 'webhook.resend',
        objectType: 'webhook_endpoint',
        objectId: id,
        ip,
        details: { delivery: deliveryId },
      });
      return presentDelivery(d);
    },

    /** Job-runner poller: new events to deliveries. */
    async poll(): Promise<void> {
      while ((await queue.dispatch(caps)) > 0) {
        // keep claiming while a backlog remains
      }
    },

    /** Job: attempt `attempt` of one delivery. */
    async runDelivery(payload: Record<string, unknown>): Promise<Record<string, unknown>> {
      const deliveryId = Number(payload.deliveryId);
      const attempt = Number(payload.attempt ?? 1);
      const row = await queue.forAttempt(deliveryId);
      if (!row) return { skipped: 'delivery gone' };
      const { delivery: d, endpoint: e, system } = row;
      // this attempt was recorded before (the job ran again after its runner died)
      if (d.status === 'succeeded' || d.status === 'failed' || d.attempts >= attempt) {
        return { skipped: 'attempt already recorded' };
      }
      const at = now();
      const base = {
        deliveryId,
        endpointId: e.id,
        attempt,
        at,
        disableIfFailingBefore: new Date(at.getTime() - WEBHOOK_DISABLE_AFTER_DAYS * 24 * HOUR_MS),
      };
      // a test event reaches an endpoint that is off too: it is how a receiver is checked first
      if (!e.active && d.event !== WEBHOOK_TEST_EVENT) {
        await queue.recordAttempt({
          ...base,
          status: 'failed',
          statusCode: null,
          durationMs: null,
          error: 'endpoint turned off',
          nextAttemptAt: null,
          failed: null,
        });
        return { skipped: 'endpoint turned off' };
      }
      let message = d.payload as WebhookMessage | null;
      if (!message) {
        message = await buildMessage(d, e, system);
        if (!message) {
          await queue.recordAttempt({
            ...base,
            status: 'failed',
            statusCode: null,
            durationMs: null,
            error: 'object gone or no longer of this system',
            nextAttemptAt: null,
            failed: null,
          });
          return { skipped: 'object gone' };
        }
        await queue.setPayload(deliveryId, message as unknown as Record<string, unknown>);
      }
      const body = renderBody(message, e);
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'SOC-Portal-Webhooks/1.0',
        'webhook-id': d.messageId,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': signatureOf(e, d.messageId, at, body),
      };
      const out = await sender.send(e.url, headers, body);
      webhookDeliveries.inc({ result: deliveryResult(out) });
      const ok = out.error === null;
      let nextAttemptAt: Date | null = null;
      if (!ok && out.retryable) {
        const next = new Date(
          at.getTime() + retryDelayMs(attempt, config.webhooks.retryBaseMs, out.retryAfterMs, random),
        );
        if (next.getTime() <= d.createdAt.getTime() + WEBHOOK_RETRY_HOURS * HOUR_MS) nextAttemptAt = next;
      }
      const { disabled } = await queue.recordAttempt({
        ...base,
        status: ok ? 'succeeded' : nextAttemptAt ? 'retrying' : 'failed',
        statusCode: out.statusCode,
        durationMs: out.durationMs,
        error: out.error,
        nextAttemptAt,
        failed: !ok,
      });
      return {
        status: out.statusCode,
        error: out.error,
        next: nextAttemptAt?.toISOString() ?? null,
        disabled,
      };
    },

    /** Job: tells the system's contacts that an endpoint was turned off after days of failures. */
    async runDisabledMail(payload: Record<string, unknown>): Promise<Record<string, unknown>> {
      const found = await endpoints.byId(Number(payload.endpointId), null);
      if (!found) return { skipped: 'endpoint gone' };
      const { endpoint, system } = found;
      const name = `${system.isId} ${system.fullName}`;
      const recipients = await endpoints.contactsOf(system.id);
      for (const c of recipients) {
        await mailer.send({
          kind: 'notification',
          to: c.email,
          subject: msg('webhookDisabledSubject', maskWebhookUrl(endpoint.url)).in(c.locale),
          text: msg('webhookDisabledText', maskWebhookUrl(endpoint.url), name, WEBHOOK_DISABLE_AFTER_DAYS).in(
            c.locale,
          ),
        });
      }
      return { recipients: recipients.length };
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
