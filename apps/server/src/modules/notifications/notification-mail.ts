import type { Language, NotificationEvent } from '@soc/contracts';
import { INCIDENT_PRIORITY_TITLES, INCIDENT_STATUS_TITLES } from '@soc/contracts';
import type { IncidentPriority, IncidentStatus } from '@soc/contracts';
import type { MailMessage } from '../../integrations/mail/mailer.ts';
import { subjectTag } from '../incidents/index.ts';

/** What a notification e-mail tells about. */
export interface NotificationFacts {
  notification: NotificationEvent;
  link: string;
  incident?: {
    key: number;
    summary: string;
    system: string;
    priority: IncidentPriority;
    status: IncidentStatus;
    sla: Date | null;
  };
  /** Plain text of a SOC comment. */
  comment?: { author: string; text: string };
  report?: { name: string };
}

const SUBJECTS: Record<Language, Record<NotificationEvent, string>> = {
  ru: {
    incident_created: 'Новый инцидент',
    waiting_for_customer: 'Требуется ваш ответ',
    sla_at_risk: 'Срок SLA скоро истекает',
    soc_comment: 'Новый комментарий SOC',
    report_ready: 'Отчёт готов',
  },
  en: {
    incident_created: 'New incident',
    waiting_for_customer: 'Your answer is needed',
    sla_at_risk: 'SLA deadline approaching',
    soc_comment: 'New comment from the SOC',
    report_ready: 'Report ready',
  },
};

const INTROS: Record<Language, Record<NotificationEvent, string>> = {
  ru: {
    incident_created: 'Зарегистрирован новый инцидент информационной безопасности.',
    waiting_for_customer: 'Аналитики SOC ожидают вашего ответа по инциденту.',
    sla_at_risk: 'Срок уведомления по инциденту (SLA) истекает менее чем через час.',
    soc_comment: 'Аналитик SOC оставил комментарий к инциденту.',
    report_ready: 'Отчёт сформирован и доступен в портале.',
  },
  en: {
    incident_created: 'A new information security incident has been registered.',
    waiting_for_customer: 'The SOC analysts are waiting for your answer on the incident.',
    sla_at_risk: 'The incident’s notification deadline (SLA) ends in less than an hour.',
    soc_comment: 'A SOC analyst commented on the incident.',
    report_ready: 'The report has been generated and is available in the portal.',
  },
};

const LABELS: Record<
  Language,
  Record<'system' | 'priority' | 'status' | 'sla' | 'open' | 'settings', string>
> = {
  ru: {
    system: 'Система',
    priority: 'Приоритет',
    status: 'Статус',
    sla: 'Срок SLA (UTC)',
    open: 'Открыть в портале',
    settings: 'Настроить уведомления можно в профиле портала.',
  },
  en: {
    system: 'System',
    priority: 'Priority',
    status: 'Status',
    sla: 'SLA deadline (UTC)',
    open: 'Open in the portal',
    settings: 'You can change these notifications in your portal profile.',
  },
};

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The e-mail of one notification in the recipient's language (text and HTML). */
export function notificationMail(
  facts: NotificationFacts,
  lang: Language,
): Pick<MailMessage, 'subject' | 'text' | 'html' | 'headers'> {
  const l = LABELS[lang];
  const { incident, comment, report } = facts;
  const title = incident?.summary ?? report?.name ?? '';
  const subject = `${incident ? `${subjectTag(incident.key)} ` : ''}${SUBJECTS[lang][facts.notification]}: ${title}`;
  const rows: [string, string][] = incident
    ? [
        [l.system, incident.system],
        [l.priority, INCIDENT_PRIORITY_TITLES[lang][incident.priority]],
        [l.status, INCIDENT_STATUS_TITLES[lang][incident.status]],
        ...(incident.sla && facts.notification === 'sla_at_risk'
          ? [[l.sla, incident.sla.toISOString().slice(0, 16).replace('T', ' ')] as [string, string]]
          : []),
      ]
    : [];
  const intro = INTROS[lang][facts.notification];
  const text = [
    intro,
    '',
    title,
    ...rows.map(([k, v]) => `${k}: ${v}`),
    ...(comment ? ['', `${comment.author}:`, comment.text] : []),
    '',
    `${l.open}: ${facts.link}`,
    '',
    l.settings,
  ].join('\n');
  const html = [
    `<p>${escape(intro)}</p>`,
    `<h2>${escape(title)}</h2>`,
    rows.length
      ? `<table>${rows.map(([k, v]) => `<tr><th align="left">${escape(k)}</th><td>${escape(v)}</td></tr>`).join('')}</table>`
      : '',
    comment
      ? `<p><strong>${escape(comment.author)}</strong></p><blockquote>${escape(comment.text)}</blockquote>`
      : '',
    `<p><a href="${escape(facts.link)}">${escape(l.open)}</a></p>`,
    `<p><small>${escape(l.settings)}</small></p>`,
  ]
    .filter(Boolean)
    .join('\n');
  return {
    subject,
    text,
    html,
    headers: incident ? { 'X-SOC-Incident': String(incident.key) } : {},
  };
}
