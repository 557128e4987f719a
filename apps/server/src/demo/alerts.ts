import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { queryRows } from '../db/client.ts';
import { linkTemplates, responseTeams, systems } from '../db/schema/index.ts';

import {
  ALERT_TEMPLATES,
  DEMO_LINK_TEMPLATES,
  DEMO_TAGS,
  DEMO_TEAMS,
  MISCONFIG_TEMPLATES,
} from './alert-catalog.ts';

/** Knuth's multiplicative hash of an incident key and an alert number: deterministic and fast in SQL. */
const mix = (key: SQL, g: SQL) => sql`((${key}::bigint * 2654435761 + ${g}::bigint * 40503) % 1000003)`;

/**
 * Inserts alerts for the rows `source` yields: columns incident_id, key, system_id, t0
 * (timestamptz), status (incident status), resolution, g (alert number 1..n). One statement, so
 * any number of alerts costs no JS memory.
 */
async function insertAlerts(db: Db, source: SQL): Promise<void> {
  const templates = JSON.stringify(ALERT_TEMPLATES.map((t) => ({ ...t, events: JSON.stringify(t.events) })));
  const h = mix(sql`s.key`, sql`s.g`);
  await db.execute(sql`
    WITH tpl AS (
      SELECT (ord - 1)::int AS n, value AS t FROM jsonb_array_elements(${templates}::jsonb) WITH ORDINALITY AS x(value, ord)
    ), src AS (${source}),
    hashed AS (
      SELECT s.*, ${h} AS h,
             (SELECT coalesce(jsonb_agg(jsonb_build_object('cmdb_id', sn.cmdb_id, 'name', sn.name, 'ip_address', sn.ip_address) ORDER BY sn.id), '[]'::jsonb)
                FROM (SELECT * FROM incident_snapshots x WHERE x.incident_id = s.incident_id ORDER BY x.id
                      LIMIT 1 + (${h} % 2)) sn) AS assets
      FROM src s
    )
    INSERT INTO alerts (id, system_id, incident_id, severity, title, description, rule, source_tag, status, priority,
                        state, group_no, platform, response_team_id, affected_assets, events, created_time, updated_time)
    SELECT md5('alert:' || s.key || ':' || s.g)::uuid, s.system_id, s.incident_id,
           tpl.t->>'severity', tpl.t->>'title', tpl.t->>'description', tpl.t->>'rule', tpl.t->>'source_tag',
           CASE WHEN s.status IN ('closed', 'completed', 'canceled', 'customer_completed') THEN 'closed'
                WHEN s.h % 3 = 0 THEN 'in_progress' ELSE 'new' END,
           CASE tpl.t->>'severity' WHEN 'High' THEN (CASE WHEN s.h % 4 = 0 THEN 'critical' ELSE 'high' END)
                WHEN 'Medium' THEN 'medium' ELSE 'low' END,
           CASE WHEN s.status IN ('closed', 'completed', 'canceled', 'customer_completed')
                THEN (CASE s.resolution WHEN 'FP' THEN 'false_positive' WHEN 'TP' THEN 'true_positive' ELSE 'benign' END)
                ELSE 'unclassified' END,
           s.key * 10 + (s.g % 3),
           tpl.t->>'platform',
           CASE WHEN s.h % 4 = 0 THEN (SELECT rt.id FROM response_teams rt WHERE rt.system_id = s.system_id
                                        ORDER BY rt.id OFFSET (s.h % 3) LIMIT 1) END,
           s.assets,
           replace(replace(replace(replace(replace(tpl.t->>'events',
             '{host}', coalesce(s.assets->0->>'name', 'unknown-host')),
             '{user}', (ARRAY['a.petrova','i.sidorov','svc_backup','m.volkova','d.lebedev'])[1 + s.h % 5]),
             '{ip}', '203.0.113.' || (2 + s.h % 250)),
             '{hash4}', substr(md5(s.key::text), 1, 4)),
             '{hash}', md5('file:' || (s.h % 500)) || md5('sha:' || (s.h % 500)))::jsonb,
           s.t0 + (s.g * interval '7 seconds') + ((s.h % 600) * interval '1 second'),
           s.t0 + (s.g * interval '7 seconds') + ((s.h % 600) * interval '1 second') + ((s.h % 720) * interval '1 minute')
    FROM hashed s JOIN tpl ON tpl.n = s.h % ${ALERT_TEMPLATES.length}
    ON CONFLICT (id) DO NOTHING`);
}

const sourceOf = (where: SQL, count: SQL, first = 1) => sql`
  SELECT i.id AS incident_id, i.key, i.system_id, coalesce(i.activity_detected_at, i.created) AS t0,
         i.status, i.resolution, g
  FROM incidents i JOIN issue_types it ON it.id = i.issue_type_id AND it.code = 'incident'
  CROSS JOIN LATERAL generate_series(${first}::int, ${first}::int - 1 + ${count}) g
  WHERE ${where}`;

/** Adds `count` alerts to one incident (the demo's heavy incident and the benchmark's). */
export async function addIncidentAlerts(db: Db, incidentKey: number, count: number): Promise<void> {
  await insertAlerts(db, sourceOf(sql`i.key = ${incidentKey}`, sql`${count}::int`));
  await tagAlerts(db, sql`a.incident_id = (SELECT id FROM incidents WHERE key = ${incidentKey})`);
}

async function tagAlerts(db: Db, where: SQL): Promise<void> {
  await db.execute(sql`
    INSERT INTO alert_tags (alert_id, tag_id, position)
    SELECT a.id, t.id, (row_number() OVER (PARTITION BY a.id ORDER BY t.id))::smallint
    FROM alerts a
    JOIN tags t ON t.system_id = a.system_id
     AND (t.id + ('x' || substr(a.id::text, 1, 4))::bit(16)::int) % 5 = 0
    WHERE ${where} AND ('x' || substr(a.id::text, 5, 2))::bit(8)::int % 3 <> 0
    ON CONFLICT DO NOTHING`);
}

export interface DemoAlertsOptions {
  /** From this many incidents on, one incident gets 10,000 alerts (the benchmark's case). */
  heavyFrom?: number;
  log?: (message: string) => void;
}

/** Incident keys per alert-generation statement (bounded memory and WAL per statement). */
const KEY_BATCH = 50_000;
/** Alerts of the demo's heavy incident. */
export const HEAVY_INCIDENT_ALERTS = 10_000;

/**
 * Inserts and tags alerts for the incidents of keys `range.lo`..`range.hi`, KEY_BATCH keys per
 * statement: `perIncident` (SQL over `i`) alerts each, numbered from `first`.
 */
async function alertsByKeyBatch(
  db: Db,
  range: { lo: number | string | null; hi: number | string | null } | undefined,
  perIncident: SQL,
  done: (from: number, to: number) => void,
  first?: number,
): Promise<void> {
  const lo = Number(range?.lo ?? 0);
  const hi = Number(range?.hi ?? -1);
  for (let from = lo; from <= hi; from += KEY_BATCH) {
    const to = Math.min(hi, from + KEY_BATCH - 1);
    await insertAlerts(db, sourceOf(sql`i.key BETWEEN ${from} AND ${to}`, perIncident, first));
    await tagAlerts(db, sql`a.incident_id IN (SELECT id FROM incidents WHERE key BETWEEN ${from} AND ${to})`);
    done(from, to);
  }
}

/**
 * Alerts for every incident of type Incident (1–4 each; every 97th gets 40–199), with tags,
 * response teams, events and process trees; link templates; misconfigurations for Remediation
 * incidents. Everything is derived from the incident keys in SQL, so the output is
 * deterministic and scales to a million incidents.
 */
export async function generateDemoAlerts(
  db: Db,
  incidentCount: number,
  { heavyFrom = 1000, log = () => undefined }: DemoAlertsOptions = {},
): Promise<{ alerts: number; heavyIncident: number | null }> {
  const systemRows = await db.select({ id: systems.id }).from(systems).orderBy(systems.id);
  for (const s of systemRows) {
    await db.execute(sql`
      INSERT INTO tags (system_id, name, color)
      SELECT ${s.id}::int, x->>0, x->>1 FROM jsonb_array_elements(${JSON.stringify(DEMO_TAGS)}::jsonb) x`);
    await db.insert(responseTeams).values(DEMO_TEAMS.map((name) => ({ systemId: s.id, name })));
  }
  await db.insert(linkTemplates).values(DEMO_LINK_TEMPLATES);

  const [range] = await queryRows<{ lo: number | null; hi: number | null }>(
    db,
    sql`SELECT min(key)::bigint AS lo, max(key)::bigint AS hi FROM incidents`,
  );
  await alertsByKeyBatch(
    db,
    range,
    sql`(CASE WHEN i.key % 97 = 0 THEN 40 + (i.key % 160) ELSE 1 + (i.key * 7 % 4) END)::int`,
    (from, to) => log(`demo: alerts of incidents ${from}–${to}`),
  );

  let heavyIncident: number | null = null;
  if (incidentCount >= heavyFrom) {
    // the newest open incident of the first system: the one a customer of it opens first
    const [heavy] = await queryRows<{ key: number }>(
      db,
      sql`SELECT i.key::int AS key FROM incidents i JOIN issue_types it ON it.id = i.issue_type_id AND it.code = 'incident'
          WHERE i.system_id = ${systemRows[0]?.id ?? 0} ORDER BY i.created DESC, i.key DESC LIMIT 1`,
    );
    if (heavy) {
      await db.execute(
        sql`DELETE FROM alerts WHERE incident_id = (SELECT id FROM incidents WHERE key = ${heavy.key})`,
      );
      await addIncidentAlerts(db, heavy.key, HEAVY_INCIDENT_ALERTS);
      heavyIncident = heavy.key;
    }
  }

  const misconfigs = JSON.stringify(MISCONFIG_TEMPLATES);
  // ids are drawn first so that each recommendation and its link to the incident go in one statement
  await db.execute(sql`
    WITH tpl AS (SELECT (ord - 1)::int AS n, value AS t FROM jsonb_array_elements(${misconfigs}::jsonb) WITH ORDINALITY AS x(value, ord)),
    src AS MATERIALIZED (
      SELECT nextval(pg_get_serial_sequence('misconfigurations', 'id'))::int AS mid, i.id AS incident_id, i.system_id,
             tpl.t, i.key, g, i.status AS incident_status, i.affected_systems, i.created, i.updated
      FROM incidents i JOIN issue_types it ON it.id = i.issue_type_id AND it.code = 'remediation'
      CROSS JOIN LATERAL generate_series(1, (1 + i.key % 4)::int) g
      JOIN tpl ON tpl.n = ((i.key * 31 + g * 7) % ${MISCONFIG_TEMPLATES.length})
    ),
    ins AS (
      INSERT INTO misconfigurations (id, system_id, title, description, recommendation, severity, status, affected_assets, status_comment, created, updated)
      SELECT mid, system_id, t->>0, t->>1, t->>2, t->>3,
             CASE WHEN incident_status IN ('closed', 'completed') THEN 'fixed' WHEN (key + g) % 7 = 0 THEN 'accepted_risk' ELSE 'open' END,
             coalesce(affected_systems[1:1 + (key + g) % 2], '{}'::text[]),
             CASE WHEN incident_status NOT IN ('closed', 'completed') AND (key + g) % 7 = 0
                  THEN 'Compensating controls are in place; the host is isolated in a separate VLAN.' ELSE '' END,
             created + g * interval '1 minute',
             CASE WHEN incident_status IN ('closed', 'completed') OR (key + g) % 7 = 0 THEN updated ELSE created + g * interval '1 minute' END
      FROM src
    )
    INSERT INTO misconfiguration_incidents (misconfiguration_id, incident_id) SELECT mid, incident_id FROM src`);

  // fresh rows lack the visibility map: without it counting an incident's alerts reads the heap;
  // and without statistics on the tag tables the planner expects ~90 tags per alert and reads
  // every tag name for each alert of a page
  await db.execute(sql`VACUUM (ANALYZE) alerts, alert_tags, tags`);
  const [counted] = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM alerts`);
  return { alerts: counted?.n ?? 0, heavyIncident };
}

/**
 * Alert numbers of top-up alerts start here: above those of the generation (at most 199 per
 * incident), so their ids differ, and only minutes after the incident's first alert.
 */
const TOP_UP_FIRST = 200;

/**
 * Adds alerts to an existing data set until it holds `total` (the 10,000,000 on a million
 * incidents): the same SQL as the generation, spread evenly over the incidents of type Incident
 * (the first ones by key get one more), batch by batch of keys. The heavy incident's own numbers
 * reach 10,000, so its few colliding ids are skipped; the result says how many there are.
 */
export async function topUpDemoAlerts(
  db: Db,
  total: number,
  log: (message: string) => void = () => undefined,
): Promise<{ before: number; after: number }> {
  const countAlerts = async () =>
    Number((await queryRows<{ n: string }>(db, sql`SELECT count(*) AS n FROM alerts`))[0]?.n ?? 0);
  const before = await countAlerts();
  const [range] = await queryRows<{ n: string; lo: string | null; hi: string | null }>(
    db,
    sql`SELECT count(*) AS n, min(i.key) AS lo, max(i.key) AS hi
        FROM incidents i JOIN issue_types it ON it.id = i.issue_type_id AND it.code = 'incident'`,
  );
  const incidents = Number(range?.n ?? 0);
  if (before >= total || incidents === 0) return { before, after: before };
  const missing = total - before;
  const per = Math.floor(missing / incidents);
  const extra = missing - per * incidents;
  // the incidents up to this key get per + 1 alerts
  const [cut] = extra
    ? await queryRows<{ key: string }>(
        db,
        sql`SELECT i.key FROM incidents i JOIN issue_types it ON it.id = i.issue_type_id AND it.code = 'incident'
            ORDER BY i.key OFFSET ${extra - 1} LIMIT 1`,
      )
    : [];
  const cutKey = Number(cut?.key ?? -1);
  await alertsByKeyBatch(
    db,
    range,
    sql`(CASE WHEN i.key <= ${cutKey} THEN ${per + 1} ELSE ${per} END)::int`,
    (from, to) => log(`demo: top-up alerts of incidents ${from}–${to}`),
    TOP_UP_FIRST,
  );
  await db.execute(sql`VACUUM (ANALYZE) alerts, alert_tags, tags`);
  return { before, after: await countAlerts() };
}
