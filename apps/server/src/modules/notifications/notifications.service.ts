import type { Language, NotificationEvent, NotificationPreferences, PortalEvent } from '@soc/contracts';
import {
  NOTIFICATION_EVENTS,
  NotificationEventSchema,
  PORTAL_EVENTS,
  PortalEventSchema,
  SLA_RISK_MINUTES,
} from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import type { Db } from '../../db/client.ts';
import type { Mailer } from '../../integrations/mail/mailer.ts';
import type { JobRunner } from '../../jobs/runner.ts';
import { audit } from '../../lib/audit.ts';
import { htmlToText } from '../../lib/markdown.ts';
import type { AuthContext } from '../../core/auth.ts';
import { eventVisibleTo } from '../events/index.ts';
import type { EventsRepository } from '../events/index.ts';
import { NOTIFY_JOB } from '../incidents/index.ts';
import type { NotificationFacts } from './notification-mail.ts';
import { notificationMail } from './notification-mail.ts';
import {
  NOTIFY_EVENT_JOB,
  NOTIFY_USER_JOB,
  createNotificationsRepository,
} from './notifications.repository.ts';

export { NOTIFY_EVENT_JOB, NOTIFY_USER_JOB };

export interface NotificationsDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  jobs: Pick<JobRunner, 'enqueue'>;
  events: EventsRepository;
}

/** Without saved preferences: every event, about the user's own incidents and reports. */
const defaults = (locale: Language) => ({
  events: [...NOTIFICATION_EVENTS],
  scope: 'assigned' as const,
  language: locale,
});

/** The notifications that the system's contacts receive (issue 4); users choose theirs. */
const CONTACT_EVENTS: Partial<Record<NotificationEvent, 'created' | 'waiting_for_customer'>> = {
  incident_created: 'created',
  waiting_for_customer: 'waiting_for_customer',
};

/**
 * Customer e-mail notifications (issue 13). Triggers record every change as an event; a poller
 * of the job runner claims new events (each once, whichever instance) and queues a job per
 * event, which finds the recipients and queues one mail job per recipient, so a failed delivery
 * is retried for that recipient alone and nothing is lost when an instance stops.
 */
export function createNotificationsService({ db, config, mailer, jobs, events }: NotificationsDeps) {
  const repo = createNotificationsRepository(db);
  const origin = () => (config.publicUrl ?? `http://${config.host}:${config.port}`).replace(/\/$/, '');

  async function facts(eventId: number, notification: NotificationEvent) {
    const event = await events.byId(eventId);
    if (!event) return undefined;
    const base: {
      event: typeof event;
      facts: NotificationFacts;
      ownerId: number | null;
      incidentId?: string;
    } = {
      event,
      facts: { notification, link: `${origin()}/reports` },
      ownerId: null,
    };
    if (event.incidentKey !== null) {
      const incident = await repo.incidentFacts(event.incidentKey);
      if (!incident) return undefined;
      base.incidentId = incident.id;
      base.ownerId = incident.assignee;
      base.facts.link = `${origin()}/inc/${incident.key}`;
      base.facts.incident = {
        key: incident.key,
        summary: incident.summary,
        system: `${incident.isId} ${incident.systemName}`,
        priority: incident.priority,
        status: incident.status,
        sla: incident.sla,
      };
      if (event.type === 'comment.created') {
        const comment = await repo.commentFacts(Number(event.objectId));
        if (!comment) return undefined;
        base.facts.comment = { author: comment.author, text: htmlToText(comment.body).slice(0, 4000) };
      }
    } else if (event.type === 'report.ready') {
      const report = await repo.reportFacts(Number(event.objectId));
      if (!report) return undefined;
      base.ownerId = report.createdBy;
      base.facts.report = { name: report.name };
    }
    return base;
  }

  return {
    async getPreferences(auth: AuthContext) {
      const row = await repo.preferences(auth.userId);
      const prefs =
        row?.events && row.scope && row.language
          ? {
              events: row.events.filter(
                (e): e is NotificationEvent => NotificationEventSchema.safeParse(e).success,
              ),
              scope: row.scope,
              language: row.language,
            }
          : defaults(row?.userLocale ?? 'ru');
      const portalEvents = row?.portalEvents
        ? row.portalEvents.filter((e): e is PortalEvent => PortalEventSchema.safeParse(e).success)
        : [...PORTAL_EVENTS];
      return { ...prefs, portal_events: portalEvents, email: row?.email ?? '' };
    },

    async savePreferences(input: NotificationPreferences, auth: AuthContext, ip: string) {
      const events = [...new Set(input.events)];
      const portalEvents = input.portal_events && [...new Set(input.portal_events)];
      await repo.savePreferences(auth.userId, { ...input, events, portalEvents });
      await audit(db, {
        userId: auth.userId,
        action: 'user.notification_preferences',
        objectType: 'user',
        objectId: auth.userId,
        ip,
        details: {
          events,
          scope: input.scope,
          language: input.language,
          ...(portalEvents ? { portal_events: portalEvents } : {}),
        },
      });
      return this.getPreferences(auth);
    },

    /** Job-runner poller: SLA risks, then new events to jobs. */
    async poll(): Promise<void> {
      await repo.recordSlaRisks(SLA_RISK_MINUTES);
      while ((await repo.dispatch()) > 0) {
        // keep claiming while a backlog remains
      }
    },

    /** Job: the recipients of one event, a mail job for each (and the contacts' mail, issue 4). */
    async runEvent(payload: Record<string, unknown>): Promise<Record<string, unknown>> {
      const notification = NotificationEventSchema.parse(payload.notification);
      const found = await facts(Number(payload.eventId), notification);
      if (!found) return { skipped: 'event or object gone' };
      const contactEvent = CONTACT_EVENTS[notification];
      if (contactEvent && found.incidentId) {
        await jobs.enqueue(NOTIFY_JOB, { incidentId: found.incidentId, event: contactEvent });
      }
      const recipients = await repo.recipients(notification, found.event.systemIds, found.ownerId);
      for (const userId of recipients) {
        await jobs.enqueue(NOTIFY_USER_JOB, { eventId: found.event.id, notification, userId });
      }
      return { recipients: recipients.length, contacts: Boolean(contactEvent) };
    },

    /** Job: one recipient's mail, checked again against the account as it is now. */
    async runUser(payload: Record<string, unknown>): Promise<Record<string, unknown>> {
      const notification = NotificationEventSchema.parse(payload.notification);
      const userId = Number(payload.userId);
      const found = await facts(Number(payload.eventId), notification);
      if (!found) return { skipped: 'event or object gone' };
      const user = await repo.recipientAccount(userId);
      if (!user?.isActive || !user.email) return { skipped: 'user inactive or without e-mail' };
      const visible = eventVisibleTo(found.event, {
        role: user.role,
        systemIds: user.systemIds,
      });
      if (!visible) return { skipped: 'no longer visible' };
      const prefs = await this.getPreferences({
        userId,
        username: '',
        role: user.role,
        sessionId: null,
        systemIds: [],
      });
      if (!prefs.events.includes(notification)) return { skipped: 'turned off' };
      const mail = notificationMail(found.facts, prefs.language);
      await mailer.send({
        kind: 'notification',
        to: user.email,
        ...mail,
        ...(found.facts.incident ? { replyTo: config.inboundMail.address } : {}),
      });
      return { to: user.email, language: prefs.language, notification };
    },
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
