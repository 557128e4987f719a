import { and, asc, eq } from 'drizzle-orm';
import type { TaskPriority, TaskStatus, TaskType } from '@soc/contracts';
import type { Db } from '../db/client.ts';
import { systems, taskMessages, tasks, userSystems, users } from '../db/schema/index.ts';
import type { TextPair } from '../lib/messages.ts';
import { fromPair, languageOf } from '../lib/messages.ts';
import type { Rng } from './rng.ts';

const HOUR = 3_600_000;

/** A demo request: type, subject, description and the conversation that follows (customer first). */
const TEMPLATES: readonly {
  type: TaskType;
  subject: TextPair;
  description: TextPair;
  replies: readonly TextPair[];
}[] = [
  {
    type: 'rule_development',
    subject: [
      'Detect logons to the 1C server outside business hours',
      'Детектировать входы на сервер 1С в нерабочее время',
    ],
    description: [
      'Please add a rule that alerts on interactive logons to **srv-1c-01** between 22:00 and 07:00 (Moscow time), except the accounts of the backup service.',
      'Просим добавить правило, которое оповещает об интерактивных входах на **srv-1c-01** с 22:00 до 07:00 (МСК), кроме учётных записей службы резервного копирования.',
    ],
    replies: [
      [
        'Taken into work. Which accounts does the backup service use?',
        'Взяли в работу. Какие учётные записи использует служба резервного копирования?',
      ],
      ['svc-backup and svc-veeam.', 'svc-backup и svc-veeam.'],
      [
        'The rule is deployed in test mode; we will watch it for a week before enabling alerts.',
        'Правило развёрнуто в тестовом режиме; неделю наблюдаем, затем включим оповещения.',
      ],
    ],
  },
  {
    type: 'portal_problems',
    subject: ['The CSV export of incidents arrives empty', 'Выгрузка инцидентов в CSV приходит пустой'],
    description: [
      'Since yesterday the CSV file from the incident list contains only the header row.',
      'Со вчерашнего дня CSV-файл из списка инцидентов содержит только строку заголовков.',
    ],
    replies: [
      [
        'Thank you, we reproduced it with the "resolution date" filter. A fix is on its way.',
        'Спасибо, воспроизвели с фильтром «дата решения». Исправление готовится.',
      ],
    ],
  },
  {
    type: 'event_source_question',
    subject: ['Connecting the new FortiGate cluster', 'Подключение нового кластера FortiGate'],
    description: [
      'We are installing a FortiGate 600F cluster next week. Which syslog settings do you need?',
      'На следующей неделе устанавливаем кластер FortiGate 600F. Какие настройки syslog вам нужны?',
    ],
    replies: [
      [
        'Send syslog over TCP 6514 (TLS) to the collector 10.20.0.15, format CEF, all traffic and UTM logs.',
        'Отправляйте syslog по TCP 6514 (TLS) на коллектор 10.20.0.15, формат CEF, журналы трафика и UTM.',
      ],
      ['Done, the cluster is sending since 14:00.', 'Сделано, кластер отправляет с 14:00.'],
      [
        'Events arrive; we see both nodes. We close the request once parsing is checked.',
        'События поступают, видим оба узла. Закроем заявку после проверки разбора.',
      ],
    ],
  },
  {
    type: 'use_case_development',
    subject: [
      'Use case: mass file renaming on file servers',
      'Сценарий: массовое переименование файлов на файловых серверах',
    ],
    description: [
      'We would like a use case for early ransomware detection on the file servers fs-01 and fs-02.',
      'Хотим сценарий раннего обнаружения шифровальщиков на файловых серверах fs-01 и fs-02.',
    ],
    replies: [
      [
        'Do the servers have file auditing (event 4663) enabled?',
        'На серверах включён аудит файловой системы (событие 4663)?',
      ],
    ],
  },
  {
    type: 'question',
    subject: ['Why was incident priority raised to high?', 'Почему приоритет инцидента повышен до высокого?'],
    description: [
      'An incident about a scan from the internal network was raised to high. What changed?',
      'Инцидент о сканировании из внутренней сети повышен до высокого. Что изменилось?',
    ],
    replies: [
      [
        'The scanning host later connected to a known C2 address; the details are in the incident comments.',
        'Сканирующий хост позднее подключился к известному адресу C2; подробности в комментариях к инциденту.',
      ],
      ['Understood, thank you.', 'Понятно, спасибо.'],
    ],
  },
  {
    type: 'other',
    subject: [
      'Update the contact list for night notifications',
      'Обновить список контактов для ночных оповещений',
    ],
    description: [
      'Please replace the night duty phone with +7 495 100-20-30.',
      'Просим заменить телефон ночного дежурного на +7 495 100-20-30.',
    ],
    replies: [
      ['Updated. Please check the Tenants page.', 'Обновили. Проверьте, пожалуйста, страницу «Системы».'],
    ],
  },
];

export interface DemoTasksOptions {
  rng: Rng;
  now: Date;
}

/**
 * A handful of service requests per system with their chats, opened by the system's customers
 * and answered by analysts: every type and status appears. Small at any scale (a few per system).
 */
export async function generateDemoTasks(db: Db, { rng, now }: DemoTasksOptions): Promise<number> {
  const analysts = await db
    .select({ id: users.id, first: users.firstName, last: users.lastName })
    .from(users)
    .where(eq(users.role, 'analyst'))
    .orderBy(asc(users.id));
  if (!analysts.length) return 0;
  const systemRows = await db.select({ id: systems.id }).from(systems).orderBy(asc(systems.id)).limit(5);
  let count = 0;
  for (const [s, system] of systemRows.entries()) {
    const customers = await db
      .select({ id: users.id, first: users.firstName, last: users.lastName, locale: users.locale })
      .from(userSystems)
      .innerJoin(users, eq(users.id, userSystems.userId))
      .where(and(eq(userSystems.systemId, system.id), eq(users.role, 'customer')))
      .orderBy(asc(users.id));
    if (!customers.length) continue;
    const templates = rng.sample(TEMPLATES, 3 + (s % 3));
    for (const [k, tpl] of templates.entries()) {
      const author = rng.pick(customers);
      const lang = languageOf(author.locale);
      const replies = tpl.replies.slice(0, rng.int(k === 0 ? 1 : 0, tpl.replies.length));
      const status: TaskStatus =
        replies.length === 0
          ? 'open'
          : replies.length === tpl.replies.length && replies.length > 1
            ? rng.pick(['resolved', 'closed'] as const)
            : replies.length % 2 === 1
              ? 'waiting_for_customer'
              : 'in_progress';
      const created = new Date(now.getTime() - rng.int(2, 60 * 24) * HOUR);
      let at = created.getTime();
      const messages = replies.map((text, i) => {
        at = Math.min(now.getTime(), at + rng.int(1, 30) * HOUR);
        const fromSoc = i % 2 === 0;
        const who = fromSoc ? rng.pick(analysts) : author;
        return {
          authorId: who.id,
          authorName: `${who.first} ${who.last}`.trim(),
          body: `<p>${fromPair(text).in(lang)}</p>`,
          fromSoc,
          created: new Date(at),
        };
      });
      const [task] = await db
        .insert(tasks)
        .values({
          systemId: system.id,
          type: tpl.type,
          subject: fromPair(tpl.subject).in(lang),
          description: fromPair(tpl.description).in(lang),
          priority: rng.pick(['low', 'medium', 'medium', 'high'] as const satisfies readonly TaskPriority[]),
          status,
          authorId: author.id,
          authorName: `${author.first} ${author.last}`.trim(),
          messagesCount: messages.length,
          lastFromSoc: messages.at(-1)?.fromSoc ?? false,
          created,
          updated: new Date(at),
        })
        .returning({ id: tasks.id });
      if (messages.length) {
        await db.insert(taskMessages).values(messages.map((m) => ({ ...m, taskId: task!.id })));
      }
      count++;
    }
  }
  return count;
}
