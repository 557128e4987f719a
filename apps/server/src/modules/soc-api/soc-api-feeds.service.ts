import type {
  AnalystAlertsBulk,
  AnalystAlertsBulkResult,
  AnalystLogSourceCreate,
  AnalystMisconfigsCreate,
  AnalystRuleUpsert,
  DocumentCreate,
  DocumentKind,
  EpsSamples,
  Misconfig,
} from '@soc/contracts';
import {
  AnalystAlertsBulkSchema,
  AnalystLogSourceCreateSchema,
  AnalystMisconfigsCreateSchema,
  AnalystRuleUpsertSchema,
  EpsSamplesSchema,
} from '@soc/contracts';
import { audit } from '../../lib/audit.ts';
import { badRequest, notFound } from '../../lib/http-errors.ts';
import type { AuthContext } from '../../core/auth.ts';
import { systemScope } from '../../core/auth.ts';
import { createMisconfigsRepository, presentMisconfig } from '../misconfigs/index.ts';
import { createIncidentWritesRepository, loadIncident } from '../incidents/index.ts';
import { presentRule } from '../rules/index.ts';
import { createSocApiRepository } from './soc-api.repository.ts';
import type { SocApiContext } from './soc-api.context.ts';
import {
  alertAssetIds,
  assetsOf,
  flattenMitre,
  insertAlerts,
  staffOnly,
  storedAlerts,
  writableSystem,
} from './soc-api.shared.ts';

const HOUR_MS = 3_600_000;

/** The analyst API's feeds: alerts, misconfigurations, log sources and EPS, documents, rules. */
export function createSocApiFeeds({ db, documents }: SocApiContext) {
  const repo = createSocApiRepository(db);
  return {
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
      const stored = await storedAlerts(db, uuids);
      const existing = uuids.filter((u) => stored.get(u)?.incidentId === incident.id);
      const conflicts = uuids.filter((u) => stored.has(u) && stored.get(u)!.incidentId !== incident.id);
      const fresh = input.alerts.filter((a) => !stored.has(a.uuid));
      const assets = await assetsOf(db, incident.systemId, alertAssetIds(fresh), 'alerts');
      const created = fresh.length
        ? await db.transaction(async (tx) => {
            const ids = await insertAlerts(tx, incident, fresh, assets);
            await createIncidentWritesRepository(tx).touchIncident(incident.id);
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
      const rows = await db.transaction((tx) =>
        createSocApiRepository(tx).insertIncidentMisconfigs(
          incident.id,
          input.items.map(({ affected_assets, ...m }) => ({
            ...m,
            affectedAssets: affected_assets,
            systemId: incident.systemId,
          })),
        ),
      );
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
      const systemId = await writableSystem(db, auth, input.system);
      const row = await repo.insertLogSource({
        systemId,
        name: input.name,
        sourceType: input.source_type,
        host: input.host,
        silenceThresholdMinutes: input.silence_threshold_minutes,
      });
      await audit(db, {
        userId: auth.userId,
        action: 'log_source.create',
        objectType: 'log_source',
        objectId: row.id,
        ip,
        details: { system: systemId, name: row.name },
      });
      return {
        id: row.id,
        system: row.systemId,
        name: row.name,
        source_type: row.sourceType,
        host: row.host,
      };
    },

    /**
     * Event counts of a log source into its hour buckets. The statement triggers on
     * log_source_event_buckets keep eps_hourly (the dashboard's EPS) exact for inserts and updates.
     */
    async pushEps(sourceId: number, raw: EpsSamples, auth: AuthContext, ip: string) {
      staffOnly(auth);
      const input = EpsSamplesSchema.parse(raw);
      const source = await repo.logSourceInScope(sourceId, systemScope(auth));
      if (!source) throw notFound();
      const hours = new Map<number, number>();
      for (const s of input.samples) {
        const start = Math.floor(s.at / HOUR_MS) * HOUR_MS;
        // within one call, samples of an hour add up; `set` then replaces the stored hour with the sum
        hours.set(start, (hours.get(start) ?? 0) + s.events);
      }
      const latest = Math.max(...input.samples.map((s) => s.at));
      const last = await db.transaction((tx) =>
        createSocApiRepository(tx).writeEpsBuckets(source, hours, input.mode, latest),
      );
      await audit(db, {
        userId: auth.userId,
        action: 'log_source.eps',
        objectType: 'log_source',
        objectId: source.id,
        ip,
        details: { mode: input.mode, buckets: hours.size },
      });
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
      const nameOf = await repo.ruleIdOfName(input.name);
      if (nameOf !== undefined && nameOf !== input.rule_id)
        throw badRequest({ name: ['Another rule has this name.'] });
      const before = await repo.ruleByRuleId(input.rule_id);
      const row = await repo.saveRule(before?.id, values);
      await audit(db, {
        userId: auth.userId,
        action: before ? 'rule.update' : 'rule.create',
        objectType: 'rule',
        objectId: row.id,
        ip,
        details: { rule_id: input.rule_id },
      });
      return { created: !before, rule: presentRule(row) };
    },
  };
}
