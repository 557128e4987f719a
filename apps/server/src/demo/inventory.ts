import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { queryRows } from '../db/client.ts';
import { cmdbAssets, logSources, systems } from '../db/schema/index.ts';
import type { ASSET_CRITICALITIES, ASSET_TYPES } from '../db/schema/index.ts';
import { HOSTS } from './catalog.ts';
import type { Rng } from './rng.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Hours of event counts the demo keeps per log source. */
const BUCKET_DAYS = 60;

type AssetType = (typeof ASSET_TYPES)[number];
type Criticality = (typeof ASSET_CRITICALITIES)[number];

/** What the well-known demo hosts (the ones incidents name) are. */
const HOST_PROFILES: Record<string, { type: AssetType; os: string; criticality: Criticality }> = {
  dc01: { type: 'server', os: 'Windows Server 2019', criticality: 'critical' },
  dc02: { type: 'server', os: 'Windows Server 2019', criticality: 'critical' },
  'web-01': { type: 'server', os: 'Ubuntu 22.04 LTS', criticality: 'high' },
  'web-02': { type: 'server', os: 'Ubuntu 22.04 LTS', criticality: 'high' },
  mail: { type: 'server', os: 'Windows Server 2016', criticality: 'high' },
  'vpn-gw': { type: 'network', os: 'Cisco ASA 9.16', criticality: 'critical' },
  fs01: { type: 'server', os: 'Windows Server 2022', criticality: 'medium' },
  'sql-prod': { type: 'server', os: 'Red Hat Enterprise Linux 8', criticality: 'critical' },
  'ws-0142': { type: 'workstation', os: 'Windows 10 Pro 22H2', criticality: 'low' },
  'ws-0219': { type: 'workstation', os: 'Windows 11 Pro 23H2', criticality: 'low' },
  'ws-0377': { type: 'workstation', os: 'Windows 11 Pro 23H2', criticality: 'medium' },
  'k8s-node-3': { type: 'virtual', os: 'Ubuntu 20.04 LTS', criticality: 'high' },
  'erp-app': { type: 'server', os: 'Astra Linux SE 1.7', criticality: 'critical' },
  'jump-01': { type: 'server', os: 'Windows Server 2022', criticality: 'high' },
};

const WORKSTATION_OS = [
  'Windows 10 Pro 22H2',
  'Windows 11 Pro 23H2',
  'Windows 11 Enterprise 23H2',
  'macOS 14',
];
const EXTRA_ASSETS: { prefix: string; type: AssetType; os: readonly string[] }[] = [
  { prefix: 'ws', type: 'workstation', os: WORKSTATION_OS },
  { prefix: 'nb', type: 'mobile', os: WORKSTATION_OS },
  { prefix: 'srv', type: 'server', os: ['Windows Server 2019', 'Ubuntu 22.04 LTS', 'Astra Linux SE 1.7'] },
  { prefix: 'sw', type: 'network', os: ['Cisco IOS 15.2', 'Huawei VRP 8'] },
  { prefix: 'vm', type: 'virtual', os: ['Ubuntu 22.04 LTS', 'Debian 12'] },
  { prefix: 'prn', type: 'other', os: [''] },
];
const OWNERS = ['IT', 'Бухгалтерия', 'Finance', 'HR', 'DevOps', 'Security'];
const LOCATIONS = ['Москва, ЦОД-1', 'Москва, офис', 'Санкт-Петербург', 'Новосибирск', 'Cloud'];

/** Log sources every demo system has: [type, name, host, typical events per second]. */
const SOURCE_TEMPLATES: readonly (readonly [string, string, string, number])[] = [
  ['windows', 'Windows Security Log', 'dc01', 180],
  ['windows', 'Windows Security Log', 'dc02', 140],
  ['windows', 'Sysmon', 'fs01', 60],
  ['linux', 'auditd', 'web-01', 45],
  ['linux', 'syslog', 'sql-prod', 30],
  ['firewall', 'Perimeter firewall', 'vpn-gw', 420],
  ['proxy', 'Web proxy', 'proxy-01', 260],
  ['edr', 'EDR telemetry', 'edr-console', 350],
  ['mail', 'Mail gateway', 'mail', 25],
  ['dns', 'DNS server', 'dc01', 310],
];

function ipFor(systemIndex: number, n: number): string {
  return `10.${10 + systemIndex}.${Math.floor(n / 250)}.${(n % 250) + 2}`;
}

export interface InventoryOptions {
  rng: Rng;
  now: Date;
  days: number;
}

/**
 * Assets (the hosts incidents name, plus generated ones) per system, snapshots of those assets
 * for every incident, and log sources with hourly event counts. Snapshots are derived from the
 * incidents in SQL so that any number of incidents costs one statement.
 */
export async function generateDemoInventory(
  db: Db,
  { rng, now, days }: InventoryOptions,
): Promise<{ assets: number; snapshots: number; logSources: number; software: number }> {
  const systemRows = await db
    .select({ id: systems.id, isId: systems.isId })
    .from(systems)
    .orderBy(systems.id);
  const periodStart = now.getTime() - days * DAY;

  const assetRows: (typeof cmdbAssets.$inferInsert)[] = [];
  for (const [s, system] of systemRows.entries()) {
    const domain = `${system.isId.toLowerCase()}.corp.local`;
    const add = (name: string, type: AssetType, os: string, criticality: Criticality) => {
      const n = assetRows.filter((a) => a.systemId === system.id).length;
      const firstSeen = periodStart - rng.int(1, 400) * DAY;
      // most assets reported within the last day; a few have gone quiet
      const lastSeen = rng.chance(0.85)
        ? now.getTime() - rng.int(1, 1440) * 60_000
        : now.getTime() - rng.int(2, 60) * DAY;
      assetRows.push({
        cmdbId: `${system.isId}-${String(n + 1).padStart(5, '0')}`,
        systemId: system.id,
        name,
        assetType: type,
        os,
        ipAddress: ipFor(s, n),
        fqdn: `${name}.${domain}`,
        macAddress: Array.from({ length: 6 }, () => rng.int(0, 255).toString(16).padStart(2, '0')).join(':'),
        criticality,
        owner: rng.pick(OWNERS),
        location: rng.pick(LOCATIONS),
        firstSeenAt: new Date(firstSeen),
        lastSeenAt: new Date(lastSeen),
      });
    };
    for (const host of HOSTS) {
      const profile = HOST_PROFILES[host] ?? {
        type: 'other' as const,
        os: '',
        criticality: 'medium' as const,
      };
      add(host, profile.type, profile.os, profile.criticality);
    }
    const extra = rng.int(20, 40);
    for (let k = 0; k < extra; k++) {
      const kind = rng.pick(EXTRA_ASSETS);
      add(
        `${kind.prefix}-${String(rng.int(100, 9999)).padStart(4, '0')}`,
        kind.type,
        rng.pick(kind.os),
        rng.weighted([
          ['low', 4],
          ['medium', 3],
          ['high', 2],
          ['critical', 1],
        ] as const),
      );
    }
  }
  for (let i = 0; i < assetRows.length; i += 500)
    await db.insert(cmdbAssets).values(assetRows.slice(i, i + 500));

  // Each incident involves the asset it names and, for some, one or two more of its system.
  await db.execute(sql`
    WITH numbered AS (
      SELECT a.*, row_number() OVER (PARTITION BY a.system_id ORDER BY a.id) - 1 AS rn,
             count(*) OVER (PARTITION BY a.system_id) AS n
      FROM cmdb_assets a
    ),
    picks AS (
      SELECT i.id AS incident_id, i.created, a.id AS asset_id
      FROM incidents i
      JOIN cmdb_assets a ON a.system_id = i.system_id AND a.name = i.affected_systems[1]
      UNION ALL
      SELECT i.id, i.created, x.id
      FROM incidents i
      CROSS JOIN LATERAL generate_series(1, (i.key % 3)::int) g
      JOIN numbered x ON x.system_id = i.system_id AND x.rn = (i.key * 7919 + g * 104729) % x.n
    )
    INSERT INTO incident_snapshots (incident_id, cmdb_id, system_id, name, asset_type, os, ip_address, fqdn, criticality, created_at)
    SELECT p.incident_id, a.cmdb_id, a.system_id, a.name, a.asset_type, a.os, a.ip_address, a.fqdn, a.criticality, p.created
    FROM picks p JOIN cmdb_assets a ON a.id = p.asset_id
    ON CONFLICT (incident_id, cmdb_id) DO NOTHING`);

  const sourceRows: (typeof logSources.$inferInsert)[] = [];
  const rates: number[] = [];
  for (const system of systemRows) {
    for (const [type, name, host, eps] of SOURCE_TEMPLATES) {
      const roll = rng.next();
      // about one source in twelve is disabled, one in ten has gone silent
      const enabled = roll >= 0.08;
      const silent = roll >= 0.08 && roll < 0.18;
      sourceRows.push({
        systemId: system.id,
        name: `${name} (${host})`,
        sourceType: type,
        host,
        enabled,
        silenceThresholdMinutes: type === 'mail' ? 240 : 60,
        lastEventAt: !enabled
          ? new Date(now.getTime() - rng.int(3, 30) * DAY)
          : silent
            ? new Date(now.getTime() - rng.int(3, 48) * HOUR)
            : new Date(now.getTime() - rng.int(1, 300) * 1000),
        createdAt: new Date(periodStart),
      });
      rates.push(eps * (0.6 + rng.next() * 0.8));
    }
  }
  const inserted: { id: number; systemId: number; lastEventAt: Date | null }[] = [];
  for (let i = 0; i < sourceRows.length; i += 500) {
    inserted.push(
      ...(await db
        .insert(logSources)
        .values(sourceRows.slice(i, i + 500))
        .returning({
          id: logSources.id,
          systemId: logSources.systemId,
          lastEventAt: logSources.lastEventAt,
        })),
    );
  }

  // Hourly counts up to each source's last event: a daily rhythm, quieter weekends, and
  // now and then a burst (which is what makes the dashboard's EPS excess visible).
  const lastHour = Math.floor(now.getTime() / HOUR) * HOUR;
  for (const [k, source] of inserted.entries()) {
    const base = rates[k]!;
    const seed = rng.int(1, 1_000_000);
    const until = Math.min(lastHour, Math.floor((source.lastEventAt?.getTime() ?? 0) / HOUR) * HOUR);
    const from = lastHour - BUCKET_DAYS * DAY;
    if (until < from) continue;
    await db.execute(sql`
      INSERT INTO log_source_event_buckets (log_source_id, system_id, bucket_start, events)
      SELECT ${source.id}::int, ${source.systemId}::int, h,
             greatest(0, round(${base}::float8 * 3600
               * (0.55 + 0.45 * sin(2 * pi() * (extract(hour FROM h) - 6) / 24))
               * CASE WHEN extract(isodow FROM h) >= 6 THEN 0.6 ELSE 1 END
               * CASE WHEN (extract(epoch FROM h)::bigint / 3600 * 2654435761 + ${seed}::bigint) % 97 = 0 THEN 3.5 ELSE 1 END
               * (0.9 + ((extract(epoch FROM h)::bigint / 3600 + ${seed}::bigint) % 21) / 100.0)))::bigint
      FROM generate_series(${new Date(from).toISOString()}::timestamptz, ${new Date(until).toISOString()}::timestamptz, interval '1 hour') h`);
  }

  const [counts] = await queryRows<{ snapshots: number }>(
    db,
    sql`SELECT count(*)::int AS snapshots FROM incident_snapshots`,
  );
  const software = await generateDemoSoftware(db);
  return {
    assets: assetRows.length,
    snapshots: counts?.snapshots ?? 0,
    logSources: inserted.length,
    software,
  };
}

/** Products of the demo software inventory: [name, vendor, version, platform]. */
const SOFTWARE_CATALOG: readonly (readonly [string, string, string, 'win' | 'linux' | 'any'])[] = [
  ['Google Chrome', 'Google LLC', '131.0.6778.86', 'win'],
  ['Mozilla Firefox', 'Mozilla', '133.0', 'any'],
  ['Microsoft Edge', 'Microsoft Corporation', '131.0.2903.70', 'win'],
  ['Microsoft Office LTSC профессиональный плюс 2021', 'Microsoft Corporation', '16.0.14332.20706', 'win'],
  ['Microsoft Teams', 'Microsoft Corporation', '24295.605.3225.8804', 'win'],
  ['Microsoft Visual C++ 2015-2022 Redistributable (x64)', 'Microsoft Corporation', '14.40.33810', 'win'],
  ['Microsoft Visual C++ 2013 Redistributable (x86)', 'Microsoft Corporation', '12.0.40664', 'win'],
  ['Microsoft .NET Runtime 8.0', 'Microsoft Corporation', '8.0.11', 'win'],
  ['Microsoft Defender for Endpoint', 'Microsoft Corporation', '4.18.24090', 'win'],
  ['7-Zip 23.01 (x64)', 'Igor Pavlov', '23.01', 'win'],
  ['Notepad++ (64-bit x64)', 'Notepad++ Team', '8.6.9', 'win'],
  ['Adobe Acrobat Reader', 'Adobe', '24.004.20220', 'win'],
  ['Zoom Workplace', 'Zoom Video Communications', '6.2.11', 'win'],
  ['КриптоПро CSP', 'КРИПТО-ПРО', '5.0.12998', 'win'],
  ['Kaspersky Endpoint Security для Windows', 'АО Лаборатория Касперского', '12.6.0.438', 'win'],
  ['Агент администрирования Kaspersky Security Center', 'АО Лаборатория Касперского', '15.1.0.20748', 'win'],
  ['1С:Предприятие 8.3', 'ООО 1С-Софт', '8.3.24.1548', 'win'],
  ['Яндекс Браузер', 'ООО Яндекс', '24.10.4.815', 'win'],
  ['PuTTY release 0.81 (64-bit)', 'Simon Tatham', '0.81', 'win'],
  ['WinSCP', 'Martin Prikryl', '6.3.5', 'win'],
  ['Git', 'The Git Development Community', '2.47.0', 'any'],
  ['Python 3.12.7 (64-bit)', 'Python Software Foundation', '3.12.7150.0', 'any'],
  ['Java 8 Update 431', 'Oracle Corporation', '8.0.4310.10', 'win'],
  ['VMware Tools', 'VMware, Inc.', '12.4.5.23787635', 'any'],
  ['Sysmon', 'Sysinternals', '15.15', 'win'],
  ['Microsoft SQL Server 2019 (64-bit)', 'Microsoft Corporation', '15.0.4395.2', 'win'],
  ['Microsoft Exchange Server 2016 CU23', 'Microsoft Corporation', '15.1.2507.39', 'win'],
  ['Veeam Backup & Replication', 'Veeam Software Group GmbH', '12.2.0.334', 'win'],
  ['Zabbix Agent 2', 'Zabbix SIA', '7.0.5', 'any'],
  ['OpenSSH', 'OpenBSD Foundation', '9.6p1', 'linux'],
  ['openssl', 'OpenSSL Project', '3.0.13', 'linux'],
  ['nginx', 'F5, Inc.', '1.24.0', 'linux'],
  ['apache2', 'Apache Software Foundation', '2.4.58', 'linux'],
  ['postgresql-15', 'PostgreSQL Global Development Group', '15.8', 'linux'],
  ['docker-ce', 'Docker, Inc.', '27.3.1', 'linux'],
  ['containerd.io', 'Docker, Inc.', '1.7.22', 'linux'],
  ['kubelet', 'The Kubernetes Authors', '1.30.5', 'linux'],
  ['auditd', 'Red Hat', '3.1.2', 'linux'],
  ['rsyslog', 'Adiscon GmbH', '8.2312.0', 'linux'],
  ['sudo', 'Todd C. Miller', '1.9.15p5', 'linux'],
  ['bash', 'Free Software Foundation', '5.2.21', 'linux'],
  ['systemd', 'systemd project', '255.4', 'linux'],
  ['curl', 'Daniel Stenberg', '8.5.0', 'linux'],
  ['python3', 'Python Software Foundation', '3.12.3', 'linux'],
  ['openjdk-17-jre-headless', 'Eclipse Adoptium', '17.0.13', 'linux'],
  ['Kaspersky Endpoint Security для Linux', 'АО Лаборатория Касперского', '12.1.0.1297', 'linux'],
  ['elastic-agent', 'Elastic N.V.', '8.15.3', 'any'],
  ['node_exporter', 'Prometheus Authors', '1.8.2', 'linux'],
];

/**
 * Installed software of every demo asset: a deterministic mix of the catalog for the asset's
 * platform (by asset id, no RNG draw, so the rest of the inventory stays as it was), plus
 * Windows updates on Windows servers so that some assets pass the 99+ badge.
 */
export async function generateDemoSoftware(db: Db): Promise<number> {
  const catalog = sql.join(
    SOFTWARE_CATALOG.map(
      ([name, vendor, version, platform], i) => sql`(${i}::int, ${name}, ${vendor}, ${version}, ${platform})`,
    ),
    sql`, `,
  );
  await db.execute(sql`
    WITH catalog(n, name, vendor, version, platform) AS (VALUES ${catalog}),
    assets AS (
      SELECT a.id, a.asset_type, a.first_seen_at,
             CASE WHEN a.os ILIKE 'windows%' THEN 'win' WHEN a.os = '' OR a.os ILIKE 'cisco%' OR a.os ILIKE 'huawei%' THEN 'none' ELSE 'linux' END AS platform
      FROM cmdb_assets a
    )
    INSERT INTO asset_software (asset_id, name, vendor, version, install_time)
    SELECT a.id, c.name, c.vendor, c.version,
           a.first_seen_at + ((a.id * 37 + c.n * 11) % 300) * interval '1 day' + ((a.id + c.n) % 86400) * interval '1 second'
    FROM assets a JOIN catalog c ON (c.platform = a.platform OR (c.platform = 'any' AND a.platform <> 'none'))
    -- leave out about a third of the catalog, differently per asset
    WHERE (a.id * 7 + c.n * 13) % 3 <> 0
    UNION ALL
    SELECT a.id, 'Обновление безопасности для Microsoft Windows (KB' || (5000000 + a.id * 101 + g * 977) || ')',
           'Microsoft Corporation', '', a.first_seen_at + g * interval '7 days'
    FROM assets a CROSS JOIN LATERAL generate_series(1, CASE WHEN a.platform = 'win' AND a.asset_type = 'server' THEN 60 + a.id % 60 WHEN a.platform = 'win' THEN a.id % 12 ELSE 0 END) g`);
  const [row] = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM asset_software`);
  return row?.n ?? 0;
}
