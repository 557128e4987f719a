import type {
  AttackLayerExport,
  Analytics,
  AnalyticsItem,
  AnalyticsQuery,
  Eps,
  EpsQuery,
  IncidentFilters,
  Language,
  MitreLayerQuery,
  MitreMatrix,
  MitreMatrixQuery,
  TimelineEntry,
} from '@soc/contracts';
import { DASHBOARD_TOP_N, INCIDENT_PRIORITIES, INCIDENT_STATUSES, MITRE_NOTICE } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import type { SystemScope } from '../../lib/scope.ts';
import { effectiveSystems } from '../../lib/scope.ts';
import type { AttackData } from '../../integrations/attack/attack.ts';
import { navigatorLayer } from '../../integrations/attack/navigator-layer.ts';
import { msg } from '../../lib/messages.ts';
import type { AuthContext } from '../../core/auth.ts';
import { systemScope } from '../../core/auth.ts';
import type { AnalyticsRows, DimCount } from './dashboard.repository.ts';
import { createDashboardRepository } from './dashboard.repository.ts';
import { DAY_MS, HOUR_MS, epsExcess, epsOf, epsTimeline, timespanOf } from './eps.ts';

/** Filters the daily table can answer: besides these, the numbers are counted over the incidents. */
const DAILY_FILTERS = new Set(['system__in', 'created__gte', 'created__lte', 'language']);

/** The default range of the EPS figures without a created range: the last 7 days. */
const DEFAULT_EPS_DAYS = 7;
/** At most this many timeline buckets are filled with zeros. */
const MAX_BUCKETS = 10_000;

const percent = (part: number, whole: number) => (whole ? Math.round((part / whole) * 10_000) / 100 : 0);

/** The systems of a layer's metadata: ids, or all the caller may see. */
const systemsOf = (systems: SystemScope, lang: Language) =>
  systems ? systems.join(', ') : msg('layerAllSystems').in(lang);

/** The heat levels' colours in an exported layer (hexadecimal), from none to higher. */
const HEAT_LAYER_COLORS = ['#ffffff', '#fde0dd', '#fcae91', '#fb6a4a', '#cb181d'] as const;

export function createDashboardService({
  db,
  attack,
}: {
  db: Db;
  /** The ATT&CK data in force (integrations/attack/attack.source.ts). */
  attack: () => Promise<AttackData>;
}) {
  const repo = createDashboardRepository(db);
  /** The serialised matrix of the bundle in force: with descriptions and without (?description=false). */
  let matrixJson: { data: AttackData; full?: string; light?: string } | null = null;

  /** Whether only systems and a created range are filtered: then the pre-counted tables answer. */
  const dailyOnly = (filters: IncidentFilters) =>
    Object.entries(filters).every(([k, v]) => v === undefined || DAILY_FILTERS.has(k));

  async function epsFigures(systems: SystemScope, gte: number, lte: number) {
    const [events, contracted] = await Promise.all([
      repo.eventsPerHour(systems, Math.floor(gte / HOUR_MS) * HOUR_MS, lte),
      repo.contractedEps(systems),
    ]);
    return { hourly: events.map(([start, n]) => ({ start, value: epsOf(n) })), contracted };
  }

  /** The figures of any other filter set, counted over the incidents (several statements). */
  async function countedRows(
    filters: IncidentFilters,
    scope: SystemScope,
    span: 'day' | 'hour',
    previous: { gte: number; lte: number } | null,
    eps: { from: number; to: number },
    lang: Language,
  ): Promise<AnalyticsRows> {
    const systems = effectiveSystems(filters, scope);
    const [counts, timeline, eventsPerHour, contractedEps, prev] = await Promise.all([
      repo.counts(filters, scope, DASHBOARD_TOP_N),
      repo.timeline(filters, scope, span),
      repo.eventsPerHour(systems, eps.from, eps.to),
      repo.contractedEps(systems),
      previous
        ? repo.counts(
            { ...filters, created__gte: previous.gte, created__lte: previous.lte },
            scope,
            DASHBOARD_TOP_N,
            ['all', 'sla_breached'],
          )
        : Promise.resolve(null),
    ]);
    const categoryTitles = await repo.categoryTitles(
      counts.filter((c) => c.dim === 'category').map((c) => Number(c.value)),
      lang,
    );
    return { counts, previous: prev, timeline, eventsPerHour, contractedEps, categoryTitles };
  }

  /** Fills the buckets without incidents between the ends of the range with zeros. */
  function fillTimeline(rows: [number, number][], span: 'hour' | 'day', gte?: number, lte?: number) {
    const step = span === 'hour' ? HOUR_MS : DAY_MS;
    const byStart = new Map(rows);
    if (gte === undefined || lte === undefined || (lte - gte) / step > MAX_BUCKETS) {
      return rows.map(([item, value]): TimelineEntry => ({ item, value, timespan: span }));
    }
    const out: TimelineEntry[] = [];
    for (let t = Math.floor(gte / step) * step; t <= lte; t += step) {
      out.push({ item: t, value: byStart.get(t) ?? 0, timespan: span });
    }
    return out;
  }

  return {
    repo,

    /** GET /soc/incs/analytics/: the dashboard's numbers for a filter set (tenant scope applies). */
    async analytics(query: AnalyticsQuery, auth: AuthContext, lang: Language): Promise<Analytics> {
      const { get_prev: getPrev, language: _language, ...filters } = query;
      const scope = systemScope(auth);
      const { created__gte: gte, created__lte: lte } = filters;
      const span = gte !== undefined && lte !== undefined ? timespanOf(gte, lte) : 'day';
      const epsTo = lte ?? Date.now();
      const epsFrom = gte ?? epsTo - DEFAULT_EPS_DAYS * DAY_MS;
      const eps = { from: Math.floor(epsFrom / HOUR_MS) * HOUR_MS, to: epsTo };

      const prevRange =
        getPrev && gte !== undefined && lte !== undefined
          ? { gte: gte - (lte - gte + 1), lte: gte - 1 }
          : null;
      const rows = dailyOnly(filters)
        ? await repo.analytics({
            systems: effectiveSystems(filters, scope),
            gte,
            lte,
            span,
            topN: DASHBOARD_TOP_N,
            previous: prevRange,
            eps,
            lang,
          })
        : await countedRows(filters, scope, span, prevRange, eps, lang);
      const { counts, previous } = rows;
      const values = rows.eventsPerHour.map(([, n]) => epsOf(n));

      const dim = (name: string) => counts.filter((c) => c.dim === name);
      const one = (rows: DimCount[], name: string, value: string) =>
        rows.find((c) => c.dim === name && c.value === value)?.n ?? 0;
      const items = (rows: DimCount[]): AnalyticsItem[] => rows.map((c) => ({ item: c.value, value: c.n }));
      const ordered = (name: string, order: readonly string[]) =>
        items(dim(name).sort((a, b) => order.indexOf(a.value) - order.indexOf(b.value)));

      const count = one(counts, 'all', '');
      const breached = one(counts, 'sla_breached', 'true');
      const categories = dim('category');
      return {
        count,
        critical_count: one(counts, 'priority', 'critical'),
        waiting_for_customer: one(counts, 'status', 'waiting_for_customer'),
        sla_breached: percent(breached, count),
        sla_breached_count: breached,
        previous:
          previous && prevRange
            ? {
                count: one(previous, 'all', ''),
                sla_breached: percent(one(previous, 'sla_breached', 'true'), one(previous, 'all', '')),
                created__gte: prevRange.gte,
                created__lte: prevRange.lte,
              }
            : null,
        eps: {
          average: values.length
            ? Math.round((values.reduce((s, v) => s + v, 0) / values.length) * 100) / 100
            : 0,
          contracted: rows.contractedEps,
          max: values.reduce((m, v) => Math.max(m, v), 0),
        },
        mitre: items(dim('technique')),
        tactics: items(dim('tactic')),
        priority: ordered('priority', INCIDENT_PRIORITIES),
        status: ordered('status', INCIDENT_STATUSES),
        category: categories.map((c) => ({
          item: c.value,
          value: c.n,
          title: rows.categoryTitles.get(Number(c.value)) ?? c.value,
        })),
        top_domains: items(dim('domain')),
        top_ips: items(dim('ip')),
        timeline: fillTimeline(rows.timeline, span, gte, lte),
      };
    },

    /** GET /soc/dashboards/eps/: the EPS timeline and its excess over the contracted EPS. */
    async eps(query: EpsQuery, auth: AuthContext): Promise<Eps> {
      const systems = effectiveSystems(query, systemScope(auth));
      const lte = query.created__lte ?? Date.now();
      const gte = query.created__gte ?? lte - DEFAULT_EPS_DAYS * DAY_MS;
      const { hourly, contracted } = await epsFigures(systems, gte, lte);
      return {
        timeline: epsTimeline(hourly, timespanOf(gte, lte)),
        contracted_eps: contracted,
        ...epsExcess(hourly, contracted),
      };
    },

    /**
     * The MITRE widget's incident counts per technique for the filters (period, systems) as an
     * ATT&CK Navigator layer (format 4.5): score = incidents, the gradient runs from none to the
     * most frequent technique, the legend gives the widget's heat levels, the metadata the period
     * and systems.
     */
    async mitreLayer(query: MitreLayerQuery, auth: AuthContext, lang: Language): Promise<AttackLayerExport> {
      const [figures, data] = await Promise.all([this.analytics(query, auth, lang), attack()]);
      const max = figures.mitre.reduce((m, c) => Math.max(m, c.value), 0);
      const iso = (ms: number | undefined) => (ms === undefined ? '…' : new Date(ms).toISOString());
      return navigatorLayer({
        name: msg(
          'layerIncidentsName',
          iso(query.created__gte).slice(0, 10),
          iso(query.created__lte).slice(0, 10),
        ).in(lang),
        description: msg('layerIncidentsDescription').in(lang),
        attackVersion: data.version,
        techniques: [...figures.mitre]
          .sort((a, b) => a.item.localeCompare(b.item))
          .map((c) => ({
            id: c.item,
            score: c.value,
            comment: msg('layerIncidentsComment', c.value).in(lang),
          })),
        gradient: { colors: [...HEAT_LAYER_COLORS], minValue: 0, maxValue: max },
        legend: [
          { label: msg('layerHeatLow').in(lang), color: HEAT_LAYER_COLORS[1] },
          { label: msg('layerHeatMedium').in(lang), color: HEAT_LAYER_COLORS[2] },
          { label: msg('layerHeatHigh').in(lang), color: HEAT_LAYER_COLORS[3] },
          { label: msg('layerHeatHigher').in(lang), color: HEAT_LAYER_COLORS[4] },
        ],
        metadata: [
          {
            name: msg('layerPeriod').in(lang),
            value: `${iso(query.created__gte)} – ${iso(query.created__lte)}`,
          },
          {
            name: msg('layerSystems').in(lang),
            // the systems counted: those of the filter that the caller may see
            value: systemsOf(effectiveSystems(query, systemScope(auth)), lang),
          },
        ],
      });
    },

    /**
     * GET /soc/mitre_matrix/ as JSON text, serialised once per loaded bundle and variant (about
     * 1.4 MB with the descriptions). The same string object each time: the compression plugin
     * keeps its compressed forms by it, so each variant is compressed once.
     */
    async mitreMatrixJson({ description = true }: MitreMatrixQuery = {}): Promise<string> {
      const data = await attack();
      if (matrixJson?.data !== data) matrixJson = { data };
      const variant = description ? 'full' : 'light';
      return (matrixJson[variant] ??= JSON.stringify(await this.mitreMatrix({ description })));
    },

    /** GET /soc/mitre_matrix/: ATT&CK Enterprise from MITRE's bundle (empty with `available: false`). */
    async mitreMatrix({ description = true }: MitreMatrixQuery = {}): Promise<MitreMatrix> {
      const data = await attack();
      return {
        available: data.available,
        version: data.version,
        tactics: data.tactics.map((t) => ({
          id: t.id,
          name: t.name,
          short_name: t.shortName,
          is_hidden: t.isDeprecated,
        })),
        techniques: data.techniques.map((t) => ({
          technique_id: t.id,
          name: t.name,
          url: t.url,
          ...(description ? { description: t.description } : {}),
          tactics: t.tactics,
          sub_techniques: t.subTechniques,
          is_subtechnique: t.isSubtechnique,
          is_revoked: t.isRevoked,
          is_deprecated: t.isDeprecated,
        })),
        notice: MITRE_NOTICE,
      };
    },
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
