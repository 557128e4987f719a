import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { IncidentFilters, IncidentOrdering, Language } from '@soc/contracts';
import type { Database, Db } from '../../db/client.ts';
import { queryRows } from '../../db/client.ts';
import type { SystemScope } from '../../lib/scope.ts';
import { incidentConditions, orderBy, orderParts } from './incident-filters.repository.ts';
import type { IncidentRow } from './incident-rows.repository.ts';
import { PAGE_COLUMNS } from './incident-rows.repository.ts';
import { titleColumn } from '../../db/fragments.ts';

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

const CSV_JOINS = sql`
  JOIN systems s ON s.id = p.system_id
  JOIN issue_types it ON it.id = p.issue_type_id
  LEFT JOIN services sv ON sv.id = p.service_id
  LEFT JOIN categories c ON c.id = p.category_id
  LEFT JOIN resolutions r ON r.id = p.resolution_id
  LEFT JOIN users u ON u.id = p.customer_assignee_id`;

/** A CSV cell: text that may hold a formula prefix (free text), or text that cannot. */
type CsvCellSql = { free: boolean; value: SQL };

/** Formula prefixes neutralised (CSV injection), as column `c<i>`; quoting is left to COPY. */
const csvSafe = ({ free, value }: CsvCellSql, i: number) =>
  sql`${free ? sql`csv_safe(${value})` : value} AS ${sql.raw(`c${i}`)}`;
/**
 * COPY's options: COPY quotes only a cell holding a comma, so free text is always quoted (a `;`
 * or a tab splits a cell for a reader of another locale; `lib/csv.ts`).
 */
const copyOptions = (cells: CsvCellSql[]) =>
  `FORMAT csv, FORCE_QUOTE (${cells.flatMap((c, i) => (c.free ? [`c${i}`] : [])).join(', ')})`;
/** Neutralised and quoted: a finished cell. */
const csvCell = ({ value }: CsvCellSql) => sql`csv_cell(${value})`;

/** The cells of a CSV record, over the page `p` and the joins of CSV_JOINS, in `lang`. */
function csvCells(lang: Language, labels: CsvLabels): CsvCellSql[] {
  const t = titleColumn(lang);
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

/** The CSV export of `createIncidentsRepository`, over its database. */
export function createIncidentCsvRepository(db: Db, copyOut?: Database['copyOut']) {
  return {
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
          yield* await copyOut(select, copyOptions(cells));
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
}
