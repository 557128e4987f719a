import type { Language } from '@soc/contracts';
import { TASK_STATUS_TITLES, TASK_TYPE_TITLES, taskPath } from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import type { Db } from '../../db/client.ts';
import type { Mailer } from '../../integrations/mail/mailer.ts';
import type { JobRunner } from '../../jobs/runner.ts';
import { htmlToText } from '../../lib/markdown.ts';
import { languageOf } from '../../lib/messages.ts';
import { createTasksRepository } from './tasks.repository.ts';

export const TASK_NOTIFY_JOB = 'task.notify';

/** The subject tag of task mails. */
export const taskSubjectTag = (id: number) => `[TASK-${id}]`;

const TEXTS: Record<
  Language,
  {
    subject: (id: number, subject: string) => string;
    intro: string;
    type: string;
    status: string;
    open: string;
  }
> = {
  ru: {
    subject: (id, subject) => `${taskSubjectTag(id)} Новый ответ SOC: ${subject}`,
    intro: 'Аналитик SOC ответил на вашу заявку.',
    type: 'Тип',
    status: 'Статус',
    open: 'Открыть заявку',
  },
  en: {
    subject: (id, subject) => `${taskSubjectTag(id)} New reply from the SOC: ${subject}`,
    intro: 'A SOC analyst has replied to your request.',
    type: 'Type',
    status: 'Status',
    open: 'Open the request',
  },
};

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export interface TaskNotifierDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  jobs: Pick<JobRunner, 'enqueue'>;
}

/**
 * E-mails the customer who opened a task when the SOC replies in its chat. Sending runs as a
 * job, so that a slow or failing SMTP server never fails the reply and failures are retried.
 */
export function createTaskNotifier({ db, config, mailer, jobs }: TaskNotifierDeps) {
  const repo = createTasksRepository(db);
  return {
    onSocReply: async (taskId: number, messageId: number): Promise<void> => {
      await jobs.enqueue(TASK_NOTIFY_JOB, { taskId, messageId });
    },

    /** Job handler: one message to the task's author, in the author's language. */
    async run(payload: Record<string, unknown>): Promise<Record<string, unknown>> {
      const row = await repo.withAuthor(Number(payload.taskId));
      if (!row) return { skipped: 'task or author gone' };
      if (!row.email || !row.active || row.role !== 'customer') return { skipped: 'no customer address' };
      const message = await repo.message(Number(payload.messageId));
      if (!message) return { skipped: 'message gone' };
      const lang = languageOf(row.locale);
      const t = TEXTS[lang];
      const base = (config.publicUrl ?? `http://${config.host}:${config.port}`).replace(/\/$/, '');
      const link = `${base}${taskPath({ id: row.id, type: row.type })}`;
      const facts: [string, string][] = [
        [t.type, TASK_TYPE_TITLES[lang][row.type]],
        [t.status, TASK_STATUS_TITLES[lang][row.status]],
      ];
      await mailer.send({
        kind: 'task_notification',
        to: row.email,
        subject: t.subject(row.id, row.subject),
        headers: { 'X-SOC-Task': String(row.id) },
        text: [
          t.intro,
          '',
          row.subject,
          ...facts.map(([k, v]) => `${k}: ${v}`),
          '',
          `${message.authorName}:`,
          htmlToText(message.body),
          '',
          `${t.open}: ${link}`,
        ].join('\n'),
        html: [
          `<p>${escape(t.intro)}</p>`,
          `<h2>${escape(row.subject)}</h2>`,
          `<table>${facts.map(([k, v]) => `<tr><th align="left">${escape(k)}</th><td>${escape(v)}</td></tr>`).join('')}</table>`,
          `<p><strong>${escape(message.authorName)}</strong></p>`,
          // sanitised when the message was stored
          message.body,
          `<p><a href="${escape(link)}">${escape(t.open)}</a></p>`,
        ].join('\n'),
      });
      return { task: row.id, recipients: 1 };
    },
  };
}
export type TaskNotifier = ReturnType<typeof createTaskNotifier>;
