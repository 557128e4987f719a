import { sql } from 'drizzle-orm';
import type { Logger } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncidentCard, IncidentFilters } from '@soc/contracts';
import {
  AlertListQuerySchema,
  CommentsQuerySchema,
  IncidentAlertsQuerySchema,
  RuleListQuerySchema,
} from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/client.ts';
import * as schema from '../../db/schema/index.ts';
import { EMPTY_ATTACK } from '../../integrations/attack/attack.ts';
import { LocalFileStorage } from '../../integrations/storage/local-storage.ts';
import { createAlertsService } from '../../modules/alerts/index.ts';
import {
  countCacheKey,
  countKey,
  createCommentsService,
  createIncidentCardService,
  createIncidentsRepository,
  createIncidentsService,
} from '../../modules/incidents/index.ts';
import { createRulesService } from '../../modules/rules/index.ts';
import type { AuthContext } from '../../core/auth.ts';
import type { TestContext } from '../../test/harness.ts';
import { createTestContext } from '../../test/harness.ts';
import {
  buildAlert,
  buildAnalyst,
  buildComment,
  buildCustomer,
  buildIncident,
  buildService,
  buildSystem,
} from '../../test/builders.ts';
import type { CachedAnswer, TableChange } from './cached-answer.ts';
import { SHOWN_THROUGH_REFERENCES, TABLE_CHANGES, TRIGGER_KEPT_TABLES } from './cached-answer.ts';
import { readsEvent } from './caches.ts';
import type { Caches } from '../../test/caches.ts';
import { CACHED_ANSWERS, createCaches } from '../../test/caches.ts';

/** A statement as the driver was given it. */
interface Sent {
  text: string;
  params: unknown[];
}

let ctx: TestContext;
/** The database of the test, through a connection that records every statement sent. */
let recorded: Db;
let sent: Sent[] = [];
/** Runs raw text with positional parameters (EXPLAIN of a recorded statement). */
let runRaw: (text: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

let customer: AuthContext;
let analyst: AuthContext;
/** An incident of the customer's system that has comments and alerts, and its system. */
let sample: { key: number; system_id: number; search: string; service: string; rule_id: number };

function recordingDb(db: Db): { db: Db; run: typeof runRaw } {
  const logger: Logger = { logQuery: (text, params) => sent.push({ text, params }) };
  const client = (db as unknown as { $client: unknown }).$client;
  if (ctx.database.kind === 'pglite') {
    const lite = client as PGlite;
    return {
      db: drizzlePglite({ client: lite, schema, logger }),
      run: async (text, params) => (await lite.query<Record<string, unknown>>(text, params)).rows,
    };
  }
  const pool = client as pg.Pool;
  return {
    db: drizzlePg({ client: pool, schema, logger }),
    run: async (text, params) => (await pool.query<Record<string, unknown>>(text, params)).rows,
  };
}

/** The statements that one call sends. */
async function statementsOf(call: () => Promise<unknown>): Promise<Sent[]> {
  sent = [];
  await call();
  const mine = sent;
  sent = [];
  return mine;
}

/** Every `Relation Name` of a plan, its subplans, init plans and CTEs included. */
function relationsOfPlan(node: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(node)) for (const item of node) relationsOfPlan(item, into);
  else if (node && typeof node === 'object') {
    for (const [name, value] of Object.entries(node)) {
      if (name === 'Relation Name' && typeof value === 'string') into.add(value);
      else relationsOfPlan(value, into);
    }
  }
  return into;
}

/** The tables and functions of the public schema, and each function's text (SQL and PL/pgSQL). */
let tables: Set<string>;
let functionSource: Map<string, string>;
/** The partitioned table of each partition: a plan names the partitions it reads. */
let partitionOf: Map<string, string>;

/**
 * The tables that the functions called by `text` read (EXPLAIN does not look into them): words
 * after FROM or JOIN in their source that name a table, and those of the functions they call.
 */
function relationsOfFunctions(text: string, into: Set<string>, seen = new Set<string>()): Set<string> {
  for (const [, name] of text.matchAll(/\b([a-z_][a-z0-9_]*)\s*\(/gi)) {
    const fn = name!.toLowerCase();
    const source = functionSource.get(fn);
    if (source === undefined || seen.has(fn)) continue;
    seen.add(fn);
    for (const [, table] of source.matchAll(/\b(?:from|join)\s+([a-z_][a-z0-9_]*)/gi)) {
      if (tables.has(table!.toLowerCase())) into.add(table!.toLowerCase());
    }
    relationsOfFunctions(source, into, seen);
  }
  return into;
}

/** The tables that a call's statements read, from their plans. */
async function tablesRead(call: () => Promise<unknown>): Promise<Set<string>> {
  const read = new Set<string>();
  const statements = await statementsOf(call);
  expect(statements.length, 'the call sent no statement').toBeGreaterThan(0);
  for (const { text, params } of statements) {
    if (!/^\s*\(?\s*(select|with)\b/i.test(text)) continue;
    const [row] = await runRaw(`EXPLAIN (FORMAT JSON) ${text}`, params);
    const plan: unknown = Object.values(row!)[0];
    relationsOfPlan(typeof plan === 'string' ? JSON.parse(plan) : plan, read);
    relationsOfFunctions(text, read);
  }
  return new Set([...read].map((name) => partitionOf.get(name) ?? name));
}

/**
 * The calls that build each cached answer (as its service calls them when it has no cache), over
 * the branches that read different tables: filters the count table answers and those it does not,
 * text searches, other pages, a customer's scope and an analyst's.
 */
function builders(): Record<string, (() => Promise<unknown>)[]> {
  const config = ctx.config;
  const storage = new LocalFileStorage(config.filesDir);
  const mailer = { send: async () => ({ messageId: '' }), close: () => undefined };
  // the answers send no mail and queue no job
  const jobs = { enqueue: async () => 0 };
  const noStatus = async () => undefined;
  const incidents = createIncidentsService({ db: recorded, config, storage, mailer, jobs });
  const repo = createIncidentsRepository(recorded);
  const card = createIncidentCardService({
    db: recorded,
    onStatus: noStatus,
    planGossopka: async () => undefined,
  });
  const comments = createCommentsService({ db: recorded, config, storage, onStatus: noStatus });
  const alerts = createAlertsService({ db: recorded });
  const rules = createRulesService({
    db: recorded,
    attack: async () => EMPTY_ATTACK,
  });
  const filterSets: IncidentFilters[] = [
    {},
    { status__in: ['closed'] },
    { status__in: ['closed'], priority__in: ['low', 'high'] },
    { search: sample.search },
    { search: sample.search, priority__in: ['high', 'critical'] },
    { summary__icontains: sample.search },
    { host__icontains: 'srv' },
    { service__in: [sample.service] },
    { rule_id__in: [sample.rule_id] },
    { customer_assignee__isnull: false },
  ];
  const both = (fn: (auth: AuthContext) => Promise<unknown>) => [() => fn(customer), () => fn(analyst)];
  return {
    'incident list total': filterSets
      .filter((f) => !countKey(f) && countCacheKey(f, null))
      .flatMap((f) => [() => repo.countRows(f, [sample.system_id]), () => repo.countRows(f, null)]),
    'incident card': both((auth) => card.card(sample.key, auth, 'en')),
    'incident list page': [
      ...filterSets.flatMap((f) => [
        ...both((auth) => incidents.list(f, auth, '-created', 40, 0, 'ru')),
        () => incidents.list(f, analyst, 'priority', 5, 10_000, 'en'),
      ]),
      // every incident matches: the page is read through the ordering, not from the matches
      ...both((auth) => incidents.list({ search: sample.search }, auth, '-created', 1, 0, 'en')),
    ],
    'incident chat page': [
      ...both((auth) => comments.list(sample.key, auth, CommentsQuerySchema.parse({}))),
      () => comments.list(sample.key, customer, CommentsQuerySchema.parse({ search: 'a', page: 2 })),
    ],
    'alerts of an incident': [
      ...both((auth) => alerts.incidentAlerts(sample.key, IncidentAlertsQuerySchema.parse({}), auth)),
      () => alerts.incidentAlerts(sample.key, IncidentAlertsQuerySchema.parse({ page: 2 }), customer),
      () => alerts.incidentAlerts(sample.key, IncidentAlertsQuerySchema.parse({ search: 'a' }), analyst),
    ],
    'alert list page': [
      ...both((auth) => alerts.list(AlertListQuerySchema.parse({}), auth)),
      () => alerts.list(AlertListQuerySchema.parse({ page: 2 }), analyst),
      () => alerts.list(AlertListQuerySchema.parse({ search: 'a', incident__in: `${sample.key}` }), customer),
      () => alerts.list(AlertListQuerySchema.parse({ grouped: 'true', assignee__isnull: 'false' }), analyst),
    ],
    'rule page': [
      ...both((auth) => rules.list(RuleListQuerySchema.parse({}), auth)),
      () => rules.list(RuleListQuerySchema.parse({ search: 'a', page: 2 }), customer),
    ],
    'rule coverage': both((auth) => rules.coverage({}, auth)),
  };
}

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  ({ db: recorded, run: runRaw } = recordingDb(ctx.database.db));
  const db = ctx.database.db;
  tables = new Set(
    (
      await queryRows<{ name: string }>(
        db,
        sql`SELECT relname AS name FROM pg_class
             WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p', 'v', 'm')`,
      )
    ).map((r) => r.name),
  );
  partitionOf = new Map(
    (
      await queryRows<{ child: string; parent: string }>(
        db,
        sql`SELECT c.relname AS child, p.relname AS parent FROM pg_inherits i
              JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
             WHERE c.relispartition`,
      )
    ).map((r) => [r.child, r.parent]),
  );
  functionSource = new Map(
    (
      await queryRows<{ name: string; source: string }>(
        db,
        sql`SELECT p.proname AS name, p.prosrc AS source FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
             WHERE p.pronamespace = 'public'::regnamespace AND l.lanname IN ('sql', 'plpgsql')`,
      )
    ).map((r) => [r.name, r.source]),
  );
  const system = await buildSystem(ctx);
  const user = await buildCustomer(ctx, [system.id]);
  const staff = await buildAnalyst(ctx);
  const service = await buildService(ctx, system.id);
  const incident = await buildIncident(ctx, system.id, {
    summary: 'Beacon to a sinkhole',
    serviceId: service.id,
  });
  // a second match: a search that matches every incident reads its page through the ordering
  await buildIncident(ctx, system.id, { summary: 'Beacon again', serviceId: service.id });
  await buildComment(ctx, incident.id);
  await buildAlert(ctx, system.id, { incidentId: incident.id });
  const [rule] = await queryRows<{ id: number }>(db, sql`SELECT id FROM rules ORDER BY id LIMIT 1`);
  sample = {
    key: incident.key,
    system_id: system.id,
    search: 'beacon',
    service: service.name,
    rule_id: rule!.id,
  };
  customer = {
    userId: user.id,
    username: user.username,
    role: 'customer',
    sessionId: null,
    systemIds: [system.id],
  };
  analyst = { userId: staff.id, username: staff.username, role: 'analyst', sessionId: null, systemIds: [] };
});
afterAll(() => ctx.close());

describe('each cached answer declares every table its statements read', () => {
  it('has the calls that build every cached answer', () => {
    expect(Object.keys(builders()).sort()).toEqual(CACHED_ANSWERS.map((a) => a.name).sort());
  });

  it.each(CACHED_ANSWERS.map((a) => [a.name, a] as const))('%s', async (_name, answer) => {
    const read = new Set<string>();
    for (const build of builders()[answer.name] ?? []) for (const t of await tablesRead(build)) read.add(t);
    const undeclared = [...read].filter((t) => !answer.reads.includes(t)).sort();
    expect(undeclared, `${answer.name} reads tables it does not declare`).toEqual([]);
  });
});

/**
 * A call of each cache that reads its version (a kept value is asked for again: the second call
 * reads only the version) and builds nothing from the database.
 */
function versionReaders(caches: Caches): Record<string, () => Promise<unknown>> {
  const empty = async () => ({ total: 0, exact: true, results: [] });
  return {
    'incident list total': () =>
      caches.incidentCounts.get('k', async (version) => {
        const [row] = await queryRows<{ n: number; version: string }>(
          recorded,
          sql`SELECT 0 AS n, (${version})::text AS version`,
        );
        return row!;
      }),
    'incident card': () =>
      caches.incidents.card(sample.key, null, 'analyst', 'en', async () => ({}) as IncidentCard),
    'incident list page': () => caches.incidents.page({}, null, '-created', 40, 0, 'en', empty),
    'incident chat page': () => caches.incidents.comments(sample.key, null, 1, {}, empty),
    'alerts of an incident': () => caches.alerts.incident(sample.key, null, {}, empty),
    'alert list page': () => caches.alerts.list(null, null, {}, empty),
    'rule page': () => caches.rules.page('k', empty),
    'rule coverage': () =>
      caches.rules.coverage('k', async () => ({
        attack_loaded: false,
        attack_version: null,
        tactics: [],
        techniques: [],
      })),
  };
}

describe("each cache's version reads what its answers declare", () => {
  it.each(CACHED_ANSWERS.map((a) => [a.name, a] as const))('%s', async (_name, answer) => {
    const live = {
      subscribe: () => () => undefined,
      onLive: (l: (live: boolean) => void) => (l(true), () => undefined),
    };
    const read = versionReaders(createCaches(recorded, live))[answer.name]!;
    // the first call keeps a value, the second reads only the version
    await read();
    const versionReads = await tablesRead(read);
    const { epoch, events, counters, rows } = answer.version;
    const declared = [
      ...(epoch ? ['cache_epoch'] : []),
      ...(events === '*' || events.length > 0 ? ['events'] : []),
      ...counters,
      ...rows,
    ];
    expect([...versionReads].sort()).toEqual([...new Set(declared)].sort());
  });
});

/** A trigger of a table and the text of its function. */
interface TableTrigger {
  table: string;
  name: string;
  type: number;
  source: string;
}

/** pg_trigger.tgtype bits of the events a trigger fires on. */
const FIRES_ON: Record<TableChange, number> = { INSERT: 4, DELETE: 8, UPDATE: 16, TRUNCATE: 32 };

const WRITES = (table: string) =>
  new RegExp(`\\b(?:insert\\s+into|update|delete\\s+from)\\s+${table}\\b`, 'i');

/** Whether a trigger function moves a version that reads `answer.version`. */
function movesVersion(source: string, answer: CachedAnswer): boolean {
  const { epoch, counters } = answer.version;
  if (epoch && WRITES('cache_epoch').test(source)) return true;
  if (/\binsert\s+into\s+events\b/i.test(source)) {
    const types = [...source.matchAll(/'([a-z_]+\.[a-z_]+)'/g)].map((m) => m[1]!);
    if (types.some((t) => readsEvent(answer.version, t))) return true;
  }
  return counters.some((c) => WRITES(c).test(source) && /\bversion\b/i.test(source));
}

describe('every table a cached answer reads moves its version', () => {
  let triggers: TableTrigger[];
  beforeAll(async () => {
    triggers = await queryRows<TableTrigger>(
      ctx.database.db,
      sql`SELECT c.relname AS table, t.tgname AS name, t.tgtype::int AS type, p.prosrc AS source
            FROM pg_trigger t
            JOIN pg_class c ON c.oid = t.tgrelid
            JOIN pg_proc p ON p.oid = t.tgfoid
           WHERE NOT t.tgisinternal AND t.tgenabled <> 'D'
             AND c.relnamespace = 'public'::regnamespace`,
    );
  });

  /** The changes of `table` that reach no version of `answer`, with what is missing. */
  function missing(answer: CachedAnswer, table: string): string[] {
    if (answer.version.rows.includes(table)) return [];
    const exempt = { ...SHOWN_THROUGH_REFERENCES[table], ...answer.unannounced?.[table] };
    return TABLE_CHANGES.filter(
      (change) =>
        !exempt[change] &&
        !triggers.some(
          (t) => t.table === table && (t.type & FIRES_ON[change]) !== 0 && movesVersion(t.source, answer),
        ),
    ).map((change) => `${table}: ${change}`);
  }

  it.each(CACHED_ANSWERS.map((a) => [a.name, a] as const))('%s', (_name, answer) => {
    const unknown = answer.reads.filter((t) => !tables.has(t));
    expect(unknown, 'declared tables that do not exist').toEqual([]);
    // a table kept by triggers changes with its sources: those are checked instead
    const checked = new Set<string>();
    const problems: string[] = [];
    const visit = (table: string) => {
      if (checked.has(table)) return;
      checked.add(table);
      const sources = TRIGGER_KEPT_TABLES[table];
      if (!sources) {
        problems.push(...missing(answer, table));
        return;
      }
      const writers = triggers.filter((t) => WRITES(table).test(t.source) && !sources.includes(t.table));
      for (const w of writers)
        problems.push(`${table}: written by trigger ${w.name} of ${w.table}, not a declared source`);
      for (const source of sources) visit(source);
    };
    for (const table of answer.reads) visit(table);
    expect(
      problems,
      `changes that move no version of ${answer.name} (epoch: ${answer.version.epoch}, events: ${String(answer.version.events)}, counters: ${answer.version.counters.join(', ')})`,
    ).toEqual([]);
  });
});
