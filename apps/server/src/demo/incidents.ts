import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import {
  COMMENT_EVENTS_INSERT_TRIGGER,
  INCIDENT_COUNTS_REBUILD,
  INCIDENT_COUNTS_TRIGGER,
  INCIDENT_SEARCH_REBUILD,
  INCIDENT_SEARCH_TRIGGER,
  INCIDENT_DAILY_REBUILD,
  INCIDENT_DAILY_TRIGGER,
  INCIDENT_EVENTS_INSERT_TRIGGER,
} from '../db/derived/index.ts';
import { comments, incidentLinks, incidents, jobs } from '../db/schema/index.ts';
import { fromPair, msg } from '../lib/messages.ts';
import { slaDeadline } from '../lib/sla.ts';
import { GOSSOPKA_JOB, GOSSOPKA_MAX_ATTEMPTS } from '../modules/incidents/index.ts';
import { dropSecondaryIndexes, switchTriggers } from './bulk-load.ts';
import {
  CUSTOMER_COMMENTS,
  DETECTION_RULES,
  HOSTS,
  SOC_COMMENTS,
  SUMMARIES,
  TAGS,
  TECHNIQUES,
} from './catalog.ts';
import type { DemoPerson, DemoReference, DemoService, Lang, Priority } from './organisation.ts';
import { DAY } from './organisation.ts';
import { demoIocs, fill, statusFor, uuidFrom } from './incident-fields.ts';
import type { Rng } from './rng.ts';

const HOUR = 3_600_000;

/** From this many incidents on, the generator loads into unindexed tables and indexes afterwards. */
const BULK_THRESHOLD = 100_000;

/** What the incidents are drawn from: the generators, the period and the demo's organisation. */
export interface DemoIncidentsOptions {
  rng: Rng;
  /** The incident page's extra fields draw from their own stream, so the main data stays as it was. */
  pageRng: Rng;
  now: Date;
  days: number;
  count: number;
  bulkThreshold: number | undefined;
  log: (message: string) => void;
  reference: DemoReference;
  systemRows: { id: number; isId: string }[];
  systemSpecs: { lang: Lang }[];
  serviceBySystem: Map<number, DemoService[]>;
  analysts: DemoPerson[];
  customersBySystem: Map<number, DemoPerson[]>;
}

/** What drawing one incident reads, and the links and planned sends it adds to. */
interface DrawContext extends DemoIncidentsOptions {
  start: number;
  span: number;
  bulk: boolean;
  systemWeights: (readonly [{ id: number; isId: string }, number])[];
  systemLang: Map<number, Lang>;
  lastOfSystem: Map<number, string>;
  links: (typeof incidentLinks.$inferInsert)[];
  planned: { id: string; at: Date }[];
}

/** Incident number `i` and its comments; the draws happen in a fixed order, so a seed repeats them. */
function drawIncident(
  i: number,
  draw: DrawContext,
): { incident: typeof incidents.$inferInsert; comments: (typeof comments.$inferInsert)[] } {
  const {
    rng,
    pageRng,
    now,
    count,
    start,
    span,
    bulk,
    systemWeights,
    systemLang,
    serviceBySystem,
    customersBySystem,
    analysts,
    lastOfSystem,
    links,
    planned,
    reference: { typeId, categoriesOf, resolutionOf },
  } = draw;
  const created = new Date(start + ((i + rng.next()) * span) / count);
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
  const secondary = typeCode === 'incident' && rng.chance(0.2) ? [rng.pick(categoriesOf('incident')).id] : [];
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
  const summary = fill(fromPair(template).in(lang), rng, someone ? someone.username : 'svc_backup');
  const rule = service.sla.get(priority)!;
  const sla = slaDeadline(created, rule.hours, rule.calendar);
  const notifiedAt = new Date(
    created.getTime() +
      (rng.chance(0.08) ? rule.hours * HOUR * (1.2 + rng.next()) : rng.next() * rule.hours * 0.8 * HOUR),
  );
  const notified = notifiedAt.getTime() <= now.getTime() ? notifiedAt : null;
  const closedLike =
    status === 'closed' || status === 'completed' || status === 'canceled' || status === 'customer_completed';
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
  const incident: typeof incidents.$inferInsert = {
    id,
    key: 10_000 + i,
    systemId: system.id,
    serviceId: service.id,
    issueTypeId: typeId(typeCode),
    categoryId: category.id,
    secondaryCategoryIds: secondary,
    summary,
    description: msg('demoIncidentDescription', summary, host, created.toISOString()).in(lang),
    status,
    priority,
    tags: rng.sample(TAGS, rng.int(0, 3)),
    reporterName: `${analyst.firstName} ${analyst.lastName}`,
    reporterId: analyst.id,
    recommendations: msg('demoIncidentRecommendations').in(lang),
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
    updated: resolutionDate ?? new Date(Math.min(now.getTime(), created.getTime() + rng.int(1, 48) * HOUR)),
  };
  const n = rng.weighted([
    [0, 2],
    [1, 3],
    [2, 3],
    [3, 1],
    [4, 1],
  ] as const);
  const notes: (typeof comments.$inferInsert)[] = [];
  let at = created.getTime();
  for (let c = 0; c < n; c++) {
    at = Math.min(now.getTime(), at + rng.int(10, 600) * 60_000);
    const fromSoc = c % 2 === 0 || !someone;
    const text = rng.pick(fromSoc ? SOC_COMMENTS : CUSTOMER_COMMENTS);
    const author = fromSoc ? rng.pick(analysts) : someone;
    notes.push({
      incidentId: id,
      authorId: author.id,
      authorName: `${author.firstName} ${author.lastName}`,
      body: `<p>${fromPair(text).in(lang)}</p>`,
      source: fromSoc || rng.chance(0.8) ? 'API' : 'Email by authorized user',
      fromSoc,
      created: new Date(at),
    });
  }
  return { incident, comments: notes };
}

/**
 * Writes `count` incidents over the `days` before `now` with their comments, in batches so that
 * memory stays flat at any size, and returns the number of comments. A large load goes into
 * unindexed tables without count triggers, and rebuilds both at its end.
 */
export async function generateDemoIncidents(db: Db, o: DemoIncidentsOptions): Promise<number> {
  const { now, days, count, bulkThreshold, log, systemRows, systemSpecs } = o;
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
  const bulk = count >= (bulkThreshold ?? BULK_THRESHOLD);
  const draw: DrawContext = {
    ...o,
    start,
    span,
    bulk,
    systemWeights,
    systemLang,
    lastOfSystem,
    links,
    planned,
  };
  const dropped = bulk ? await dropSecondaryIndexes(db, ['incidents', 'comments']) : [];
  if (dropped.length) log(`demo: bulk load, ${dropped.length} indexes set aside`);
  // per-row count upkeep would dominate the load: the counts are rebuilt once at the end instead
  await switchTriggers(db, [INCIDENT_COUNTS_TRIGGER, INCIDENT_DAILY_TRIGGER, INCIDENT_SEARCH_TRIGGER], false);
  // live events are for changes after the load, not for the history it writes
  await switchTriggers(db, [INCIDENT_EVENTS_INSERT_TRIGGER, COMMENT_EVENTS_INSERT_TRIGGER], false);
  for (let offset = 0; offset < count; offset += BATCH) {
    const incidentBatch: (typeof incidents.$inferInsert)[] = [];
    const commentBatch: (typeof comments.$inferInsert)[] = [];
    for (let i = offset; i < Math.min(count, offset + BATCH); i++) {
      const drawn = drawIncident(i, draw);
      incidentBatch.push(drawn.incident);
      commentBatch.push(...drawn.comments);
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
  await db.execute(
    sql.raw(`SELECT ${INCIDENT_COUNTS_REBUILD}(), ${INCIDENT_DAILY_REBUILD}(), ${INCIDENT_SEARCH_REBUILD}()`),
  );
  await switchTriggers(
    db,
    [
      INCIDENT_COUNTS_TRIGGER,
      INCIDENT_DAILY_TRIGGER,
      INCIDENT_SEARCH_TRIGGER,
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
  return commentCount;
}
