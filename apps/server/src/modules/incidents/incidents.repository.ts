import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type {
  IncidentFilters,
  IncidentOrdering,
  IncidentPriority,
  IncidentStatus,
  Language,
} from '@soc/contracts';
import { DEFAULT_INCIDENT_ORDERING, TOTAL_COUNT_CAP } from '@soc/contracts';
import type { Database, Db } from '../../db/client.ts';
import { queryRows, queryRowsNamed } from '../../db/client.ts';
import { effectiveSystems, inScope, type SystemScope } from '../../lib/scope.ts';
import { likePattern, sqlList as list } from '../../lib/pagination.ts';

export type { SystemScope } from '../../lib/scope.ts';

/** One incident row with the names the list and the CSV show. */
export interface IncidentRow {
  id: string;
  key: number;
  summary: string;
  priority: string;
  status: string;
  created: Date;
  updated: Date;
  system_id: number;
  system_is_id: string;
  system_name: string;
  service_id: number | null;
  service_name: string | null;
  issuetype_id: number;
  issuetype_code: string;
  issuetype_title: string;
  category_id: number | null;
  category_title: string | null;
  secondary: { id: number; title: string }[] | string;
  tags: string[];
  sla: Date | null;
  sla_breached: boolean;
  notified_at: Date | null;
  assignee_id: number | null;
  assignee_username: string | null;
  assignee_name: string | null;
  resolution: 'TP' | 'FP' | null;
  resolution_id: number | null;
  resolution_title: string | null;
  resolution_date: Date | null;
  gossopka_id: string | null;
  reporter_name: string;
  customer_star_rating: number | null;
  comments_count: number;
  priority_rank: number;
  status_rank: number;
  /** Exact sort timestamps for keyset paging (a JS Date drops microseconds). */
  created_cursor: string;
  updated_cursor: string;
}

/** The card's statement (`card`): a list row with the record, files and related incidents as JSON. */
export interface IncidentCardRow extends IncidentRow {
  /** `row_to_json` of the incidents row: column names, timestamps as ISO text (see `incidentFromJson`). */
  record: Record<string, unknown> | string;
  files: CardFileJson[] | string;
  related: CardRelatedJson[] | string;
}

export interface CardFileJson {
  id: string;
  filename: string;
  content_type: string;
  size: number;
  created: string;
}

export interface CardRelatedJson {
  key: number;
  summary: string;
  status: IncidentStatus;
  priority: IncidentPriority;
  created: string;
}

const at = (ms: number) => sql`${new Date(ms).toISOString()}::timestamptz`;

/** The values of the generated rank columns (see the schema). */
const PRIORITY_RANK: Record<IncidentPriority, number> = { critical: 4, high: 3, medium: 2, low: 1 };
const STATUS_RANK: Record<IncidentStatus, number> = {
  waiting_for_customer: 1,
  waiting_for_support: 2,
  work_in_progress: 3,
  customer_completed: 4,
  completed: 5,
  closed: 6,
  canceled: 7,
};

/** Filters on text that no ordering index serves: an ordered scan checks each row it passes. */
const TEXT_FILTERS = ['search', 'summary__icontains', 'host__icontains'] as const;
type TextFilterName = (typeof TEXT_FILTERS)[number];

/** A text filter's condition on one incident `i`. */
function textMatch(name: TextFilterName, term: string): SQL {
  const pattern = likePattern(term);
  switch (name) {
    case 'search':
      // as ILIKE over summary and description (which lower-cases both sides), on the text
      // lower-cased on write that the trigram index incidents_search_text_trgm holds
      return sql`i.search_text LIKE lower(${pattern})`;
    case 'summary__icontains':
      return sql`i.summary ILIKE ${pattern}`;
    case 'host__icontains':
      return sql`EXISTS (SELECT 1 FROM unnest(i.affected_systems) AS h(name) WHERE h.name ILIKE ${pattern})`;
  }
}

/** The search's number, when the term is one: an incident of that key matches as well. */
const searchKey = (term: string): number | null => (/^\d{1,15}$/.test(term) ? Number(term) : null);

/** The filters that are set beside `system__in` (which only narrows the caller's systems). */
const filtersBesideSystems = (filters: IncidentFilters) =>
  Object.entries(filters).filter(([name, v]) => v !== undefined && name !== 'system__in');

/** The WHERE clause of a filter set, always limited to the caller's systems. */
export function incidentConditions(filters: IncidentFilters, scope: SystemScope): SQL {
  const c: SQL[] = [];
  const own = inScope(sql`i.system_id`, scope);
  if (own) c.push(own);
  const f = filters;
  if (f.key__in) c.push(sql`i.key IN (${list(f.key__in)})`);
  if (f.system__in) c.push(sql`i.system_id IN (${list(f.system__in)})`);
  if (f.category__in) {
    c.push(
      sql`(i.category_id IN (${list(f.category__in)}) OR i.secondary_category_ids && ARRAY[${list(f.category__in)}]::integer[])`,
    );
  }
  if (f.issuetype__in) c.push(sql`i.issue_type_id IN (${list(f.issuetype__in)})`);
  // by rank: the (system, rank, created, key) indexes then serve both the page and the count
  if (f.priority__in) c.push(sql`i.priority_rank IN (${list(f.priority__in.map((p) => PRIORITY_RANK[p]))})`);
  if (f.status__in) c.push(sql`i.status_rank IN (${list(f.status__in.map((p) => STATUS_RANK[p]))})`);
  if (f.service__in)
    c.push(sql`i.service_id IN (SELECT sv.id FROM services sv WHERE sv.name IN (${list(f.service__in)}))`);
  const ranges: [number | undefined, number | undefined, string][] = [
    [f.created__gte, f.created__lte, 'created'],
    [f.updated__gte, f.updated__lte, 'updated'],
    [f.notified__gte, f.notified__lte, 'notified_at'],
    [f.resolutiondate__gte, f.resolutiondate__lte, 'resolution_date'],
    [f.sla__gte, f.sla__lte, 'sla'],
  ];
  for (const [gte, lte, column] of ranges) {
    // column names come from the fixed list above, never from the request
    if (gte !== undefined) c.push(sql`i.${sql.raw(column)} >= ${at(gte)}`);
    if (lte !== undefined) c.push(sql`i.${sql.raw(column)} <= ${at(lte)}`);
  }
  if (f.sla_breached !== undefined) c.push(sql`i.sla_breached = ${f.sla_breached}`);
  if (f.gossopka_id__isnull !== undefined) {
    c.push(f.gossopka_id__isnull ? sql`i.gossopka_id IS NULL` : sql`i.gossopka_id IS NOT NULL`);
  }
  if (f.resolution__in) c.push(sql`i.resolution IN (${list(f.resolution__in)})`);
  if (f.resolution_name__in) c.push(sql`i.resolution_id IN (${list(f.resolution_name__in)})`);
  if (f.customer_assignee__in) c.push(sql`i.customer_assignee_id IN (${list(f.customer_assignee__in)})`);
  if (f.customer_assignee__isnull !== undefined) {
    c.push(
      f.customer_assignee__isnull
        ? sql`i.customer_assignee_id IS NULL`
        : sql`i.customer_assignee_id IS NOT NULL`,
    );
  }
  if (f.tactic__in) c.push(sql`i.tactics && ARRAY[${list(f.tactic__in)}]::text[]`);
  if (f.technique__in) c.push(sql`i.techniques && ARRAY[${list(f.technique__in)}]::text[]`);
  if (f.rule__in) c.push(sql`i.detection_rules && ARRAY[${list(f.rule__in)}]::text[]`);
  if (f.rule_id__in) {
    c.push(
      sql`i.detection_rules && ARRAY(SELECT r.name FROM rules r WHERE r.id IN (${list(f.rule_id__in)}))`,
    );
  }
  if (f.tags__in) c.push(sql`i.tags && ARRAY[${list(f.tags__in)}]::text[]`);
  if (f.ioc__in) {
    // case-insensitive, like the dashboard's top lists; the expression matches incidents_iocs_gin
    const values = f.ioc__in.map((ioc) => ioc.toLowerCase());
    c.push(sql`incident_ioc_values(i.observed_iocs) && ARRAY[${list(values)}]::text[]`);
  }
  if (f.host__icontains) c.push(textMatch('host__icontains', f.host__icontains));
  if (f.summary__icontains) c.push(textMatch('summary__icontains', f.summary__icontains));
  if (f.search) {
    const text = textMatch('search', f.search);
    const asKey = searchKey(f.search);
    c.push(asKey === null ? text : sql`(i.key = ${asKey} OR ${text})`);
  }
  return c.length ? sql.join(c, sql` AND `) : sql`TRUE`;
}

/** Sort columns of each ordering; ties follow the same direction so one index serves both. */
const ORDER_COLUMNS: Record<string, string[]> = {
  created: ['created', 'key'],
  updated: ['updated', 'key'],
  priority: ['priority_rank', 'created', 'key'],
  status: ['status_rank', 'created', 'key'],
};

function orderParts(ordering: IncidentOrdering): { columns: string[]; desc: boolean } {
  const desc = ordering.startsWith('-');
  return { columns: ORDER_COLUMNS[ordering.replace('-', '')]!, desc };
}

const orderBy = (ordering: IncidentOrdering, alias: string): SQL => {
  const { columns, desc } = orderParts(ordering);
  return sql.raw(columns.map((c) => `${alias}.${c} ${desc ? 'DESC' : 'ASC'}`).join(', '));
};

/** The sort tuple of a row, for the keyset condition of the next batch. */
type CsvCursor = Pick<
  IncidentRow,
  'key' | 'priority_rank' | 'status_rank' | 'created_cursor' | 'updated_cursor'
>;

/** The texts that CSV cells take in the export's language. */
export interface CsvLabels {
  statuses: Record<string, string>;
  priorities: Record<string, string>;
  resolutions: Record<string, string>;
  yes: string;
  no: string;
}

/** The value of a sort column of a row, as SQL, for the keyset condition. */
function cursorValue(row: CsvCursor, column: string): SQL {
  switch (column) {
    case 'created':
      return sql`${row.created_cursor}::timestamptz`;
    case 'updated':
      return sql`${row.updated_cursor}::timestamptz`;
    case 'priority_rank':
      return sql`${row.priority_rank}::smallint`;
    case 'status_rank':
      return sql`${row.status_rank}::smallint`;
    default:
      return sql`${row.key}::bigint`;
  }
}

const title = (lang: Language) => sql.raw(lang === 'ru' ? 'title_ru' : 'title_en');

/** The columns lists and exports read: not the long texts (description, recommendations, JSON). */
const PAGE_COLUMNS = sql.raw(
  [
    'id',
    'key',
    'summary',
    'priority',
    'status',
    'created',
    'updated',
    'system_id',
    'service_id',
    'issue_type_id',
    'category_id',
    'secondary_category_ids',
    'tags',
    'sla',
    'sla_breached',
    'notified_at',
    'customer_assignee_id',
    'resolution',
    'resolution_id',
    'resolution_date',
    'gossopka_id',
    'reporter_name',
    'customer_star_rating',
    'priority_rank',
    'status_rank',
  ]
    .map((c) => `i.${c}`)
    .join(', '),
);

/**
 * The details of a set of incident rows (the page CTE `p`), with names in `lang`. The names of
 * the service, category and resolution are scalar subqueries rather than joins: with seven joined
 * relations the planner searched their join orders on every request, and planning cost more than
 * executing. The page is MATERIALIZED: inlined, the planner searched the join order of nine
 * relations over the many indexes of incidents on every request (figures in docs/performance.md,
 * History).
 */
function detailsQuery(pageSql: SQL, ordering: IncidentOrdering, lang: Language, extra = sql``): SQL {
  return sql`
    WITH p AS MATERIALIZED (${pageSql})
    SELECT p.id, p.key::int AS key, p.summary, p.priority, p.status, p.created, p.updated,
           p.system_id, s.is_id AS system_is_id, s.full_name AS system_name,
           p.service_id, (SELECT sv.name FROM services sv WHERE sv.id = p.service_id) AS service_name,
           p.issue_type_id AS issuetype_id, it.code AS issuetype_code, it.${title(lang)} AS issuetype_title,
           p.category_id, (SELECT c.${title(lang)} FROM categories c WHERE c.id = p.category_id) AS category_title,
           COALESCE((SELECT json_agg(json_build_object('id', sc.id, 'title', sc.${title(lang)}) ORDER BY sc.id)
                       FROM categories sc WHERE sc.id = ANY(p.secondary_category_ids)), '[]'::json) AS secondary,
           p.tags, p.sla, p.sla_breached, p.notified_at,
           u.id AS assignee_id, u.username AS assignee_username,
           NULLIF(trim(u.first_name || ' ' || u.last_name), '') AS assignee_name,
           p.resolution, p.resolution_id,
           (SELECT r.${title(lang)} FROM resolutions r WHERE r.id = p.resolution_id) AS resolution_title, p.resolution_date,
           p.gossopka_id, p.reporter_name, p.customer_star_rating,
           (SELECT count(*)::int FROM comments cm WHERE cm.incident_id = p.id) AS comments_count,
           p.priority_rank, p.status_rank, p.created::text AS created_cursor, p.updated::text AS updated_cursor${extra}
      FROM p
      JOIN systems s ON s.id = p.system_id
      JOIN issue_types it ON it.id = p.issue_type_id
      LEFT JOIN users u ON u.id = p.customer_assignee_id
     ORDER BY ${orderBy(ordering, 'p')}`;
}

/** Up to this many systems, a page is merged from one ordered index scan per system. */
const MERGE_MAX_SYSTEMS = 16;

/**
 * The keys of one page, in order. Only the sort columns and the key are read here, so that the
 * ordering indexes (which hold all of them) serve skipped rows of deep pages without heap visits;
 * the page's own rows are read afterwards. A caller with several systems gets one ordered scan
 * of the per-system index for each, merged (an IN list over systems would sort every match).
 */
function pageKeysQuery(
  filters: IncidentFilters,
  scope: SystemScope,
  ordering: IncidentOrdering,
  limit: number,
  offset: number,
  sparse = false,
): SQL {
  const { columns } = orderParts(ordering);
  const select = sql.raw(columns.map((c) => `i.${c}`).join(', '));
  if (sparse) {
    // every match first (OFFSET 0 keeps the planner from walking an ordering index and checking
    // the text of each row it passes: it reads the matches through their own indexes), then the page
    return sql`SELECT i.key FROM (SELECT ${select} FROM incidents i WHERE ${incidentConditions(filters, scope)} OFFSET 0) i
                ORDER BY ${orderBy(ordering, 'i')} LIMIT ${limit} OFFSET ${offset}`;
  }
  const systems = effectiveSystems(filters, scope);
  if (!systems || systems.length < 2 || systems.length > MERGE_MAX_SYSTEMS) {
    return sql`SELECT i.key FROM incidents i WHERE ${incidentConditions(filters, scope)}
                ORDER BY ${orderBy(ordering, 'i')} LIMIT ${limit} OFFSET ${offset}`;
  }
  const branches = systems.map(
    (id) => sql`(SELECT ${select} FROM incidents i WHERE ${incidentConditions(filters, [id])}
                  ORDER BY ${orderBy(ordering, 'i')} LIMIT ${offset + limit})`,
  );
  return sql`SELECT i.key FROM (${sql.join(branches, sql` UNION ALL `)}) i
              ORDER BY ${orderBy(ordering, 'i')} LIMIT ${limit} OFFSET ${offset}`;
}

/** The incident rows of one page (the page CTE of `detailsQuery`). */
const pageSql = (
  filters: IncidentFilters,
  scope: SystemScope,
  ordering: IncidentOrdering,
  limit: number,
  offset: number,
  sparse = false,
): SQL =>
  sql`SELECT ${PAGE_COLUMNS} FROM incidents i WHERE i.key IN (${pageKeysQuery(filters, scope, ordering, limit, offset, sparse)})`;

/**
 * Whether a page of `total` matches among `scopeRows` incidents is cheaper read from the matches
 * (about `total` rows checked) than by walking an ordering index (about `(offset + limit) ×
 * scopeRows / total` rows checked before the page is full): a rare search term in a large scope.
 */
export const sparsePage = (total: number, scopeRows: number, limit: number, offset: number) =>
  total * total < (offset + limit) * scopeRows;

/** A total that the count table `incident_counts` answers: the sum over some values of one dimension. */
interface CountKey {
  dim: string;
  values: SQL;
  /** Count the incidents that do NOT have these values (all minus the sum). */
  negate?: boolean;
}

/** Filters whose values exclude each other (an incident has one), so any number of values may be summed. */
const EXCLUSIVE_DIMS = {
  status__in: 'status',
  priority__in: 'priority',
  issuetype__in: 'issuetype',
  resolution__in: 'resolution',
  resolution_name__in: 'resolution_name',
  customer_assignee__in: 'assignee',
} as const;

/** Filters over sets (an incident may have several values): exact only for a single value. */
const SET_DIMS = {
  category__in: 'category',
  tactic__in: 'tactic',
  technique__in: 'technique',
  rule__in: 'rule',
  tags__in: 'tag',
} as const;

/**
 * The count-table key of a filter set, or null when the set needs a real count: no filter, or one
 * filter of the dimensions that the trigger keeps (beside `system__in`, which narrows the systems).
 */
export function countKey(filters: IncidentFilters): CountKey | null {
  const entries = filtersBesideSystems(filters);
  if (entries.length === 0) return { dim: 'all', values: sql`''` };
  if (entries.length > 1) return null;
  const [name, value] = entries[0]!;
  const strings = (v: unknown) => list((v as (string | number)[]).map(String));
  if (name in EXCLUSIVE_DIMS) {
    return { dim: EXCLUSIVE_DIMS[name as keyof typeof EXCLUSIVE_DIMS], values: strings(value) };
  }
  if (name in SET_DIMS) {
    const values = value as string[] | number[];
    return values.length === 1
      ? { dim: SET_DIMS[name as keyof typeof SET_DIMS], values: strings(values) }
      : null;
  }
  switch (name) {
    case 'service__in':
      return {
        dim: 'service',
        values: sql`SELECT sv.id::text FROM services sv WHERE sv.name IN (${list(value as string[])})`,
      };
    case 'sla_breached':
      return { dim: 'sla_breached', values: sql`${String(value)}` };
    case 'gossopka_id__isnull':
      return { dim: 'gossopka', values: sql`${String(!value)}` };
    case 'customer_assignee__isnull':
      return { dim: 'assignee', values: sql`''`, negate: !value };
    default:
      return null;
  }
}

const CSV_JOINS = sql`
  JOIN systems s ON s.id = p.system_id
  JOIN issue_types it ON it.id = p.issue_type_id
  LEFT JOIN services sv ON sv.id = p.service_id
  LEFT JOIN categories c ON c.id = p.category_id
  LEFT JOIN resolutions r ON r.id = p.resolution_id
  LEFT JOIN users u ON u.id = p.customer_assignee_id`;

/** A CSV cell: text that may hold a formula prefix (free text), or text that cannot. */
type CsvCellSql = { free: boolean; value: SQL };

/** Formula prefixes neutralised (CSV injection); quoting is left to COPY. */
const csvSafe = ({ free, value }: CsvCellSql) => (free ? sql`csv_safe(${value})` : value);
/** Neutralised and quoted: a finished cell. */
const csvCell = ({ value }: CsvCellSql) => sql`csv_cell(${value})`;

/** The cells of a CSV record, over the page `p` and the joins of CSV_JOINS, in `lang`. */
function csvCells(lang: Language, labels: CsvLabels): CsvCellSql[] {
  const t = title(lang);
  // 'YYYY-MM-DD HH:MM:SS' as DateStyle ISO (which node-postgres needs anyway) writes it; to_char is several times slower
  const utc = (column: string) => sql.raw(`date_trunc('second', p.${column} AT TIME ZONE 'UTC')::text`);
  const choose = (column: string, titles: Record<string, string>) =>
    sql`CASE p.${sql.raw(column)} ${sql.join(
      Object.entries(titles).map(([value, text]) => sql`WHEN ${value} THEN ${text}`),
      sql` `,
    )} ELSE p.${sql.raw(column)} END`;
  const free = (value: SQL): CsvCellSql => ({ free: true, value });
  const fixed = (value: SQL): CsvCellSql => ({ free: false, value });
  return [
    fixed(sql`p.key::text`),
    free(sql`p.summary`),
    free(sql`s.is_id || ' ' || s.full_name`),
    free(sql`sv.name`),
    free(sql`it.${t}`),
    free(
      sql`concat_ws(', ', c.${t}, CASE WHEN cardinality(p.secondary_category_ids) > 0 THEN
            (SELECT string_agg(sc.${t}, ', ' ORDER BY sc.id) FROM categories sc
              WHERE sc.id = ANY(p.secondary_category_ids)) END)`,
    ),
    fixed(choose('priority', labels.priorities)),
    fixed(choose('status', labels.statuses)),
    fixed(utc('created')),
    fixed(utc('updated')),
    fixed(utc('sla')),
    fixed(sql`CASE WHEN p.sla_breached THEN ${labels.yes} ELSE ${labels.no} END`),
    free(sql`coalesce(NULLIF(trim(u.first_name || ' ' || u.last_name), ''), u.username)`),
    free(sql`${choose('resolution', labels.resolutions)} || coalesce(' (' || r.${t} || ')', '')`),
    fixed(utc('resolution_date')),
    free(sql`p.gossopka_id`),
    free(sql`array_to_string(p.tags, ', ')`),
  ];
}

/** The filters that are set, by name: the same set of filters gives the same cache key. */
export const filterEntries = (filters: IncidentFilters) =>
  Object.entries(filters)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** ` AND column IN (systems)`, or nothing for every system (null). */
const andInSystems = (column: string, systems: number[] | null): SQL =>
  systems ? sql` AND ${sql.raw(column)} IN (${list(systems)})` : sql``;

/** A sum over the count table `incident_counts` (a bigint expression). */
const sumCounts = (dim: string, values: SQL, systems: number[] | null): SQL =>
  sql`(SELECT coalesce(sum(n), 0) FROM incident_counts WHERE dim = ${dim} AND value IN (${values})${andInSystems('system_id', systems)})`;

/**
 * The exact total of a filter set as an expression over the count table, or null when it has to
 * be counted over the incidents (several filters, a search).
 */
function countTableTotal(filters: IncidentFilters, scope: SystemScope): SQL | null {
  const key = countKey(filters);
  if (!key) return null;
  const systems = effectiveSystems(filters, scope);
  if (systems && systems.length === 0) return sql`0::bigint`;
  const n = sumCounts(key.dim, key.values, systems);
  return key.negate ? sql`(${sumCounts('all', sql`''`, systems)} - ${n})` : n;
}

/** What `valueTotal` needs of a filter on a value that each incident has once. */
const VALUE_DIMS = {
  summary__icontains: {
    dim: 'summary',
    // the rows the count table does not key: served by incidents_long_summary_idx
    long: sql`octet_length(i.summary) > 1000`,
  },
  host__icontains: {
    dim: 'hosts',
    long: sql`octet_length(incident_hosts_text(i.affected_systems)) > 1000`,
  },
} as const;
type ValueFilterName = keyof typeof VALUE_DIMS;

/** The summary or host filter of a filter set that holds nothing else (beside `system__in`). */
function valueFilterOnly(filters: IncidentFilters): { name: ValueFilterName; term: string } | undefined {
  const set = filtersBesideSystems(filters);
  if (set.length !== 1) return undefined;
  const [name, term] = set[0]!;
  return name in VALUE_DIMS && typeof term === 'string' ? { name: name as ValueFilterName, term } : undefined;
}

/**
 * The exact total of a lone `summary__icontains` or `host__icontains` from the count table, as a
 * bigint expression: an incident has one summary and one list of hosts, so the counts of the
 * values that match add up (db/derived/incident-counts.ts keys them). Counted over the incidents
 * instead, a term of few matches reads every incident of the caller's systems (an order of
 * magnitude slower on a million; docs/performance.md), which is why these keys stay while the
 * search's index of words went. A host list's value is its array text, read back whole with `::text[]` and matched
 * host by host; the array text holds each host as it is, unless the host has a quote or a
 * backslash (escaped), so `value ILIKE` may narrow the values first (trigram index) for any term
 * without either. Summaries and host lists over 1,000 bytes, keyed only by number (`…_long`), are
 * checked row by row, and only where there are some.
 */
function valueTotal(name: ValueFilterName, term: string, systems: number[] | null): SQL {
  if (systems && systems.length === 0) return sql`0::bigint`;
  const { dim, long } = VALUE_DIMS[name];
  const pattern = likePattern(term);
  const matches =
    name === 'summary__icontains'
      ? sql`value ILIKE ${pattern}`
      : sql`${/["\\]/.test(term) ? sql`` : sql`value ILIKE ${pattern} AND `}EXISTS (
            SELECT 1 FROM unnest(value::text[]) AS h(name) WHERE h.name ILIKE ${pattern})`;
  return sql`((SELECT coalesce(sum(n), 0) FROM incident_counts WHERE dim = ${dim} AND ${matches}${andInSystems('system_id', systems)})
    + CASE WHEN EXISTS (SELECT 1 FROM incident_counts
                         WHERE dim = ${`${dim}_long`} AND value = '' AND n > 0${andInSystems('system_id', systems)})
      THEN (SELECT count(*) FROM incidents i WHERE ${long}${andInSystems('i.system_id', systems)} AND ${textMatch(name, term)})
      ELSE 0 END)`;
}

/** A list total: exact, or where counting stopped (`total` is then the cap, and there are more). */
export interface ListTotal {
  total: number;
  exact: boolean;
}

/** A count that stopped at `cap` + 1 rows, as a total. */
const stoppedAt = (n: number, cap: number): ListTotal =>
  n > cap ? { total: cap, exact: false } : { total: n, exact: true };

/**
 * A total that counting stopped at, told by its page: a page that is not full is the last one.
 * (An empty page tells nothing: the offset may lie past the end.)
 */
const toldByPage = (counted: ListTotal, limit: number, offset: number, rows: number): ListTotal =>
  !counted.exact && rows > 0 && rows < limit ? { total: offset + rows, exact: true } : counted;

/**
 * The number of matching incidents up to `cap` + 1, for a filter set that `countKey` does not
 * answer (free text, several filters), as a bigint expression. PostgreSQL stops reading at the
 * limit, so a term that most incidents hold costs at most `cap` + 1 matches, not all of them.
 */
const rowsTotal = (filters: IncidentFilters, scope: SystemScope, cap = TOTAL_COUNT_CAP): SQL =>
  sql`(SELECT count(*) FROM (SELECT 1 FROM incidents i WHERE ${incidentConditions(filters, scope)}
                              LIMIT ${sql.raw(String(cap + 1))}) m)`;

/**
 * Counts the incidents of a filter set that the count table does not answer, up to
 * TOTAL_COUNT_CAP + 1: `countRows` itself, or the service's counter that keeps such counts
 * (modules/incidents/count-cache.ts).
 */
export type RowCounter = (filters: IncidentFilters, scope: SystemScope) => Promise<number>;

export function createIncidentsRepository(db: Db, copyOut?: Database['copyOut']) {
  /** The number of matching incidents, counted over the incidents themselves up to `cap` + 1. */
  const countRows = async (
    filters: IncidentFilters,
    scope: SystemScope,
    cap = TOTAL_COUNT_CAP,
  ): Promise<number> => {
    const rows = await queryRows<{ n: number }>(
      db,
      sql`SELECT (${rowsTotal(filters, scope, cap)})::int AS n`,
    );
    return rows[0]?.n ?? 0;
  };

  /**
   * The count table's exact total of a filter set that it answers (`countKey`, or a lone summary
   * or host filter), or undefined.
   */
  const countTable = async (filters: IncidentFilters, scope: SystemScope): Promise<ListTotal | undefined> => {
    const value = valueFilterOnly(filters);
    const total =
      countTableTotal(filters, scope) ??
      (value && valueTotal(value.name, value.term, effectiveSystems(filters, scope)));
    if (!total) return undefined;
    const [row] = await queryRows<{ n: string }>(db, sql`SELECT (${total})::text AS n`);
    return { total: Number(row?.n ?? 0), exact: true };
  };

  const repo = {
    /**
     * As `countRows` (up to TOTAL_COUNT_CAP + 1), with the expression `version` read by the same
     * statement (one snapshot), so that a kept count is never older than its version.
     */
    async countWithVersion(
      filters: IncidentFilters,
      scope: SystemScope,
      version: SQL,
    ): Promise<{ n: number; version: string }> {
      const [row] = await queryRows<{ n: number; version: string }>(
        db,
        sql`SELECT (${rowsTotal(filters, scope)})::int AS n, (${version})::text AS version`,
      );
      return { n: row?.n ?? 0, version: row?.version ?? '' };
    },

    /**
     * The list's total: exact from the count table where one filter (or none) is set, else
     * counted over the incidents by `counter` and exact up to TOTAL_COUNT_CAP.
     */
    async count(
      filters: IncidentFilters,
      scope: SystemScope,
      counter: RowCounter = countRows,
    ): Promise<ListTotal> {
      return (await countTable(filters, scope)) ?? stoppedAt(await counter(filters, scope), TOTAL_COUNT_CAP);
    },

    /**
     * Whether more than `max` incidents match, for an export's limit (which may lie above the
     * list's cap): the count table's exact total where it answers, else a count stopped at
     * `max` + 1 (`exact` false: more than `max`).
     */
    async countUpTo(filters: IncidentFilters, scope: SystemScope, max: number): Promise<ListTotal> {
      return (await countTable(filters, scope)) ?? stoppedAt(await countRows(filters, scope, max), max);
    },

    /**
     * One page and the total. Where the count table answers the total, it comes with the page
     * from the same statement (one round trip); otherwise, or when the page is empty, it is
     * counted beside it. A total that counting stopped at still has pages past it.
     */
    async pageAndTotal(
      filters: IncidentFilters,
      scope: SystemScope,
      ordering: IncidentOrdering,
      limit: number,
      offset: number,
      lang: Language,
      counter: RowCounter = countRows,
    ): Promise<ListTotal & { rows: IncidentRow[] }> {
      const total = countTableTotal(filters, scope);
      if (!total && TEXT_FILTERS.some((f) => filters[f] !== undefined)) {
        // the total first: none or a page past the end needs no page; few matches among many
        // incidents are read from the matches rather than through an ordering index
        const [n, [row]] = await Promise.all([
          repo.count(filters, scope, counter),
          // the incidents of the caller's systems, from the count table
          queryRowsNamed<{ n: string }>(
            db,
            sql`SELECT (${countTableTotal({}, effectiveSystems(filters, scope))})::text AS n`,
          ),
        ]);
        if (n.total === 0 || (n.exact && offset >= n.total)) return { ...n, rows: [] };
        const sparse = sparsePage(n.total, Number(row?.n ?? 0), limit, offset);
        const rows = await repo.page(filters, scope, ordering, limit, offset, lang, sparse);
        return { ...toldByPage(n, limit, offset, rows.length), rows };
      }
      if (!total) {
        const [n, rows] = await Promise.all([
          repo.count(filters, scope, counter),
          repo.page(filters, scope, ordering, limit, offset, lang),
        ]);
        return { ...toldByPage(n, limit, offset, rows.length), rows };
      }
      const rows = await queryRows<IncidentRow & { page_total: string }>(
        db,
        detailsQuery(
          pageSql(filters, scope, ordering, limit, offset),
          ordering,
          lang,
          sql`, (${total})::text AS page_total`,
        ),
      );
      if (!rows.length) return { ...(await repo.count(filters, scope, counter)), rows };
      return { total: Number(rows[0]!.page_total), exact: true, rows };
    },

    countRows,

    /** One page in the requested order. */
    /**
     * Everything the incident card shows, in one statement (one round trip instead of five): the
     * list row, the whole incident record (`row_to_json`), the incident's own attachments (not
     * those of its comments) and the related incidents that the caller may see. Undefined when
     * the incident does not exist or is another tenant's. The statement is named, so PostgreSQL
     * parses and plans it once per connection (its text differs only by the number of systems).
     */
    async card(key: number, scope: SystemScope, lang: Language): Promise<IncidentCardRow | undefined> {
      const seen = (alias: 'i' | 'r') => inScope(sql.raw(`${alias}.system_id`), scope) ?? sql`TRUE`;
      const pageSql = sql`SELECT i.* FROM incidents i WHERE i.key = ${key} AND ${seen('i')}`;
      const extra = sql`,
           row_to_json(p) AS record,
           COALESCE((SELECT json_agg(json_build_object('id', a.id, 'filename', a.filename,
                                     'content_type', a.content_type, 'size', a.size, 'created', a.created)
                                     ORDER BY a.created, a.filename)
                       FROM attachments a WHERE a.incident_id = p.id AND a.comment_id IS NULL), '[]'::json) AS files,
           COALESCE((SELECT json_agg(json_build_object('key', r.key, 'summary', r.summary, 'status', r.status,
                                     'priority', r.priority, 'created', r.created) ORDER BY r.key)
                       FROM incidents r
                      WHERE r.id IN (SELECT l.related_id FROM incident_links l WHERE l.incident_id = p.id
                                     UNION SELECT l.incident_id FROM incident_links l WHERE l.related_id = p.id)
                        AND ${seen('r')}), '[]'::json) AS related`;
      const [row] = await queryRowsNamed<IncidentCardRow>(
        db,
        detailsQuery(pageSql, DEFAULT_INCIDENT_ORDERING, lang, extra),
      );
      return row;
    },

    async page(
      filters: IncidentFilters,
      scope: SystemScope,
      ordering: IncidentOrdering,
      limit: number,
      offset: number,
      lang: Language,
      sparse = false,
    ): Promise<IncidentRow[]> {
      return queryRows<IncidentRow>(
        db,
        detailsQuery(pageSql(filters, scope, ordering, limit, offset, sparse), ordering, lang),
      );
    },

    /**
     * Every matching incident in order as CSV records (RFC 4180 quoting, LF line ends), a keyset
     * batch of about `batch` rows at a time, so that a large export holds one batch at a time and
     * never pays for deep offsets. PostgreSQL formats the cells: on a server, `COPY … TO STDOUT`
     * streams each batch straight to the response; the embedded engine, which cannot stream
     * COPY, returns one ready line per row (`csv_cell`).
     */
    async *csvChunks(
      filters: IncidentFilters,
      scope: SystemScope,
      ordering: IncidentOrdering,
      lang: Language,
      labels: CsvLabels,
      batch = 5000,
    ): AsyncGenerator<Buffer | string> {
      const { columns, desc } = orderParts(ordering);
      const where = incidentConditions(filters, scope);
      const tuple = sql.raw(`(${columns.map((c) => `i.${c}`).join(', ')})`);
      const beyond = (row: CsvCursor, op: string) =>
        sql` AND ${tuple} ${sql.raw(op)} (${sql.join(
          columns.map((c) => cursorValue(row, c)),
          sql`, `,
        )})`;
      const [before, after] = desc ? ['<', '>='] : ['>', '<='];
      const cells = csvCells(lang, labels);
      let from: CsvCursor | undefined;
      for (;;) {
        const range = sql`${where}${from ? beyond(from, before) : sql``}`;
        // the last row of this batch: the batch is everything up to it, inclusive, so that rows
        // written meanwhile can neither be skipped nor repeated at the seam
        const [last] = await queryRows<CsvCursor>(
          db,
          sql`SELECT i.key, i.priority_rank, i.status_rank, i.created::text AS created_cursor,
                     i.updated::text AS updated_cursor
                FROM incidents i WHERE ${range} ORDER BY ${orderBy(ordering, 'i')} OFFSET ${batch - 1} LIMIT 1`,
        );
        const rows = sql`SELECT ${PAGE_COLUMNS} FROM incidents i WHERE ${range}${last ? beyond(last, after) : sql``}`;
        if (copyOut) {
          const select = sql`SELECT ${sql.join(cells.map(csvSafe), sql`, `)}
                               FROM (${rows}) p ${CSV_JOINS} ORDER BY ${orderBy(ordering, 'p')}`;
          yield* await copyOut(select, 'FORMAT csv');
        } else {
          const lines = await queryRows<{ line: string }>(
            db,
            sql`SELECT ${sql.join(cells.map(csvCell), sql` || ',' || `)} AS line
                  FROM (${rows}) p ${CSV_JOINS} ORDER BY ${orderBy(ordering, 'p')}`,
          );
          let chunk = '';
          for (const { line } of lines) chunk += `${line}\n`;
          if (chunk) yield chunk;
        }
        if (!last) return;
        from = last;
      }
    },
  };
  return repo;
}

export type IncidentsRepository = ReturnType<typeof createIncidentsRepository>;
