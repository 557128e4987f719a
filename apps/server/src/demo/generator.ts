import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { queryRows } from '../db/client.ts';
import { EPS_HOURLY_INSERT_TRIGGER, EPS_HOURLY_REBUILD } from '../db/derived/index.ts';
import { hashPassword } from '../lib/passwords.ts';
import type { FileStorage } from '../integrations/storage/file-storage.ts';
import { generateDemoAlerts } from './alerts.ts';
import { switchTriggers } from './bulk-load.ts';
import { generateDemoDocuments } from './documents.ts';
import { generateDemoIncidents } from './incidents.ts';
import { generateDemoInventory } from './inventory.ts';
import { insertCustomers, insertReferenceData, insertStaff, insertSystems } from './organisation.ts';
import type { DemoSigmaSource } from './rules.ts';
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
  /** Sigma rules for the rule catalogue instead of generated ones (`npm run demo -- --sigma DIR`). */
  sigma?: DemoSigmaSource;
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

// the demo's accounts are the auth module's to know: its SMS outbox answers only while they exist
export { DEMO_USERNAMES, createDemoAccountsRepository } from '../modules/auth/index.ts';

/** True when the database holds no users yet (a fresh installation). */
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
    TRUNCATE events, notification_preferences, task_attachments, task_messages, tasks, misconfiguration_incidents, asset_software, alert_tags, incident_alert_counts, system_alert_counts, alerts, tags, response_teams, link_templates, misconfigurations, reports, report_schedules, rules, incident_daily, incident_search, eps_hourly, log_source_event_buckets, log_sources, incident_snapshots, cmdb_assets, document_attachments, document_comments, document_versions, documents, jobs, audit_log, login_throttle, refresh_tokens, attachments, comments, incidents, resolutions, categories, issue_types,
             contacts, sla_rows, services, contracts, user_systems, systems, users
    RESTART IDENTITY CASCADE`);
}

/**
 * Fills an empty database with a realistic, deterministic data set: the same seed and `now`
 * give the same rows. Incidents are written in batches so memory stays flat at any size.
 */
export async function generateDemoData(db: Db, options: DemoOptions): Promise<DemoSummary> {
  const rng = new Rng(options.seed ?? 20261122);
  const log = options.log ?? (() => undefined);
  const now = options.now ?? new Date();
  const days = options.days ?? 180;
  const passwordHash = await hashPassword(DEMO_PASSWORD);

  // the organisation (organisation.ts), then the incidents (incidents.ts), from one generator
  const reference = await insertReferenceData(db);
  const staff = await insertStaff(db, passwordHash);
  const { systemSpecs, systemRows, serviceBySystem } = await insertSystems(db, rng, {
    systemCount: Math.max(5, options.systems ?? 5),
    now,
    staff,
  });
  const { named, customerRows, customersBySystem } = await insertCustomers(db, rng, {
    userCount: Math.max(20, options.users ?? 20),
    staffCount: staff.staff.length,
    passwordHash,
    systemRows,
  });
  log(`demo: ${systemRows.length} systems, ${staff.staff.length + customerRows.length} users`);

  const commentCount = await generateDemoIncidents(db, {
    rng,
    // the incident page's extra fields draw from their own stream, so the main data stays as it was
    pageRng: new Rng((options.seed ?? 20261122) ^ 0x5eed),
    now,
    days,
    count: options.incidents,
    bulkThreshold: options.bulkThreshold,
    log,
    reference,
    systemRows,
    systemSpecs,
    serviceBySystem,
    analysts: staff.analysts,
    customersBySystem,
  });
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
    `demo: ${await generateDemoRules(db, {
      rng: new Rng((options.seed ?? 20261122) ^ 0x4a1e),
      now,
      ...(options.sigma ? { sigma: options.sigma } : {}),
    })} rules${options.sigma ? ` (Sigma rules of ${options.sigma.folder})` : ''}`,
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
    users: staff.staff.length + customerRows.length,
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
