import { and, eq, inArray, sql } from 'drizzle-orm';
import type {
  AnalystAlertsBulk,
  AnalystAlertsBulkResult,
  AnalystComment,
  AnalystIncidentCreate,
  AnalystIncidentUpdate,
  AnalystLogSourceCreate,
  AnalystMisconfigsCreate,
  AnalystRuleUpsert,
  AnalystStatus,
  DocumentCreate,
  DocumentKind,
  EpsSamples,
  IncidentCard,
  Language,
  Misconfig,
} from '@soc/contracts';
import {
  AnalystAlertsBulkSchema,
  AnalystCommentSchema,
  AnalystIncidentCreateSchema,
  AnalystIncidentUpdateSchema,
  AnalystLogSourceCreateSchema,
  AnalystMisconfigsCreateSchema,
  AnalystRuleUpsertSchema,
  AnalystStatusSchema,
  EpsSamplesSchema,
} from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/client.ts';
import type { AlertAssetRef } from '../../db/schema/index.ts';
import {
  alerts,
  categories,
  cmdbAssets,
  incidentSnapshots,
  incidents,
  issueTypes,
  logSources,
  misconfigurationIncidents,
  misconfigurations,
  rules,
  services,
  slaRows,
  systems,
} from '../../db/schema/index.ts';
import { audit } from '../../lib/audit.ts';
import { badRequest, forbidden, notFound } from '../../lib/http-errors.ts';
import { renderMarkdown } from '../../lib/markdown.ts';
import { slaDeadline } from '../../lib/sla.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import { systemScope } from '../../plugins/auth.ts';
import { presentMisconfig } from '../misconfigs/misconfigs.presenter.ts';
import { createMisconfigsRepository } from '../misconfigs/misconfigs.repository.ts';
import { createAlertsRepository } from '../alerts/alerts.repository.ts';
import type { DocumentsService } from '../documents/documents.service.ts';
import type { StatusListener } from '../comments/index.ts';
import { insertComment } from '../comments/index.ts';
import { displayName } from '../users/index.ts';
import type { IncidentCardService } from '../incidents/index.ts';
import { loadIncident } from '../incidents/index.ts';
import { presentRule } from '../rules/rules.presenter.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface SocApiDeps {
  db: Db;
  card: IncidentCardService;
  documents: DocumentsService;
  onCreated: (incidentId: string) => Promise<void>;
  onStatus: StatusListener;
  planGossopka: (incidentId: string, at: Date) => Promise<void>;
}

const doesNotExist = (id: number | string) => `Invalid pk "${id}" - object does not exist.`;
const HOUR_MS = 3_600_000;

/** Tactics and techniques of a coverage map, flattened for the GIN-indexed filter columns. */
function flattenMitre(cov: Record<string, string[]>) {
  const clean = Object.fromEntries(Object.entries(cov).map(([t, ids]) => [t, [...new Set(ids)]]));
  return {
    mitreCov: clean,
    tactics: Object.keys(clean),
    techniques: [...new Set(Object.values(clean).flat())],
  };
}

/**
 * The analyst API (issue 13): the provider's analysts and their SIEM/SOAR feed incidents,
 * alerts, comments, EPS, documents, rules and misconfigurations. Every call is limited to the
 * caller's systems (a service token may name some), and every change is audited.
 */
export function createSocApiService({ db, card, documents, onCreated, onStatus, planGossopka }: SocApiDeps) {
  const alertsRepo = createAlertsRepository(db);

  const staffOnly = (auth: AuthContext) => {
    if (auth.role === 'customer') throw forbidden();
  };

  /** A system the caller may write to, else a 400 under `field` (ids are not probed). */
  async function writableSystem(auth: AuthContext, id: number, field = 'system'): Promise<number> {
    const scope = systemScope(auth);
    const [row] = await db.select({ id: systems.id }).from(systems).where(eq(systems.id, id));
    if (!row || (scope && !scope.includes(row.id))) throw badRequest({ [field]: [doesNotExist(id)] });
    return row.id;
  }

  async function checkCategories(
    typeId: number,
    primary: number | undefined,
    secondary: number[] | undefined,
  ) {
    const ids = [...(primary ? [primary] : []), ...(secondary ?? [])];
    if (!ids.length) return;
    const found = await db
      .select({ id: categories.id })
      .from(categories)
      .where(and(inArray(categories.id, ids), eq(categories.issueTypeId, typeId)));
    const ok = new Set(found.map((c) => c.id));
    const errors: Record<string, string[]> = {};
    if (primary && !ok.has(primary))
      errors.primary_category = ['The category does not belong to the issue type.'];
    const wrong = (secondary ?? []).filter((id) => !ok.has(id));
    if (wrong.length)
      errors.secondary_category = [`Categories ${wrong.join(', ')} do not belong to the issue type.`];
    if (Object.keys(errors).length) throw badRequest(errors);
  }

  /** The assets of a system by CMDB id; any unknown id is a 400 under `field`. */
  async function assetsOf(systemId: number, cmdbIds: string[], field: string) {
    const wanted = [...new Set(cmdbIds)];
    if (!wanted.length) return new Map<string, typeof cmdbAssets.$inferSelect>();
    const rows = await db
      .select()
      .from(cmdbAssets)
      .where(and(eq(cmdbAssets.systemId, systemId), inArray(cmdbAssets.cmdbId, wanted)));
    const map = new Map(rows.map((r) => [r.cmdbId, r]));
    const missing = wanted.filter((id) => !map.has(id));
    if (missing.length) throw badRequest({ [field]: [`No asset "${missing[0]}" in the incident's system.`] });
    return map;
  }

  async function snapshot(tx: Tx, incidentId: string, assets: Iterable<typeof cmdbAssets.$inferSelect>) {
    const values = [...assets].map((a) => ({
      incidentId,
      cmdbId: a.cmdbId,
      systemId: a.systemId,
      name: a.name,
      assetType: a.assetType,
      os: a.os,
      ipAddress: a.ipAddress,
      fqdn: a.fqdn,
      criticality: a.criticality,
    }));
    if (values.length) await tx.insert(incidentSnapshots).values(values).onConflictDoNothing();
  }

  /** Where each uuid is stored already (incident and system), for the idempotent alert pushes. */
  async function storedAlerts(uuids: string[]) {
    if (!uuids.length) return new Map<string, { incidentId: string | null; systemId: number }>();
    const rows = await db
      .select({ id: alerts.id, incidentId: alerts.incidentId, systemId: alerts.systemId })
      .from(alerts)
      .where(inArray(alerts.id, uuids));
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** Inserts new alerts of an incident with their tags; uuids already stored are skipped. */
  async function insertAlerts(
    tx: Tx,
    incident: { id: string; systemId: number },
    items: ReturnType<typeof AnalystAlertsBulkSchema.parse>['alerts'],
    assets: Map<string, typeof cmdbAssets.$inferSelect>,
  ): Promise<string[]> {
    if (!items.length) return [];
    const now = Date.now();
    const inserted = await tx
      .insert(alerts)
      .values(
        items.map((a) => ({
          id: a.uuid,
          systemId: incident.systemId,
          incidentId: incident.id,
          severity: a.severity,
          title: a.title,
          description: a.description,
          rule: a.rule,
          sourceTag: a.source_tag,
          priority: a.priority,
          platform: a.platform,
          affectedAssets: a.affected_assets.map((id): AlertAssetRef => {
            const asset = assets.get(id)!;
            return { cmdb_id: asset.cmdbId, name: asset.name, ip_address: asset.ipAddress };
          }),
          events: a.events.map((e) => ({ ...e })),
          createdTime: new Date(a.created_time ?? now),
          updatedTime: new Date(a.created_time ?? now),
        })),
      )
      .onConflictDoNothing({ target: alerts.id })
      .returning({ id: alerts.id });
    const ids = new Set(inserted.map((r) => r.id));
    for (const a of items)
      if (ids.has(a.uuid) && a.tags.length) await alertsRepo.setTags(tx, a.uuid, incident.systemId, a.tags);
    return items.map((a) => a.uuid).filter((id) => ids.has(id));
  }

  const alertAssetIds = (items: { affected_assets: string[] }[]) => items.flatMap((a) => a.affected_assets);

  async function futurePlan(ms: number | null | undefined): Promise<Date | null> {
    if (ms === null || ms === undefined) return null;
    if (ms <= Date.now())
      throw badRequest({ gossopka_planned_time: ['The planned time must be in the future.'] });
    return new Date(ms);
  }

  return {
    /** Creates an incident with every field of spec 000 §3, its asset snapshots and alerts, in one transaction. */
    async createIncident(
      raw: AnalystIncidentCreate,
      auth: AuthContext,
      ip: string,
      lang: Language,
    ): Promise<IncidentCard> {
      staffOnly(auth);
      const input = AnalystIncidentCreateSchema.parse(raw);
      const systemId = await writableSystem(auth, input.system);
      const [type] = await db
        .select({ id: issueTypes.id })
        .from(issueTypes)
        .where(eq(issueTypes.id, input.issuetype));
      if (!type) throw badRequest({ issuetype: [doesNotExist(input.issuetype)] });
      await checkCategories(type.id, input.primary_category, input.secondary_category);
      const serviceRows = await db
        .select({ id: services.id, hours: slaRows.hours, calendar: slaRows.calendar })
        .from(services)
        .leftJoin(slaRows, and(eq(slaRows.serviceId, services.id), eq(slaRows.category, input.priority)))
        .where(
          and(eq(services.systemId, systemId), input.service ? eq(services.id, input.service) : sql`TRUE`),
        )
        .orderBy(services.id)
        .limit(1);
      const service = serviceRows[0];
      if (input.service && !service) throw badRequest({ service: [doesNotExist(input.service)] });
      const assets = await assetsOf(
        systemId,
        [...input.affected_assets, ...alertAssetIds(input.alerts)],
        'affected_assets',
      );
      const uuids = input.alerts.map((a) => a.uuid);
      if (new Set(uuids).size !== uuids.length)
        throw badRequest({ alerts: ['Each alert uuid may appear once.'] });
      const taken = [...(await storedAlerts(uuids)).keys()];
      if (taken.length) throw badRequest({ alerts: [`Alert ${taken[0]} is already stored.`] });
      const planned = await futurePlan(input.gossopka_planned_time);
      const me = await displayName(db, auth.userId);
      const now = new Date();
      const created = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(incidents)
          .values({
            systemId,
            serviceId: service?.id ?? null,
            issueTypeId: type.id,
            categoryId: input.primary_category,
            secondaryCategoryIds: [
              ...new Set(input.secondary_category.filter((id) => id !== input.primary_category)),
            ],
            summary: input.summary,
            description: input.description,
            priority: input.priority,
            status: 'waiting_for_customer',
            tags: [...new Set(input.tags)],
            reporterId: auth.userId,
            reporterName: input.reporter_name || me.name,
            recommendations: input.recommendations,
            statusDescription: input.status_description,
            affectedSystems: input.affected_systems,
            notifiedAt: now,
            sla: service?.hours ? slaDeadline(now, service.hours, service.calendar ?? true) : null,
            slaBreached: false,
            activityDetectedAt:
              input.activity_detected_at === null ? null : new Date(input.activity_detected_at),
            observedIocs: input.observed_iocs.map((i) => ({
              ioc: i.ioc,
              ioc_type: i.ioc_type,
              category: i.category,
            })),
            ...flattenMitre(input.mitre_cov),
            detectionRules: [...new Set(input.detection_rules)],
            gossopkaPlannedTime: planned,
            created: now,
            updated: now,
          })
          .returning({ id: incidents.id, key: incidents.key, systemId: incidents.systemId });
        await snapshot(
          tx,
          row!.id,
          input.affected_assets.map((id) => assets.get(id)!),
        );
        await insertAlerts(tx, row!, input.alerts, assets);
        return row!;
      });
      await audit(db, {
        userId: auth.userId,
        action: 'incident.create',
        objectType: 'incident',
        objectId: created.key,
        ip,
        details: {
          system: systemId,
          priority: input.priority,
          alerts: uuids.length,
          via: auth.tokenId ? 'token' : 'session',
        },
      });
      if (planned) await planGossopka(created.id, planned);
      await onCreated(created.id);
      return card.card(created.key, auth, lang);
    },

    /** Changes any field; lists replace the stored ones, `affected_assets` adds snapshots. */
    async updateIncident(
      key: number,
      raw: AnalystIncidentUpdate,
      auth: AuthContext,
      ip: string,
      lang: Language,
    ): Promise<IncidentCard> {
      staffOnly(auth);
      const input = AnalystIncidentUpdateSchema.parse(raw);
      const row = await loadIncident(db, key, auth);
      await checkCategories(row.issueTypeId, input.primary_category, input.secondary_category);
      if (input.service !== undefined) {
        const [s] = await db
          .select({ id: services.id })
          .from(services)
          .where(and(eq(services.id, input.service), eq(services.systemId, row.systemId)));
        if (!s) throw badRequest({ service: [doesNotExist(input.service)] });
      }
      const assets = await assetsOf(row.systemId, input.affected_assets ?? [], 'affected_assets');
      let planned: Date | null | undefined;
      if (input.gossopka_planned_time !== undefined) {
        if (row.gossopkaId)
          throw badRequest({ gossopka_planned_time: ['The incident has already been sent.'] });
        planned = await futurePlan(input.gossopka_planned_time);
      }
      const set = {
        ...(input.service !== undefined ? { serviceId: input.service } : {}),
        ...(input.primary_category !== undefined ? { categoryId: input.primary_category } : {}),
        ...(input.secondary_category !== undefined
          ? { secondaryCategoryIds: [...new Set(input.secondary_category)] }
          : {}),
        ...(input.summary !== undefined ? { summary: input.summary } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.priority !== undefined ? { priority: input.priority } : {}),
        ...(input.tags !== undefined ? { tags: [...new Set(input.tags)] } : {}),
        ...(input.recommendations !== undefined ? { recommendations: input.recommendations } : {}),
        ...(input.status_description !== undefined ? { statusDescription: input.status_description } : {}),
        ...(input.affected_systems !== undefined ? { affectedSystems: input.affected_systems } : {}),
        ...(input.activity_detected_at !== undefined
          ? {
              activityDetectedAt:
                input.activity_detected_at === null ? null : new Date(input.activity_detected_at),
            }
          : {}),
        ...(input.observed_iocs !== undefined
          ? {
              observedIocs: input.observed_iocs.map((i) => ({
                ioc: i.ioc,
                ioc_type: i.ioc_type,
                category: i.category ?? [],
              })),
            }
          : {}),
        ...(input.mitre_cov !== undefined ? flattenMitre(input.mitre_cov) : {}),
        ...(input.detection_rules !== undefined
          ? { detectionRules: [...new Set(input.detection_rules)] }
          : {}),
        ...(planned !== undefined ? { gossopkaPlannedTime: planned } : {}),
      };
      await db.transaction(async (tx) => {
        await tx
          .update(incidents)
          .set({ ...set, updated: new Date() })
          .where(eq(incidents.id, row.id));
        await snapshot(tx, row.id, assets.values());
      });
      await audit(db, {
        userId: auth.userId,
        action: 'incident.update',
        objectType: 'incident',
        objectId: key,
        ip,
        details: {
          fields: Object.keys(input),
          ...(input.priority && input.priority !== row.priority
            ? { priority: [row.priority, input.priority] }
            : {}),
        },
      });
      if (planned) await planGossopka(row.id, planned);
      return card.card(key, auth, lang);
    },

    /** Completed or Canceled, with the analysts' comment (the workflow of DESIGN §5 decides). */
    setStatus(
      key: number,
      raw: AnalystStatus,
      auth: AuthContext,
      ip: string,
      lang: Language,
    ): Promise<IncidentCard> {
      staffOnly(auth);
      const input = AnalystStatusSchema.parse(raw);
      return card.runAction(
        input.status === 'completed' ? 'complete' : 'cancel',
        key,
        { comment: input.comment },
        auth,
        ip,
        lang,
      );
    },

    /** A comment marked as the SOC's; in Waiting for support it hands the incident to the customer. */
    async comment(key: number, raw: AnalystComment, auth: AuthContext, ip: string) {
      staffOnly(auth);
      const input = AnalystCommentSchema.parse(raw);
      const incident = await loadIncident(db, key, auth);
      const me = await displayName(db, auth.userId);
      const result = await db.transaction(async (tx) => {
        const [locked] = await tx
          .select({ id: incidents.id, key: incidents.key, status: incidents.status })
          .from(incidents)
          .where(eq(incidents.id, incident.id))
          .for('update');
        return insertComment(tx, {
          incident: locked!,
          authorId: auth.userId,
          authorName: me.name,
          authorEmail: me.email,
          html: renderMarkdown(input.body),
          source: 'API',
          fromSoc: true,
          affectsStatus: true,
        });
      });
      await audit(db, {
        userId: auth.userId,
        action: 'incident.comment',
        objectType: 'incident',
        objectId: key,
        ip,
        details: {
          comment: result.row.id,
          ...(result.newStatus ? { status: [incident.status, result.newStatus] } : {}),
        },
      });
      if (result.newStatus) await onStatus(incident.id, result.newStatus);
      return {
        id: result.row.id,
        author: result.row.authorName,
        body: result.row.body,
        from_soc: true,
        created: result.row.created.getTime(),
        status: result.newStatus ?? incident.status,
      };
    },

    /** Adds alerts to an incident; a uuid it already has is reported as existing, not stored twice. */
    async addAlerts(
      key: number,
      raw: AnalystAlertsBulk,
      auth: AuthContext,
      ip: string,
    ): Promise<AnalystAlertsBulkResult> {
      staffOnly(auth);
      const input = AnalystAlertsBulkSchema.parse(raw);
      const incident = await loadIncident(db, key, auth);
      const uuids = input.alerts.map((a) => a.uuid);
      if (new Set(uuids).size !== uuids.length)
        throw badRequest({ alerts: ['Each alert uuid may appear once.'] });
      const stored = await storedAlerts(uuids);
      const existing = uuids.filter((u) => stored.get(u)?.incidentId === incident.id);
      const conflicts = uuids.filter((u) => stored.has(u) && stored.get(u)!.incidentId !== incident.id);
      const fresh = input.alerts.filter((a) => !stored.has(a.uuid));
      const assets = await assetsOf(incident.systemId, alertAssetIds(fresh), 'alerts');
      const created = fresh.length
        ? await db.transaction(async (tx) => {
            const ids = await insertAlerts(tx, incident, fresh, assets);
            await tx.update(incidents).set({ updated: new Date() }).where(eq(incidents.id, incident.id));
            return ids;
          })
        : [];
      // a concurrent push of the same uuids stored them first: they are this incident's now
      const raced = fresh.map((a) => a.uuid).filter((u) => !created.includes(u));
      if (created.length) {
        await audit(db, {
          userId: auth.userId,
          action: 'incident.add_alerts',
          objectType: 'incident',
          objectId: key,
          ip,
          details: {
            created: created.length,
            existing: existing.length + raced.length,
            conflicts: conflicts.length,
          },
        });
      }
      return { created, existing: [...existing, ...raced], conflicts };
    },

    async createMisconfigs(
      key: number,
      raw: AnalystMisconfigsCreate,
      auth: AuthContext,
      ip: string,
    ): Promise<Misconfig[]> {
      staffOnly(auth);
      const input = AnalystMisconfigsCreateSchema.parse(raw);
      const incident = await loadIncident(db, key, auth);
      // the recommendations belong to the incident's system and are linked to the incident
      const rows = await db.transaction(async (tx) => {
        const created = await tx
          .insert(misconfigurations)
          .values(
            input.items.map(({ affected_assets, ...m }) => ({
              ...m,
              affectedAssets: affected_assets,
              systemId: incident.systemId,
            })),
          )
          .returning({ id: misconfigurations.id });
        await tx
          .insert(misconfigurationIncidents)
          .values(created.map((m) => ({ misconfigurationId: m.id, incidentId: incident.id })));
        return created;
      });
      await audit(db, {
        userId: auth.userId,
        action: 'incident.misconfigs',
        objectType: 'incident',
        objectId: key,
        ip,
        details: { created: rows.length },
      });
      return (await createMisconfigsRepository(db).byIds(rows.map((r) => r.id))).map(presentMisconfig);
    },

    async createLogSource(raw: AnalystLogSourceCreate, auth: AuthContext, ip: string) {
      staffOnly(auth);
      const input = AnalystLogSourceCreateSchema.parse(raw);
      const systemId = await writableSystem(auth, input.system);
      const [row] = await db
        .insert(logSources)
        .values({
          systemId,
          name: input.name,
          sourceType: input.source_type,
          host: input.host,
          silenceThresholdMinutes: input.silence_threshold_minutes,
        })
        .returning();
      await audit(db, {
        userId: auth.userId,
        action: 'log_source.create',
        objectType: 'log_source',
        objectId: row!.id,
        ip,
        details: { system: systemId, name: row!.name },
      });
      return {
        id: row!.id,
        system: row!.systemId,
        name: row!.name,
        source_type: row!.sourceType,
        host: row!.host,
      };
    },

    /**
     * Event counts of a log source into its hour buckets. The statement triggers on
     * log_source_event_buckets keep eps_hourly (the dashboard's EPS) exact for inserts and updates.
     */
    async pushEps(sourceId: number, raw: EpsSamples, auth: AuthContext, ip: string) {
      staffOnly(auth);
      const input = EpsSamplesSchema.parse(raw);
      const scope = systemScope(auth);
      const [source] = await db.select().from(logSources).where(eq(logSources.id, sourceId));
      if (!source || (scope && !scope.includes(source.systemId))) throw notFound();
      const hours = new Map<number, number>();
      for (const s of input.samples) {
        const start = Math.floor(s.at / HOUR_MS) * HOUR_MS;
        // within one call, samples of an hour add up; `set` then replaces the stored hour with the sum
        hours.set(start, (hours.get(start) ?? 0) + s.events);
      }
      const latest = Math.max(...input.samples.map((s) => s.at));
      const values = [...hours].map(
        ([start, events]) =>
          sql`(${source.id}, ${source.systemId}, ${new Date(start).toISOString()}::timestamptz, ${events})`,
      );
      const rows = await db.transaction(async (tx) => {
        const update =
          input.mode === 'add'
            ? sql`events = log_source_event_buckets.events + EXCLUDED.events`
            : sql`events = EXCLUDED.events`;
        await tx.execute(sql`
          INSERT INTO log_source_event_buckets (log_source_id, system_id, bucket_start, events)
          VALUES ${sql.join(values, sql`, `)}
          ON CONFLICT (log_source_id, bucket_start) DO UPDATE SET ${update}
          WHERE log_source_event_buckets.events IS DISTINCT FROM (${input.mode === 'add' ? sql`log_source_event_buckets.events + EXCLUDED.events` : sql`EXCLUDED.events`})`);
        return queryRows<{ last_event_at: string | Date | null }>(
          tx,
          sql`UPDATE log_sources SET last_event_at = GREATEST(COALESCE(last_event_at, '-infinity'::timestamptz), ${new Date(latest).toISOString()}::timestamptz)
              WHERE id = ${source.id} RETURNING last_event_at`,
        );
      });
      await audit(db, {
        userId: auth.userId,
        action: 'log_source.eps',
        objectType: 'log_source',
        objectId: source.id,
        ip,
        details: { mode: input.mode, buckets: hours.size },
      });
      const last = rows[0]?.last_event_at;
      return { buckets: hours.size, last_event_at: last ? new Date(last).getTime() : null };
    },

    /** Publishes a document (instruction, response instruction, article) through the documents module. */
    publishDocument(kind: DocumentKind, raw: DocumentCreate, auth: AuthContext, ip: string) {
      staffOnly(auth);
      return documents.create(kind, raw, auth, ip);
    },

    /** Creates or replaces a detection rule by its `rule_id`; `created` tells which. */
    async upsertRule(raw: AnalystRuleUpsert, auth: AuthContext, ip: string) {
      staffOnly(auth);
      const input = AnalystRuleUpsertSchema.parse(raw);
      const mitre = flattenMitre(input.mitre_cov);
      // sub-techniques also count for their parents (the rules matrix filters by either)
      const techniques = [
        ...new Set(mitre.techniques.flatMap((t) => (t.includes('.') ? [t, t.split('.')[0]!] : [t]))),
      ];
      const values = {
        ruleId: input.rule_id,
        name: input.name,
        captionRu: input.caption_ru,
        captionEn: input.caption_en,
        descriptionRu: input.description_ru,
        descriptionEn: input.description_en,
        severity: input.severity,
        confidence: input.confidence,
        categories: input.categories,
        availableForServices: input.available_for_services,
        activationMode: input.activation_mode,
        isRequested: input.is_requested,
        mitreCov: mitre.mitreCov,
        tactics: mitre.tactics,
        techniques,
        platforms: input.platforms,
        links: input.links,
        sensorTuples: input.sensor_tuples,
        sensors: [...new Set(input.sensor_tuples.map((s) => s.sensor))],
        sensorModules: [...new Set(input.sensor_tuples.map((s) => s.sensor_module).filter(Boolean))],
        sensorTypes: [...new Set(input.sensor_tuples.map((s) => s.sensor_type).filter(Boolean))],
      };
      const [byName] = await db
        .select({ ruleId: rules.ruleId })
        .from(rules)
        .where(eq(rules.name, input.name));
      if (byName && byName.ruleId !== input.rule_id)
        throw badRequest({ name: ['Another rule has this name.'] });
      const [before] = await db.select({ id: rules.id }).from(rules).where(eq(rules.ruleId, input.rule_id));
      const [row] = before
        ? await db.update(rules).set(values).where(eq(rules.id, before.id)).returning()
        : await db.insert(rules).values(values).returning();
      await audit(db, {
        userId: auth.userId,
        action: before ? 'rule.update' : 'rule.create',
        objectType: 'rule',
        objectId: row!.id,
        ip,
        details: { rule_id: input.rule_id },
      });
      return { created: !before, rule: presentRule(row!) };
    },
  };
}

export type SocApiService = ReturnType<typeof createSocApiService>;
