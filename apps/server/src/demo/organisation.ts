import type { Db } from '../db/client.ts';
import {
  categories,
  contacts,
  contracts,
  issueTypes,
  resolutions,
  services,
  slaRows,
  systems,
  userSystems,
  users,
} from '../db/schema/index.ts';
import {
  INCIDENT_CATEGORIES,
  INFORMATION_CATEGORIES,
  ISSUE_TYPES,
  REMEDIATION_CATEGORIES,
  RESOLUTIONS,
  SERVICE_NAMES,
} from './catalog.ts';
import type { Rng } from './rng.ts';

// The demo's organisation: reference data, staff, systems with contracts, services (SLA) and
// contacts, and customers. generateDemoData calls these in order; their draws from the shared
// generator are part of what a seed reproduces.

export type Priority = 'critical' | 'high' | 'medium' | 'low';
export type Lang = 'ru' | 'en';

export const DAY = 86_400_000;

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

/** Issue types with their categories and resolutions, from the catalog. */
export async function insertReferenceData(db: Db) {
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
  return { typeId, categoriesOf, resolutionOf };
}

export type DemoReference = Awaited<ReturnType<typeof insertReferenceData>>;
/** A staff or customer account as the incidents name it. */
export type DemoPerson = { id: number; username: string; firstName: string; lastName: string };

/** The SOC's accounts: an administrator, two analysts and a service manager. */
export async function insertStaff(db: Db, passwordHash: string) {
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
  return { staff, analysts, manager };
}

export type DemoStaff = Awaited<ReturnType<typeof insertStaff>>;
export type DemoService = { id: number; sla: Map<Priority, { hours: number; calendar: boolean }> };

/** The protected systems, each with a contract, one or two services with SLA rows, and two contacts. */
export async function insertSystems(
  db: Db,
  rng: Rng,
  { systemCount, now, staff: { analysts, manager } }: { systemCount: number; now: Date; staff: DemoStaff },
) {
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
  const serviceBySystem = new Map<number, DemoService[]>();
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
    const list: DemoService[] = [];
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
  return { systemSpecs, systemRows, serviceBySystem };
}

/** Customers: the named demo accounts first, then generated ones spread over the systems. */
export async function insertCustomers(
  db: Db,
  rng: Rng,
  {
    userCount,
    staffCount,
    passwordHash,
    systemRows,
  }: {
    userCount: number;
    staffCount: number;
    passwordHash: string;
    systemRows: { id: number; isId: string }[];
  },
) {
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
  const generatedCount = userCount - staffCount - named.length;
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
  const customerRows: DemoPerson[] = [];
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
  const customersBySystem = new Map<number, DemoPerson[]>();
  customerSpecs.forEach((c, i) => {
    for (const systemId of c.systems) {
      const list = customersBySystem.get(systemId) ?? [];
      list.push(customerRows[i]!);
      customersBySystem.set(systemId, list);
    }
  });
  return { named, customerRows, customersBySystem };
}
