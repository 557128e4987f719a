import type { IncidentStatus, Language } from '@soc/contracts';
import { INCIDENT_PRIORITY_TITLES, INCIDENT_STATUS_TITLES } from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import type { Db } from '../../db/client.ts';
import type { Mailer } from '../../integrations/mail/mailer.ts';
import type { JobRunner } from '../../jobs/runner.ts';
import { htmlToText, renderMarkdown } from '../../lib/markdown.ts';
import { createIncidentNotifierRepository } from './notifications.repository.ts';

export const NOTIFY_JOB = 'incident.notify';

export type NotifyEvent = 'created' | 'waiting_for_customer';

/** The subject tag that inbound mail uses to find the incident a reply belongs to. */
export const subjectTag = (key: number) => `[INC-${key}]`;

const TEMPLATES: Record<
  Language,
  Record<NotifyEvent, { subject: (key: number, summary: string) => string; intro: string }>
> = {
  ru: {
    created: {
      subject: (key, summary) => `${subjectTag(key)} Зарегистрирован инцидент: ${summary}`,
      intro: 'Зарегистрирован новый инцидент информационной безопасности.',
    },
    waiting_for_customer: {
      subject: (key, summary) => `${subjectTag(key)} Требуется ваш ответ: ${summary}`,
      intro: 'Аналитики SOC ожидают вашего ответа по инциденту.',
    },
  },
  en: {
    created: {
      subject: (key, summary) => `${subjectTag(key)} Incident registered: ${summary}`,
      intro: 'A new information security incident has been registered.',
    },
    waiting_for_customer: {
      subject: (key, summary) => `${subjectTag(key)} Your answer is needed: ${summary}`,
      intro: 'The SOC analysts are waiting for your answer on the incident.',
    },
  },
};

const LABELS: Record<Language, Record<'system' | 'priority' | 'status' | 'open' | 'reply', string>> = {
  ru: {
    system: 'Система',
    priority: 'Приоритет',
    status: 'Статус',
    open: 'Открыть инцидент',
    reply: 'Ответ на это письмо будет добавлен в комментарии к инциденту.',
  },
  en: {
    system: 'System',
    priority: 'Priority',
    status: 'Status',
    open: 'Open the incident',
    reply: 'A reply to this message is added to the incident’s comments.',
  },
};

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export interface NotifierDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  jobs: Pick<JobRunner, 'enqueue'>;
}

/**
 * E-mails to a system's contacts when an incident is created or moves to Waiting for customer
 * (issue 4). Sending runs as a job so that a slow or failing SMTP server never fails the request
 * and failed deliveries are retried.
 */
export function createIncidentNotifier({ db, config, mailer, jobs }: NotifierDeps) {
  const repo = createIncidentNotifierRepository(db);
  return {
    onCreated: async (incidentId: string): Promise<void> => {
      await jobs.enqueue(NOTIFY_JOB, { incidentId, event: 'created' });
    },

    onStatus: async (incidentId: string, status: IncidentStatus): Promise<void> => {
      if (status === 'waiting_for_customer') {
        await jobs.enqueue(NOTIFY_JOB, { incidentId, event: 'waiting_for_customer' });
      }
    },

    /** Job handler: one message per language to the contacts that receive notifications. */
    async run(payload: Record<string, unknown>): Promise<Record<string, unknown>> {
      const event = payload.event as NotifyEvent;
      const incident = await repo.incident(String(payload.incidentId));
      if (!incident) return { skipped: 'incident gone' };
      const recipients = await repo.recipients(incident.systemId);
      const sent: string[] = [];
      for (const lang of ['ru', 'en'] as const) {
        const to = [...new Set(recipients.filter((r) => r.locale === lang).map((r) => r.email))];
        if (!to.length) continue;
        const t = TEMPLATES[lang][event];
        const l = LABELS[lang];
        const link = `${(config.publicUrl ?? `http://${config.host}:${config.port}`).replace(/\/$/, '')}/inc/${incident.key}`;
        const facts: [string, string][] = [
          [l.system, `${incident.isId} ${incident.systemName}`],
          [l.priority, INCIDENT_PRIORITY_TITLES[lang][incident.priority]],
          [l.status, INCIDENT_STATUS_TITLES[lang][incident.status]],
        ];
        const description = renderMarkdown(incident.description);
        await mailer.send({
          kind: 'incident_notification',
          to: to.join(', '),
          subject: t.subject(incident.key, incident.summary),
          replyTo: config.inboundMail.address,
          headers: { 'X-SOC-Incident': String(incident.key) },
          text: [
            t.intro,
            '',
            `${incident.summary}`,
            ...facts.map(([k, v]) => `${k}: ${v}`),
            '',
            htmlToText(description),
            '',
            `${l.open}: ${link}`,
            l.reply,
          ].join('\n'),
          html: [
            `<p>${escape(t.intro)}</p>`,
            `<h2>${escape(incident.summary)}</h2>`,
            `<table>${facts.map(([k, v]) => `<tr><th align="left">${escape(k)}</th><td>${escape(v)}</td></tr>`).join('')}</table>`,
            description,
            `<p><a href="${escape(link)}">${escape(l.open)}</a></p>`,
            `<p><small>${escape(l.reply)}</small></p>`,
          ].join('\n'),
        });
        sent.push(...to);
      }
      return { event, key: incident.key, recipients: sent.length };
    },
  };
}

export type IncidentNotifier = ReturnType<typeof createIncidentNotifier>;
