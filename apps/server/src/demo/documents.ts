import { Readable } from 'node:stream';
import { inArray } from 'drizzle-orm';
import type { DocumentKind } from '@soc/contracts';
import { DOCUMENT_KIND_PATHS } from '@soc/contracts';
import type { Db } from '../db/client.ts';
import {
  documentAttachments,
  documentComments,
  documentVersions,
  documents,
  users,
} from '../db/schema/index.ts';
import type { FileStorage } from '../integrations/storage/file-storage.ts';
import { renderMarkdown } from '../lib/markdown.ts';
import type { TextPair } from '../lib/messages.ts';
import { fromPair, msg } from '../lib/messages.ts';
import { solidPng } from '../modules/documents/index.ts';
import type { Rng } from './rng.ts';

const DAY = 86_400_000;

/** A version-4 UUID from the seeded stream (the demo data is the same on every run). */
function uuidFrom(rng: Rng): string {
  const hex = Array.from({ length: 32 }, () => rng.int(0, 15).toString(16));
  hex[12] = '4';
  hex[16] = ((rng.int(0, 15) & 0x3) | 0x8).toString(16);
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

interface Variant {
  title: string;
  body: string;
  /** Earlier bodies, oldest first, each with the comment of the edit that replaced it. */
  history?: { body: string; comment: string }[];
}
interface DemoDocument {
  kind: DocumentKind;
  tags: string[];
  sensors?: string[];
  ru?: Variant;
  en?: Variant;
  /** The body holds the marker `{{image}}`, replaced by a stored PNG diagram. */
  image?: boolean;
}

const CATALOG: DemoDocument[] = [
  {
    kind: 'instruction',
    tags: ['агент', 'windows'],
    sensors: ['Sysmon', 'Windows Event Log'],
    ru: {
      title: 'Установка агента сбора событий на Windows',
      body: '## Требования\n\n- Windows Server 2012 R2 и новее\n- Доступ к коллектору по TCP 5044\n\n## Шаги\n\n1. Скачайте дистрибутив из раздела «Файлы».\n2. Запустите установщик от имени администратора.\n3. Укажите адрес коллектора.\n\nСхема подключения:\n\n{{image}}\n\nПосле установки события появятся в портале в течение 15 минут.',
      history: [
        {
          body: '## Шаги\n\n1. Скачайте дистрибутив.\n2. Запустите установщик.',
          comment: 'Добавлены требования',
        },
      ],
    },
    en: {
      title: 'Installing the event collection agent on Windows',
      body: '## Requirements\n\n- Windows Server 2012 R2 or later\n- TCP 5044 open to the collector\n\n## Steps\n\n1. Download the package from Files.\n2. Run the installer as an administrator.\n3. Enter the collector address.\n\nConnection diagram:\n\n{{image}}\n\nEvents appear in the portal within 15 minutes.',
    },
    image: true,
  },
  {
    kind: 'instruction',
    tags: ['linux', 'auditd'],
    sensors: ['auditd'],
    ru: {
      title: 'Настройка auditd для передачи событий',
      body: 'Добавьте правила в `/etc/audit/rules.d/soc.rules`:\n\n```\n-w /etc/passwd -p wa -k identity\n-a always,exit -F arch=b64 -S execve -k exec\n```\n\nПерезапустите службу: `systemctl restart auditd`.',
    },
    en: {
      title: 'Configuring auditd to forward events',
      body: 'Add the rules to `/etc/audit/rules.d/soc.rules`:\n\n```\n-w /etc/passwd -p wa -k identity\n-a always,exit -F arch=b64 -S execve -k exec\n```\n\nRestart the service: `systemctl restart auditd`.',
    },
  },
  {
    kind: 'instruction',
    tags: ['сеть', 'netflow'],
    sensors: ['NetFlow', 'IDS'],
    ru: {
      title: 'Подключение зеркалирования трафика к сенсору IDS',
      body: 'Настройте SPAN-порт на коммутаторе ядра и подключите его к интерфейсу **mon0** сенсора.\n\n> Скорость порта не должна превышать 10 Гбит/с.',
    },
  },
  {
    kind: 'instruction',
    tags: ['edr'],
    sensors: ['EDR'],
    en: {
      title: 'Enabling EDR tamper protection',
      body: 'Open the EDR console, select the policy and turn on **Tamper protection**. Apply the policy to all groups.',
    },
  },
  {
    kind: 'response_instruction',
    tags: ['ransomware', 'изоляция'],
    ru: {
      title: 'Реагирование на шифровальщик',
      body: '1. Изолируйте заражённые узлы от сети.\n2. Не выключайте узлы: сохраните память для анализа.\n3. Сообщите в SOC номер инцидента и список узлов.\n4. Смените пароли привилегированных учётных записей.',
      history: [
        { body: '1. Изолируйте узлы.\n2. Сообщите в SOC.', comment: 'Первая редакция' },
        {
          body: '1. Изолируйте узлы.\n2. Не выключайте узлы.\n3. Сообщите в SOC.',
          comment: 'Добавлено сохранение памяти',
        },
      ],
    },
    en: {
      title: 'Responding to ransomware',
      body: '1. Isolate infected hosts from the network.\n2. Do not power hosts off: keep memory for analysis.\n3. Tell the SOC the incident number and the host list.\n4. Change the passwords of privileged accounts.',
      history: [{ body: '1. Isolate hosts.\n2. Tell the SOC.', comment: 'First edition' }],
    },
  },
  {
    kind: 'response_instruction',
    tags: ['фишинг', 'почта'],
    ru: {
      title: 'Действия при фишинговой рассылке',
      body: 'Заблокируйте отправителя на почтовом шлюзе, удалите письма из ящиков получателей и сбросьте пароли тех, кто перешёл по ссылке.',
    },
  },
  {
    kind: 'response_instruction',
    tags: ['credentials', 'ad'],
    en: {
      title: 'Compromised domain account',
      body: 'Disable the account, reset its password twice (to invalidate Kerberos tickets), review the logons of the last 30 days and report findings to the SOC.',
      history: [{ body: 'Disable the account and reset its password.', comment: 'Initial version' }],
    },
  },
  {
    kind: 'article',
    tags: ['mitre', 'обзор'],
    ru: {
      title: 'Как читать матрицу MITRE ATT&CK в портале',
      body: 'Столбцы матрицы — тактики, ячейки — техники. Цвет ячейки показывает число правил обнаружения, покрывающих технику.',
      history: [{ body: 'Столбцы — тактики, ячейки — техники.', comment: 'Черновик' }],
    },
    en: {
      title: 'Reading the MITRE ATT&CK matrix in the portal',
      body: 'Columns are tactics and cells are techniques. The colour of a cell shows how many detection rules cover the technique.',
    },
  },
  {
    kind: 'article',
    tags: ['sla'],
    ru: {
      title: 'Что такое SLA оповещения',
      body: 'SLA — крайний срок, к которому SOC обязан оповестить вас об инциденте. Срок зависит от приоритета и может считаться в рабочих или календарных часах.',
    },
  },
  {
    kind: 'article',
    tags: ['eps'],
    en: {
      title: 'Events per second and your contract',
      body: 'EPS is the average number of events per second your sources send. Bursts above the contracted value are shown on the dashboard.',
    },
  },
];

const COMMENTS: readonly TextPair[] = [
  ['Thanks, this helped.', 'Спасибо, инструкция помогла.'],
  ['Which OS versions are supported?', 'Уточните, пожалуйста, требования к версии ОС.'],
  ['Added to our runbook.', 'Добавили в регламент.'],
];
const STAFF_REPLY = {
  ru: 'Ответили в комментарии к инциденту, документ обновлён.',
  en: 'Answered in the incident chat; the document is updated.',
};

export interface DemoDocumentsOptions {
  rng: Rng;
  now: Date;
  /** Where the demo image goes; without it documents have no image attachment. */
  storage?: FileStorage;
}

/**
 * Documentation hub demo data (design §5): every kind in ru and en, some in both languages, with
 * versions, comments and an image. Draws from its own random stream.
 */
export async function generateDemoDocuments(
  db: Db,
  { rng, now, storage }: DemoDocumentsOptions,
): Promise<number> {
  const people = await db
    .select({ id: users.id, username: users.username, first: users.firstName, last: users.lastName })
    .from(users)
    .where(inArray(users.username, ['analyst', 'admin', 'alice', 'bob', 'carol']));
  const byName = new Map(
    people.map((p) => [p.username, { id: p.id, name: `${p.first} ${p.last}`.trim() || p.username }]),
  );
  const author = byName.get('analyst') ?? byName.get('admin');
  const customers = ['alice', 'bob', 'carol'].map((u) => byName.get(u)).filter((u) => u !== undefined);
  let count = 0;
  for (const entry of CATALOG) {
    const shared = uuidFrom(rng);
    for (const language of ['ru', 'en'] as const) {
      const variant = entry[language];
      if (!variant) continue;
      const history = variant.history ?? [];
      const created = new Date(now.getTime() - rng.int(30, 170) * DAY - rng.int(0, 86_399) * 1000);
      const stamps = [created];
      for (let i = 0; i < history.length; i++) {
        stamps.push(new Date(stamps[i]!.getTime() + rng.int(1, 12) * DAY + rng.int(0, 86_399) * 1000));
      }
      const updated = stamps[stamps.length - 1]!;
      const [row] = await db
        .insert(documents)
        .values({
          kind: entry.kind,
          document: shared,
          language,
          title: variant.title,
          description: variant.body.replace('{{image}}', ''),
          tags: entry.tags,
          sensors: entry.kind === 'instruction' ? (entry.sensors ?? []) : [],
          authorId: author?.id ?? null,
          authorName: author?.name ?? 'SOC',
          created,
          updated,
        })
        .returning({ id: documents.id });
      const id = row!.id;
      let body = variant.body;
      if (entry.image && body.includes('{{image}}')) {
        if (storage) {
          const png = solidPng(160, 90, [22, 119, 255]);
          const object = await storage.put('documents', Readable.from([png]), png.length);
          const [attachment] = await db
            .insert(documentAttachments)
            .values({
              documentId: id,
              filename: msg('demoDiagramFilename').in(language),
              contentType: 'image/png',
              size: object.size,
              storageKey: object.key,
              sha256: object.sha256,
              uploadedBy: author?.id ?? null,
              created,
            })
            .returning({ id: documentAttachments.id });
          const link = `/api/v0/soc/${DOCUMENT_KIND_PATHS[entry.kind]}/${id}/attachments/${attachment!.id}/`;
          body = body.replace('{{image}}', `![${msg('demoDiagramAlt').in(language)}](${link})`);
        } else body = body.replace('{{image}}', '');
        await db
          .update(documents)
          .set({ description: body })
          .where(inArray(documents.id, [id]));
      }
      // versions: the first edition, then every edit; the last one is the current body
      const bodies = [...history.map((h) => h.body), body];
      const comments = ['', ...history.map((h) => h.comment)];
      await db.insert(documentVersions).values(
        bodies.map((description, i) => ({
          documentId: id,
          comment: comments[i] ?? '',
          title: variant.title,
          description,
          authorId: author?.id ?? null,
          authorName: author?.name ?? 'SOC',
          created: stamps[i]!,
        })),
      );
      // comments: a customer question or thanks, sometimes the analyst's answer
      const n = rng.int(0, 2);
      const rows = [];
      let at = updated.getTime();
      for (let i = 0; i < n && customers.length; i++) {
        const who = rng.pick(customers);
        at += rng.int(1, 48) * 3_600_000;
        rows.push({
          documentId: id,
          authorId: who.id,
          authorName: who.name,
          body: renderMarkdown(fromPair(rng.pick(COMMENTS)).in(language)),
          fromSoc: false,
          created: new Date(Math.min(at, now.getTime())),
        });
      }
      if (rows.length && author && rng.chance(0.6)) {
        at += rng.int(1, 24) * 3_600_000;
        rows.push({
          documentId: id,
          authorId: author.id,
          authorName: author.name,
          body: renderMarkdown(STAFF_REPLY[language]),
          fromSoc: true,
          created: new Date(Math.min(at, now.getTime())),
        });
      }
      if (rows.length) await db.insert(documentComments).values(rows);
      count++;
    }
  }
  return count;
}
