import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { queryRows } from '../db/client.ts';
import {
  COMMENT_EVENTS_INSERT_TRIGGER,
  EPS_HOURLY_INSERT_TRIGGER,
  EPS_HOURLY_REBUILD,
  INCIDENT_COUNTS_REBUILD,
  INCIDENT_COUNTS_TRIGGER,
  INCIDENT_DAILY_REBUILD,
  INCIDENT_DAILY_TRIGGER,
  INCIDENT_EVENTS_INSERT_TRIGGER,
  triggerSwitch,
} from '../db/derived/index.ts';
import type { TriggerRef } from '../db/derived/index.ts';
import type { IncidentStatus } from '@soc/contracts';
import {
  categories,
  comments,
  contacts,
  contracts,
  incidentLinks,
  incidents,
  issueTypes,
  jobs,
  resolutions,
  services,
  slaRows,
  systems,
  userSystems,
  users,
} from '../db/schema/index.ts';
import { hashPassword } from '../lib/passwords.ts';
import { sqlList } from '../lib/pagination.ts';
import { slaDeadline } from '../lib/sla.ts';
import {
  CUSTOMER_COMMENTS,
  DETECTION_RULES,
  DOMAINS,
  HOSTS,
  INCIDENT_CATEGORIES,
  INFORMATION_CATEGORIES,
  ISSUE_TYPES,
  REMEDIATION_CATEGORIES,
  RESOLUTIONS,
  SERVICE_NAMES,
  SOC_COMMENTS,
  SUMMARIES,
  TAGS,
  TECHNIQUES,
} from './catalog.ts';
import type { FileStorage } from '../integrations/storage/file-storage.ts';
import { GOSSOPKA_JOB, GOSSOPKA_MAX_ATTEMPTS } from '../modules/incidents/index.ts';
import { generateDemoAlerts } from './alerts.ts';
import { generateDemoDocuments } from './documents.ts';
import { generateDemoInventory } from './inventory.ts';
import { generateDemoRules } from './rules.ts';
import { generateDemoReports } from './reports.ts';
import { generateDemoTasks } from './tasks.ts';
import { Rng } from './rng.ts';

/** The password of every demo account, printed at start. */
export const DEMO_PASSWORD = 'SocDemo-2026!';

export interface DemoOptions {
  incidents: number;
  systems?: number;
  users?: number;
  seed?: number;
  /** The moment the demo period ends (default: now); the period spans `days` before it. */
  now?: Date;
  days?: number;
  log?: (message: string) => void;
  /** From this many incidents on, load into unindexed tables and index afterwards. */
  bulkThreshold?: number;
  /** File storage for the demo documents' image; without it the documents have no image. */
  storage?: FileStorage;
}

export interface DemoLogin {
  username: string;
  description: string;
}

export interface DemoSummary {
  systems: number;
  users: number;
  incidents: number;
  comments: number;
  logins: DemoLogin[];
}

type Status = IncidentStatus;
type Priority = 'critical' | 'high' | 'medium' | 'low';
type Lang = 'ru' | 'en';

const DAY = 86_400_000;
const HOUR = 3_600_000;

const BASE_SYSTEMS: readonly { isId: string; fullName: string; lang: Lang }[] = [
  { isId: 'IS-0001', fullName: 'АО «Северный ветер» — корпоративная сеть', lang: 'ru' },
  { isId: 'IS-0002', fullName: 'Volga Energy Grid — SCADA perimeter', lang: 'en' },
  { isId: 'IS-0003', fullName: 'ООО «Балтийская розница» — процессинг', lang: 'ru' },
  { isId: 'IS-0004', fullName: 'Ural Machine Works — office network', lang: 'en' },
  { isId: 'IS-0005', fullName: 'ГБУЗ «Клиники Авроры» — медицинская ИС', lang: 'ru' },
];

const FIRST_NAMES = [
  'Алексей',
  'Мария',
  'Иван',
  'Ольга',
  'Дмитрий',
  'Елена',
  'Сергей',
  'Анна',
  'Павел',
  'Наталья',
];
const LAST_NAMES = [
  'Иванов',
  'Петрова',
  'Сидоров',
  'Кузнецова',
  'Смирнов',
  'Попова',
  'Волков',
  'Соколова',
  'Лебедев',
  'Новикова',
];

/** A v4-shaped UUID from the seeded generator, so that ids repeat with the seed. */
/** Indicators of compromise as an analyst would list them for an incident on `host`. */
function demoIocs(
  rng: Rng,
  host: string,
  user: string | undefined,
): { ioc: string; ioc_type: string; category: string[] }[] {
  const hex = (n: number) => Array.from({ length: n }, () => rng.int(0, 15).toString(16)).join('');
  const pool: (() => { ioc: string; ioc_type: string; category: string[] })[] = [
    () => ({ ioc: `203.0.113.${rng.int(2, 254)}`, ioc_type: 'ipv4', category: ['C2'] }),
    () => ({ ioc: `198.51.100.${rng.int(2, 254)}`, ioc_type: 'ipv4', category: ['scanner'] }),
    () => ({
      ioc: `${rng.pick(['update', 'cdn', 'login', 'secure'])}-${hex(4)}.example.net`,
      ioc_type: 'fqdn',
      category: ['C2'],
    }),
    () => ({
      ioc: `https://files-${hex(3)}.example.org/invoice_${rng.int(100, 999)}.zip`,
      ioc_type: 'url',
      category: ['phishing'],
    }),
    () => ({ ioc: hex(64), ioc_type: 'file', category: ['malware'] }),
    () => ({
      ioc: `billing@${rng.pick(['paypa1', 'secure-bank', 'delivery-info'])}.example.com`,
      ioc_type: 'email',
      category: ['phishing'],
    }),
    () => ({ ioc: `${host}`, ioc_type: 'device', category: ['affected'] }),
    () => ({ ioc: user ?? 'svc_backup', ioc_type: 'useraccount', category: ['compromised'] }),
    () => ({ ioc: 'powershell.exe -enc JABzAD0ATgBlAHcA', ioc_type: 'process', category: ['execution'] }),
  ];
  return rng.sample(pool, rng.int(0, 4)).map((make) => make());
}

function uuidFrom(rng: Rng): string {
  const hex = Array.from({ length: 32 }, () => rng.int(0, 15).toString(16));
  hex[12] = '4';
  hex[16] = ((rng.int(0, 15) & 0x3) | 0x8).toString(16);
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

const fill = (template: string, rng: Rng, user: string) =>
  template
    .replaceAll('{host}', rng.pick(HOSTS))
    .replaceAll('{ip}', `${rng.int(11, 223)}.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}`)
    .replaceAll('{user}', user)
    .replaceAll('{domain}', rng.pick(DOMAINS));

/** The status an incident of a given age is likely to have reached. */
function statusFor(ageDays: number, rng: Rng): Status {
  if (ageDays < 2) {
    return rng.weighted<Status>([
      ['waiting_for_customer', 5],
      ['work_in_progress', 2],
      ['waiting_for_support', 2],
      ['closed', 1],
    ]);
  }
  if (ageDays < 14) {
    return rng.weighted<Status>([
      ['waiting_for_customer', 2],
      ['work_in_progress', 2],
      ['waiting_for_support', 1],
      ['customer_completed', 1],
      ['closed', 3],
      ['completed', 2],
      ['canceled', 0.3],
    ]);
  }
  return rng.weighted<Status>([
    ['waiting_for_customer', 0.3],
    ['work_in_progress', 0.2],
    ['customer_completed', 1],
    ['closed', 6],
    ['completed', 3],
    ['canceled', 0.5],
  ]);
}

/** From this many incidents on, the generator loads into unindexed tables and indexes afterwards. */
const BULK_THRESHOLD = 100_000;

/** Drops the non-unique indexes of the tables and returns the statements that recreate them. */
async function dropSecondaryIndexes(db: Db, tables: string[]): Promise<string[]> {
  const rows = await queryRows<{ name: string; definition: string }>(
    db,
    sql`SELECT i.indexname AS name, i.indexdef AS definition
          FROM pg_indexes i JOIN pg_class c ON c.relname = i.indexname JOIN pg_index x ON x.indexrelid = c.oid
         WHERE i.schemaname = 'public' AND i.tablename IN (${sql.join(
           tables.map((t) => sql`${t}`),
           sql`, `,
         )}) AND NOT x.indisunique AND NOT x.indisprimary`,
  );
  for (const row of rows) await db.execute(sql.raw(`DROP INDEX "${row.name.replace(/"/g, '')}"`));
  return rows.map((r) => r.definition);
}

/** Switches triggers off for a bulk load (the load recounts once at its end) or on again. */
async function switchTriggers(db: Db, triggers: TriggerRef[], enabled: boolean): Promise<void> {
  for (const t of triggers) await db.execute(sql.raw(triggerSwitch(t, enabled)));
}

/** True when the database holds no users yet (a fresh installation). */
/** The sign-in names the demo data set creates (README's table of demo logins). */
export const DEMO_USERNAMES = ['alice', 'bob', 'carol', 'dave', 'analyst', 'admin'] as const;

/** Whether the demo's accounts are in the database, i.e. the demo data set is loaded. */
export async function demoAccountsPresent(db: Db): Promise<boolean> {
  const rows = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM users WHERE username IN (${sqlList(DEMO_USERNAMES)})`,
  );
  return rows[0]?.n === DEMO_USERNAMES.length;
}

export async function isDatabaseEmpty(db: Db): Promise<boolean> {
  const rows = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM users LIMIT 1) u`,
  );
  return (rows[0]?.n ?? 0) === 0;
}

/** Empties every table that the demo fills (for `npm run demo -- --reset`). */
export async function resetDatabase(db: Db): Promise<void> {
  await db.execute(sql`
    TRUNCATE events, notification_preferences, task_attachments, task_messages, tasks, misconfiguration_incidents, asset_software, alert_tags, incident_alert_counts, system_alert_counts, alerts, tags, response_teams, link_templates, misconfigurations, reports, report_schedules, rules, incident_daily, eps_hourly, log_source_event_buckets, log_sources, incident_snapshots, cmdb_assets, document_attachments, document_comments, document_versions, documents, jobs, audit_log, login_throttle, refresh_tokens, attachments, comments, incidents, resolutions, categories, issue_types,
             contacts, sla_rows, services, contracts, user_systems, systems, users
    RESTART IDENTITY CASCADE`);
}

/**
 * Fills an empty database with a realistic, deterministic data set: the same seed and `now`
 * give the same rows. Incidents are written in batches so memory stays flat at any size.
 */
export async function generateDemoData(db: Db, options: DemoOptions): Promise<DemoSummary> {
  const rng = new Rng(options.seed ?? 20261122);
  // the incident page's extra fields draw from their own stream, so the main data stays as it was
  const pageRng = new Rng((options.seed ?? 20261122) ^ 0x5eed);
  const log = options.log ?? (() => undefined);
  const now = options.now ?? new Date();
  const days = options.days ?? 180;
  const systemCount = Math.max(5, options.systems ?? 5);
  const userCount = Math.max(20, options.users ?? 20);
  const passwordHash = await hashPassword(DEMO_PASSWORD);

  // Reference data
  const typeRows = await db
    .insert(issueTypes)
    .values(ISSUE_TYPES.map((t) => ({ code: t.code, titleEn: t.titleEn, titleRu: t.titleRu })))
    .returning({ id: issueTypes.id, code: issueTypes.code });
  const typeId = (code: string) => typeRows.find((t) => t.code === code)!.id;
  const categoryLists: [string, readonly (readonly [string, string, string])[]][] = [
    ['incident', INCIDENT_CATEGORIES],
    ['remediation', REMEDIATION_CATEGORIES],
    ['information', INFORMATION_CATEGORIES],
  ];
  const categoryRows = await db
    .insert(categories)
    .values(
      categoryLists.flatMap(([type, list]) =>
        list.map(([code, titleEn, titleRu]) => ({ issueTypeId: typeId(type), code, titleEn, titleRu })),
      ),
    )
    .returning({ id: categories.id, code: categories.code, issueTypeId: categories.issueTypeId });
  const categoriesOf = (type: string) => categoryRows.filter((c) => c.issueTypeId === typeId(type));
  const resolutionRows = await db
    .insert(resolutions)
    .values(
      Object.entries(RESOLUTIONS).flatMap(([type, list]) =>
        list.map(([code, kind, titleEn, titleRu]) => ({
          issueTypeId: typeId(type),
          code,
          kind,
          titleEn,
          titleRu,
        })),
      ),
    )
    .returning({ id: resolutions.id, kind: resolutions.kind, issueTypeId: resolutions.issueTypeId });
  const resolutionOf = (type: string, kind: 'TP' | 'FP') =>
    resolutionRows.find((r) => r.issueTypeId === typeId(type) && r.kind === kind)!.id;

  // Staff
  const staff = await db
    .insert(users)
    .values([
      {
        username: 'admin',
        firstName: 'Администратор',
        lastName: 'Портала',
        email: 'admin@soc.example',
        role: 'admin',
        passwordHash,
        locale: 'en',
      },
      {
        username: 'analyst',
        firstName: 'Анна',
        lastName: 'Смирнова',
        email: 'analyst@soc.example',
        role: 'analyst',
        passwordHash,
      },
      {
        username: 'analyst2',
        firstName: 'Игорь',
        lastName: 'Белов',
        email: 'analyst2@soc.example',
        role: 'analyst',
        passwordHash,
      },
      {
        username: 'manager',
        firstName: 'Ксения',
        lastName: 'Орлова',
        email: 'manager@soc.example',
        role: 'analyst',
        passwordHash,
      },
    ] satisfies (typeof users.$inferInsert)[])
    .returning({
      id: users.id,
      username: users.username,
      firstName: users.firstName,
      lastName: users.lastName,
    });
  const analysts = staff.filter((u) => u.username.startsWith('analyst'));
  const manager = staff.find((u) => u.username === 'manager')!;

  // Systems
  const systemSpecs = Array.from({ length: systemCount }, (_, i): (typeof BASE_SYSTEMS)[number] => {
    const base = BASE_SYSTEMS[i];
    const n = String(i + 1).padStart(4, '0');
    return (
      base ?? {
        isId: `IS-${n}`,
        fullName: `Demo Customer ${n} — network`,
        lang: i % 2 ? 'en' : 'ru',
      }
    );
  });
  const systemRows = await db
    .insert(systems)
    .values(
      systemSpecs.map((s, i) => ({
        isId: s.isId,
        fullName: s.fullName,
        status: 'active' as const,
        serviceManagerId: manager.id,
        serviceManagerDoubleId: analysts[1]!.id,
        dedicatedAnalystId: analysts[i % analysts.length]!.id,
        dedicatedAnalystDoubleId: analysts[(i + 1) % analysts.length]!.id,
      })),
    )
    .returning({ id: systems.id, isId: systems.isId });

  // Contracts, services, SLA, contacts
  const serviceBySystem = new Map<
    number,
    { id: number; sla: Map<Priority, { hours: number; calendar: boolean }> }[]
  >();
  for (const [i, system] of systemRows.entries()) {
    const start = new Date(now.getTime() - (400 + i * 30) * DAY);
    const [contract] = await db
      .insert(contracts)
      .values({
        systemId: system.id,
        name: `Договор на услуги мониторинга ИБ / MDR services agreement`,
        number: `MDR-${2024 + (i % 2)}-${String(101 + i)}`,
        startDate: start.toISOString().slice(0, 10),
        endDate: new Date(start.getTime() + 3 * 365 * DAY).toISOString().slice(0, 10),
      })
      .returning({ id: contracts.id });
    const names = rng.sample(SERVICE_NAMES, i === 0 ? 2 : rng.int(1, 2));
    const list: { id: number; sla: Map<Priority, { hours: number; calendar: boolean }> }[] = [];
    for (const name of names) {
      const [service] = await db
        .insert(services)
        .values({
          systemId: system.id,
          contractId: contract!.id,
          name,
          startDate: start.toISOString().slice(0, 10),
          contractedEps: rng.pick([500, 1000, 1500, 2500, 5000]),
        })
        .returning({ id: services.id });
      const sla: [Priority, number, boolean][] = [
        ['critical', 1, true],
        ['high', 4, true],
        ['medium', 8, false],
        ['low', 24, false],
      ];
      await db.insert(slaRows).values(
        sla.map(([category, hours, calendar]) => ({
          serviceId: service!.id,
          category,
          hours,
          calendar,
          icon: category,
        })),
      );
      list.push({
        id: service!.id,
        sla: new Map(sla.map(([p, hours, calendar]) => [p, { hours, calendar }])),
      });
    }
    serviceBySystem.set(system.id, list);
    await db.insert(contacts).values(
      Array.from({ length: 2 }, (_, k) => ({
        systemId: system.id,
        lastName: rng.pick(LAST_NAMES),
        firstName: rng.pick(FIRST_NAMES),
        patronimic: k === 0 ? 'Викторович' : '',
        email: `security${k + 1}@${system.isId.toLowerCase()}.example`,
        locale: systemSpecs[i]!.lang,
        workPhone: `+7 495 ${rng.int(100, 999)}-${rng.int(10, 99)}-${rng.int(10, 99)}`,
        mobilePhone: `+7 9${rng.int(10, 99)} ${rng.int(100, 999)}-${rng.int(10, 99)}-${rng.int(10, 99)}`,
      })),
    );
  }

  // Customers: the named demo accounts first, then generated ones spread over the systems
  const sys = (k: number) => systemRows[k]!.id;
  type CustomerSpec = {
    user: Omit<typeof users.$inferInsert, 'passwordHash'>;
    systems: number[];
    description: string;
  };
  const named: CustomerSpec[] = [
    {
      user: { username: 'alice', firstName: 'Алиса', lastName: 'Морозова', email: 'alice@customer1.example' },
      systems: [sys(0)],
      description: `customer of ${systemRows[0]!.isId}`,
    },
    {
      user: {
        username: 'bob',
        firstName: 'Bob',
        lastName: 'Turner',
        email: 'bob@customer2.example',
        locale: 'en',
      },
      systems: [sys(1)],
      description: `customer of ${systemRows[1]!.isId}`,
    },
    {
      user: { username: 'carol', firstName: 'Карина', lastName: 'Зайцева', email: 'carol@customer3.example' },
      systems: [sys(0), sys(2)],
      description: `customer of two systems, ${systemRows[0]!.isId} and ${systemRows[2]!.isId}`,
    },
    {
      user: {
        username: 'dave',
        firstName: 'Денис',
        lastName: 'Ковалёв',
        email: 'dave@customer4.example',
        mfaPhone: '+79000000004',
      },
      systems: [sys(3)],
      description: `customer of ${systemRows[3]!.isId} with an SMS second factor (+79000000004)`,
    },
  ];
  const generatedCount = userCount - staff.length - named.length;
  const generated = Array.from({ length: Math.max(0, generatedCount) }, (_, k) => {
    const systemIndex = k % systemRows.length;
    return {
      user: {
        username: `user${String(k + 1).padStart(3, '0')}`,
        firstName: rng.pick(FIRST_NAMES),
        lastName: rng.pick(LAST_NAMES),
        email: `user${k + 1}@${systemRows[systemIndex]!.isId.toLowerCase()}.example`,
        isActive: k % 9 !== 8,
      },
      systems: [sys(systemIndex)],
      description: '',
    };
  });
  const customerSpecs = [...named, ...generated];
  const customerRows: { id: number; username: string; firstName: string; lastName: string }[] = [];
  for (let i = 0; i < customerSpecs.length; i += 500) {
    const chunk = customerSpecs.slice(i, i + 500);
    customerRows.push(
      ...(await db
        .insert(users)
        .values(chunk.map((c) => ({ role: 'customer' as const, passwordHash, ...c.user })))
        .returning({
          id: users.id,
          username: users.username,
          firstName: users.firstName,
          lastName: users.lastName,
        })),
    );
  }
  const memberships = customerSpecs.flatMap((c, i) =>
    c.systems.map((systemId) => ({ userId: customerRows[i]!.id, systemId })),
  );
  for (let i = 0; i < memberships.length; i += 1000)
    await db.insert(userSystems).values(memberships.slice(i, i + 1000));
  const customersBySystem = new Map<number, typeof customerRows>();
  customerSpecs.forEach((c, i) => {
    for (const systemId of c.systems) {
      const list = customersBySystem.get(systemId) ?? [];
      list.push(customerRows[i]!);
      customersBySystem.set(systemId, list);
    }
  });
  log(`demo: ${systemRows.length} systems, ${staff.length + customerRows.length} users`);

  // Incidents and comments, in batches
  const start = now.getTime() - days * DAY;
  const span = now.getTime() - start;
  const systemWeights = systemRows.map((s, i) => [s, i === 0 ? 3 : i < 5 ? 2 : 1] as const);
  const systemLang = new Map(systemRows.map((s, i) => [s.id, systemSpecs[i]!.lang]));
  let commentCount = 0;
  const BATCH = 500;
  const links: (typeof incidentLinks.$inferInsert)[] = [];
  const lastOfSystem = new Map<number, string>();
  const planned: { id: string; at: Date }[] = [];
  // A large load is much faster into unindexed tables; the indexes are rebuilt once at the end.
  const bulk = options.incidents >= (options.bulkThreshold ?? BULK_THRESHOLD);
  const dropped = bulk ? await dropSecondaryIndexes(db, ['incidents', 'comments']) : [];
  if (dropped.length) log(`demo: bulk load, ${dropped.length} indexes set aside`);
  // per-row count upkeep would dominate the load: the counts are rebuilt once at the end instead
  await switchTriggers(db, [INCIDENT_COUNTS_TRIGGER, INCIDENT_DAILY_TRIGGER], false);
  // live events are for changes after the load, not for the history it writes
  await switchTriggers(db, [INCIDENT_EVENTS_INSERT_TRIGGER, COMMENT_EVENTS_INSERT_TRIGGER], false);
  for (let offset = 0; offset < options.incidents; offset += BATCH) {
    const incidentBatch: (typeof incidents.$inferInsert)[] = [];
    const commentBatch: (typeof comments.$inferInsert)[] = [];
    for (let i = offset; i < Math.min(options.incidents, offset + BATCH); i++) {
      const created = new Date(start + ((i + rng.next()) * span) / options.incidents);
      const ageDays = (now.getTime() - created.getTime()) / DAY;
      const system = rng.weighted(systemWeights);
      const lang = systemLang.get(system.id)!;
      const service = rng.pick(serviceBySystem.get(system.id)!);
      const typeCode = rng.weighted([
        ['incident', 85],
        ['remediation', 10],
        ['information', 5],
      ] as const);
      const category = rng.pick(categoriesOf(typeCode));
      const secondary =
        typeCode === 'incident' && rng.chance(0.2) ? [rng.pick(categoriesOf('incident')).id] : [];
      const priority = rng.weighted<Priority>([
        ['critical', 5],
        ['high', 20],
        ['medium', 45],
        ['low', 30],
      ]);
      const status = statusFor(ageDays, rng);
      const customers = customersBySystem.get(system.id) ?? [];
      const someone = customers.length ? rng.pick(customers) : undefined;
      const template = rng.pick(SUMMARIES[category.code] ?? SUMMARIES.malware!);
      const summary = fill(
        lang === 'ru' ? template[1] : template[0],
        rng,
        someone ? someone.username : 'svc_backup',
      );
      const rule = service.sla.get(priority)!;
      const sla = slaDeadline(created, rule.hours, rule.calendar);
      const notifiedAt = new Date(
        created.getTime() +
          (rng.chance(0.08) ? rule.hours * HOUR * (1.2 + rng.next()) : rng.next() * rule.hours * 0.8 * HOUR),
      );
      const notified = notifiedAt.getTime() <= now.getTime() ? notifiedAt : null;
      const closedLike =
        status === 'closed' ||
        status === 'completed' ||
        status === 'canceled' ||
        status === 'customer_completed';
      const resolutionDate = closedLike
        ? new Date(Math.min(now.getTime(), created.getTime() + rng.int(2, 240) * HOUR))
        : null;
      const techniques = typeCode === 'incident' ? rng.sample(TECHNIQUES, rng.int(1, 3)) : [];
      const mitreCov: Record<string, string[]> = {};
      for (const [technique, tactic] of techniques) (mitreCov[tactic] ??= []).push(technique);
      const host = rng.pick(HOSTS);
      const resolution =
        status === 'closed'
          ? rng.weighted<'TP' | 'FP'>([
              ['TP', 7],
              ['FP', 3],
            ])
          : null;
      const id = uuidFrom(rng);
      const analyst = rng.pick(analysts);
      // a few recent critical incidents wait for their automatic report to the national centre
      const planAt =
        !bulk &&
        priority === 'critical' &&
        typeCode === 'incident' &&
        ageDays < 3 &&
        !closedLike &&
        pageRng.chance(0.5)
          ? new Date(now.getTime() + pageRng.int(20, 600) * 60_000)
          : null;
      // never planned in the past of the real clock: such a job would run at once (e.g. in tests with a fixed `now`)
      const plannedSend = planAt && planAt.getTime() > Date.now() ? planAt : null;
      if (plannedSend) planned.push({ id, at: plannedSend });
      // related incidents: an earlier incident of the same system, now and then
      const previous = lastOfSystem.get(system.id);
      if (!bulk && previous && pageRng.chance(0.15)) links.push({ incidentId: id, relatedId: previous });
      lastOfSystem.set(system.id, id);
      incidentBatch.push({
        id,
        key: 10_000 + i,
        systemId: system.id,
        serviceId: service.id,
        issueTypeId: typeId(typeCode),
        categoryId: category.id,
        secondaryCategoryIds: secondary,
        summary,
        description:
          lang === 'ru'
            ? `## Что произошло\n\n${summary}.\n\n- Узел: \`${host}\`\n- Первое событие: ${created.toISOString()}\n\n## Что сделать\n\nПроверьте легитимность активности и сообщите результат в комментариях.`
            : `## What happened\n\n${summary}.\n\n- Host: \`${host}\`\n- First event: ${created.toISOString()}\n\n## What to do\n\nCheck whether the activity is legitimate and report back in the comments.`,
        status,
        priority,
        tags: rng.sample(TAGS, rng.int(0, 3)),
        reporterName: `${analyst.firstName} ${analyst.lastName}`,
        reporterId: analyst.id,
        recommendations:
          lang === 'ru'
            ? 'Изолируйте узел, смените пароли затронутых учётных записей.'
            : 'Isolate the host and reset the passwords of the affected accounts.',
        affectedSystems: [host],
        notifiedAt: notified,
        sla,
        slaBreached: (notified ?? now).getTime() > sla.getTime(),
        customerAssigneeId: someone && rng.chance(0.4) ? someone.id : null,
        customerStarRating: closedLike && rng.chance(0.3) ? rng.int(3, 5) : null,
        customerStarRatingComment: null,
        resolution,
        resolutionId: resolution ? resolutionOf(typeCode, resolution) : null,
        resolutionDate,
        gossopkaId:
          priority === 'critical' && typeCode === 'incident' && rng.chance(0.5)
            ? `GSP-${created.getUTCFullYear()}-${String(i).padStart(6, '0')}`
            : null,
        gossopkaSendTime: null,
        mitreCov,
        tactics: Object.keys(mitreCov),
        techniques: techniques.map(([technique]) => technique),
        detectionRules: typeCode === 'incident' ? rng.sample(DETECTION_RULES, rng.int(1, 2)) : [],
        activityDetectedAt: new Date(created.getTime() - pageRng.int(5, 240) * 60_000),
        observedIocs: !bulk && typeCode === 'incident' ? demoIocs(pageRng, host, someone?.username) : [],
        gossopkaPlannedTime: plannedSend,
        created,
        updated:
          resolutionDate ?? new Date(Math.min(now.getTime(), created.getTime() + rng.int(1, 48) * HOUR)),
      });
      const n = rng.weighted([
        [0, 2],
        [1, 3],
        [2, 3],
        [3, 1],
        [4, 1],
      ] as const);
      let at = created.getTime();
      for (let c = 0; c < n; c++) {
        at = Math.min(now.getTime(), at + rng.int(10, 600) * 60_000);
        const fromSoc = c % 2 === 0 || !someone;
        const text = rng.pick(fromSoc ? SOC_COMMENTS : CUSTOMER_COMMENTS);
        const author = fromSoc ? rng.pick(analysts) : someone;
        commentBatch.push({
          incidentId: id,
          authorId: author.id,
          authorName: `${author.firstName} ${author.lastName}`,
          body: `<p>${lang === 'ru' ? text[1] : text[0]}</p>`,
          source: fromSoc || rng.chance(0.8) ? 'API' : 'Email by authorized user',
          fromSoc,
          created: new Date(at),
        });
      }
    }
    await db.insert(incidents).values(incidentBatch);
    if (commentBatch.length) await db.insert(comments).values(commentBatch);
    if (links.length) await db.insert(incidentLinks).values(links.splice(0));
    commentCount += commentBatch.length;
    if ((offset / BATCH) % 20 === 19) log(`demo: ${offset + incidentBatch.length} incidents`);
  }
  for (const [i, definition] of dropped.entries()) {
    await db.execute(sql.raw(definition));
    if (i % 5 === 4) log(`demo: ${i + 1} of ${dropped.length} indexes rebuilt`);
  }
  if (bulk) {
    // index-only scans (list counts) need the visibility map that a fresh bulk load lacks
    for (const table of ['incidents', 'comments']) {
      await db.execute(sql.raw(`VACUUM (ANALYZE) ${table}`));
    }
  }
  await db.execute(sql.raw(`SELECT ${INCIDENT_COUNTS_REBUILD}(), ${INCIDENT_DAILY_REBUILD}()`));
  await switchTriggers(
    db,
    [
      INCIDENT_COUNTS_TRIGGER,
      INCIDENT_DAILY_TRIGGER,
      INCIDENT_EVENTS_INSERT_TRIGGER,
      COMMENT_EVENTS_INSERT_TRIGGER,
    ],
    true,
  );
  // planned reports run as jobs at their time (see the national-centre send of the incident page)
  if (planned.length) {
    await db.insert(jobs).values(
      planned.map((p) => ({
        type: GOSSOPKA_JOB,
        payload: { incidentId: p.id, plannedFor: p.at.getTime() },
        runAt: p.at,
        maxAttempts: GOSSOPKA_MAX_ATTEMPTS,
      })),
    );
  }
  // Keys were given explicitly; new incidents continue after the last one.
  await db.execute(
    sql`SELECT setval(pg_get_serial_sequence('incidents', 'key'), GREATEST((SELECT max(key) FROM incidents), 10000))`,
  );
  log(`demo: ${options.incidents} incidents, ${commentCount} comments`);
  // documents draw from their own stream, so the data above stays as it was
  const documentCount = await generateDemoDocuments(db, {
    rng: new Rng((options.seed ?? 20261122) ^ 0xd0c5),
    now,
    storage: options.storage,
  });
  log(`demo: ${documentCount} documents`);
  // the inventory draws from its own stream too
  // the EPS hours (eps_hourly) are summed once after the load instead of per statement
  await switchTriggers(db, [EPS_HOURLY_INSERT_TRIGGER], false);
  const inventory = await generateDemoInventory(db, {
    rng: new Rng((options.seed ?? 20261122) ^ 0xc3db),
    now,
    days,
  });
  await db.execute(sql.raw(`SELECT ${EPS_HOURLY_REBUILD}()`));
  await switchTriggers(db, [EPS_HOURLY_INSERT_TRIGGER], true);
  log(
    `demo: ${inventory.assets} assets, ${inventory.snapshots} snapshots, ${inventory.logSources} log sources`,
  );
  // detection rules draw from their own stream too
  log(
    `demo: ${await generateDemoRules(db, { rng: new Rng((options.seed ?? 20261122) ^ 0x4a1e), now })} rules`,
  );
  const demoReports = await generateDemoReports(db, {
    rng: new Rng((options.seed ?? 20261122) ^ 0x4e70),
    now,
    storage: options.storage,
  });
  log(`demo: ${demoReports.reports} reports, ${demoReports.schedules} report schedules`);
  // service requests draw from their own stream too
  log(
    `demo: ${await generateDemoTasks(db, { rng: new Rng((options.seed ?? 20261122) ^ 0x7a5c), now })} tasks`,
  );
  // alerts are derived from the incident keys in SQL (no RNG draws: the data above stays as it was)
  log(`demo: ${(await generateDemoAlerts(db, options.incidents, { log })).alerts} alerts`);
  // the load's own updates (links, alerts, planned sends) are history too: nobody is told of them
  await db.execute(sql`TRUNCATE events`);

  return {
    systems: systemRows.length,
    users: staff.length + customerRows.length,
    incidents: options.incidents,
    comments: commentCount,
    logins: [
      { username: 'alice', description: named[0]!.description },
      { username: 'bob', description: named[1]!.description },
      { username: 'carol', description: named[2]!.description },
      { username: 'dave', description: named[3]!.description },
      { username: 'analyst', description: 'SOC analyst (all systems)' },
      { username: 'admin', description: 'administrator' },
    ],
  };
}
