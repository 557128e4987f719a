import type { SQL } from 'drizzle-orm';
import { and, asc, count, desc, eq, getTableColumns, gte, inArray, lte, sql } from 'drizzle-orm';
import type { RuleFilters, RuleOrdering } from '@soc/contracts';
import type { Db, PreparableQuery } from '../../db/client.ts';
import { executeNamed, queryRows } from '../../db/client.ts';
import { rules, services } from '../../db/schema/index.ts';
import { likePattern } from '../../lib/pagination.ts';

export type RuleRow = typeof rules.$inferSelect;
/** A rule as lists read it: without the imported YAML, which only its page shows. */
export type RuleListRow = Omit<RuleRow, 'sourceYaml'>;
const { sourceYaml: _yaml, ...LIST_COLUMNS } = getTableColumns(rules);
export type RuleInsert = typeof rules.$inferInsert;
/** Rows are read and written by the import in slices of this many. */
const IMPORT_SLICE = 500;

/** Service levels whose rules a caller sees: null for the provider's staff (every rule). */
export type RuleScope = string[] | null;

const ORDER: Record<RuleOrdering, SQL[]> = {
  created: [asc(rules.created), asc(rules.id)],
  '-created': [desc(rules.created), desc(rules.id)],
};

const overlaps = (column: typeof rules.categories, values: string[]) =>
  sql`${column} && ${sql.param(values)}::text[]`;

/** Array columns behind the filter suggestions. */
const SUGGEST_COLUMNS = {
  categories: rules.categories,
  sensors: rules.sensors,
  sensor_types: rules.sensorTypes,
  sensor_modules: rules.sensorModules,
  platforms: rules.platforms,
} as const;
export type RuleSuggestField = keyof typeof SUGGEST_COLUMNS;

/** The WHERE clause of a rule filter set within a scope. */
export function ruleConditions(f: RuleFilters, scope: RuleScope): SQL | undefined {
  const c: (SQL | undefined)[] = [];
  if (scope) c.push(scope.length ? overlaps(rules.availableForServices, scope) : sql`FALSE`);
  if (f.search) {
    // the expression matches the trigram index rules_search_trgm
    c.push(
      sql`(${rules.ruleId} || ' ' || ${rules.name} || ' ' || ${rules.captionRu} || ' ' || ${rules.captionEn}) ILIKE ${likePattern(f.search)}`,
    );
  }
  if (f.severity__in) c.push(inArray(rules.severity, f.severity__in));
  if (f.confidence__in) c.push(inArray(rules.confidence, f.confidence__in));
  if (f.category__in) c.push(overlaps(rules.categories, f.category__in));
  if (f.created__gte) c.push(gte(rules.created, f.created__gte));
  if (f.created__lte) c.push(lte(rules.created, f.created__lte));
  if (f.mitre_tactic__in) c.push(overlaps(rules.tactics, f.mitre_tactic__in));
  if (f.mitre_technique__in) c.push(overlaps(rules.techniques, f.mitre_technique__in));
  if (f.mitre_platform__in) c.push(overlaps(rules.platforms, f.mitre_platform__in));
  if (f.id__in) c.push(inArray(rules.id, f.id__in));
  if (f.name__in) c.push(inArray(rules.name, f.name__in));
  if (f.available_for_services__in)
    c.push(overlaps(rules.availableForServices, f.available_for_services__in));
  if (f.is_requested !== undefined) c.push(eq(rules.isRequested, f.is_requested));
  if (f.activation_mode__in) c.push(inArray(rules.activationMode, f.activation_mode__in));
  if (f.sensor__in) c.push(overlaps(rules.sensors, f.sensor__in));
  if (f.sensor_type__in) c.push(overlaps(rules.sensorTypes, f.sensor_type__in));
  if (f.sensor_module__in) c.push(overlaps(rules.sensorModules, f.sensor_module__in));
  return and(...c);
}

export function createRulesRepository(db: Db) {
  return {
    /** Service names of the given systems (the customer's rule scope). */
    async serviceNames(systemIds: number[]): Promise<string[]> {
      if (!systemIds.length) return [];
      const rows = await executeNamed(
        db
          .selectDistinct({ name: services.name })
          .from(services)
          .where(inArray(services.systemId, systemIds)),
      );
      return rows.map((r) => r.name);
    },

    /**
     * A page of rules and their total. Without filters (the list as it opens: the scope alone,
     * one text per ordering) both statements are named, planned once per connection.
     */
    async list(f: RuleFilters, scope: RuleScope, ordering: RuleOrdering, limit: number, offset: number) {
      const where = ruleConditions(f, scope);
      const unfiltered = Object.values(f).every((value) => value === undefined);
      const run = <T>(query: PromiseLike<T> & PreparableQuery<T>): Promise<T> =>
        unfiltered ? executeNamed(query) : Promise.resolve(query);
      const [rows, [total]] = await Promise.all([
        run(
          db
            .select(LIST_COLUMNS)
            .from(rules)
            .where(where)
            .orderBy(...ORDER[ordering])
            .limit(limit)
            .offset(offset),
        ),
        run(db.select({ n: count() }).from(rules).where(where)),
      ]);
      return { rows, total: total?.n ?? 0 };
    },

    async byId(id: number, scope: RuleScope): Promise<RuleRow | undefined> {
      const [row] = await db
        .select()
        .from(rules)
        .where(and(eq(rules.id, id), ruleConditions({}, scope)));
      return row;
    },

    /** count, count since `since`, custom rules, for a filter set. */
    async counts(f: RuleFilters, scope: RuleScope, since: Date) {
      const [row] = await db
        .select({
          count: count(),
          lastMonth:
            sql<number>`count(*) FILTER (WHERE ${rules.created} >= ${since.toISOString()}::timestamptz)`.mapWith(
              Number,
            ),
          requested: sql<number>`count(*) FILTER (WHERE ${rules.isRequested})`.mapWith(Number),
        })
        .from(rules)
        .where(ruleConditions(f, scope));
      return { count: row?.count ?? 0, lastMonth: row?.lastMonth ?? 0, requested: row?.requested ?? 0 };
    },

    /** Matching rules per technique id (parents include their sub-techniques' rules). */
    async techniqueCounts(f: RuleFilters, scope: RuleScope): Promise<Map<string, number>> {
      const where = ruleConditions(f, scope);
      const rows = await queryRows<{ t: string; n: number }>(
        db,
        sql`SELECT t, count(*)::int AS n FROM ${rules}, unnest(${rules.techniques}) AS t ${where ? sql`WHERE ${where}` : sql``} GROUP BY t`,
      );
      return new Map(rows.map((r) => [r.t, Number(r.n)]));
    },

    /** Rule codes (`SOC-R-0001`) per technique id among the matching rules, sorted. */
    async techniqueRuleIds(f: RuleFilters, scope: RuleScope): Promise<Map<string, string[]>> {
      const where = ruleConditions(f, scope);
      const rows = await queryRows<{ t: string; ids: string[] }>(
        db,
        sql`SELECT t, array_agg(${rules.ruleId} ORDER BY ${rules.ruleId}) AS ids
            FROM ${rules}, unnest(${rules.techniques}) AS t ${where ? sql`WHERE ${where}` : sql``} GROUP BY t`,
      );
      return new Map(rows.map((r) => [r.t, r.ids]));
    },

    /** Distinct values of an array column among the rules in scope, filtered by substring. */
    async suggest(field: RuleSuggestField, scope: RuleScope, text: string | undefined, limit: number) {
      const column = SUGGEST_COLUMNS[field];
      const where = ruleConditions({}, scope);
      const rows = await queryRows<{ v: string }>(
        db,
        sql`SELECT DISTINCT v FROM ${rules}, unnest(${column}) AS v
            WHERE ${where ?? sql`TRUE`} ${text ? sql`AND v ILIKE ${likePattern(text)}` : sql``}
            ORDER BY v LIMIT ${limit}`,
      );
      return rows.map((r) => r.v);
    },
  };
}
export type RulesRepository = ReturnType<typeof createRulesRepository>;

const slices = <T>(items: T[]): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += IMPORT_SLICE) out.push(items.slice(i, i + IMPORT_SLICE));
  return out;
};

/** What a rule import reads and writes (rules.import.ts). */
export function createRuleImportRepository(db: Db) {
  return {
    /** The rules that hold these rule ids. */
    async byRuleIds(ruleIds: string[]): Promise<RuleRow[]> {
      const rows: RuleRow[] = [];
      for (const part of slices(ruleIds))
        rows.push(...(await db.select().from(rules).where(inArray(rules.ruleId, part))));
      return rows;
    },

    /** Which of these detection names rules already have. */
    async takenNames(names: string[]): Promise<Set<string>> {
      const taken = new Set<string>();
      for (const part of slices(names))
        for (const r of await db.select({ name: rules.name }).from(rules).where(inArray(rules.name, part)))
          taken.add(r.name);
      return taken;
    },

    /** New rules and changes of existing ones, in one transaction: all of them or none. */
    async write(
      created: RuleInsert[],
      updated: { id: number; values: Partial<RuleInsert> }[],
    ): Promise<void> {
      await db.transaction(async (tx) => {
        for (const part of slices(created)) await tx.insert(rules).values(part);
        for (const u of updated) await tx.update(rules).set(u.values).where(eq(rules.id, u.id));
      });
    },
  };
}
