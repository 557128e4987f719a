import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type {
  IncidentFilters,
  IncidentOrdering,
  IncidentPriority,
  IncidentStatus,
  Language,
} from '@soc/contracts';
import { INCIDENT_PRIORITY_TITLES, INCIDENT_STATUS_TITLES, RESOLUTION_LABELS } from '@soc/contracts';
import type { IncidentRow, IncidentsRepository, SystemScope } from './incidents.repository.ts';

const HEADERS: Record<Language, string[]> = {
  en: [
    'Key',
    'Summary',
    'System',
    'Service',
    'Issue type',
    'Category',
    'Priority',
    'Status',
    'Created (UTC)',
    'Updated (UTC)',
    'SLA deadline (UTC)',
    'SLA breached',
    'Assignee',
    'Resolution',
    'Resolution date (UTC)',
    'National centre id',
    'Tags',
  ],
  ru: [
    'Ключ',
    'Название',
    'Система',
    'Сервис',
    'Тип',
    'Категория',
    'Приоритет',
    'Статус',
    'Создан (UTC)',
    'Обновлён (UTC)',
    'Срок SLA (UTC)',
    'SLA нарушен',
    'Ответственный',
    'Решение',
    'Дата решения (UTC)',
    'Идентификатор ГосСОПКА',
    'Теги',
  ],
};

const YES_NO: Record<Language, [string, string]> = { en: ['Yes', 'No'], ru: ['Да', 'Нет'] };

/**
 * Neutralises spreadsheet formulas (CSV injection): a cell that starts with = + - @ or a
 * tab/carriage return gets a leading apostrophe, so Excel shows it as text.
 */
export function safeCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

const when = (d: Date | string | null): string =>
  d === null ? '' : new Date(d).toISOString().replace('T', ' ').slice(0, 19);

export function csvRecord(row: IncidentRow, lang: Language): string[] {
  const secondary =
    typeof row.secondary === 'string' ? (JSON.parse(row.secondary) as { title: string }[]) : row.secondary;
  return [
    String(row.key),
    row.summary,
    `${row.system_is_id} ${row.system_name}`,
    row.service_name ?? '',
    row.issuetype_title,
    [row.category_title, ...secondary.map((s) => s.title)].filter(Boolean).join(', '),
    INCIDENT_PRIORITY_TITLES[lang][row.priority as IncidentPriority] ?? row.priority,
    INCIDENT_STATUS_TITLES[lang][row.status as IncidentStatus] ?? row.status,
    when(row.created),
    when(row.updated),
    when(row.sla),
    YES_NO[lang][row.sla_breached ? 0 : 1],
    row.assignee_name ?? row.assignee_username ?? '',
    row.resolution
      ? `${RESOLUTION_LABELS[row.resolution]}${row.resolution_title ? ` (${row.resolution_title})` : ''}`
      : '',
    when(row.resolution_date),
    row.gossopka_id ?? '',
    row.tags.join(', '),
  ].map(safeCell);
}

/**
 * The incidents of a filter as an RFC 4180 CSV stream: UTF-8 with a byte-order mark (Excel then
 * reads Cyrillic right), CRLF line ends, header in the request's language. Rows are read in
 * keyset batches, so memory stays flat whatever the size.
 */
export function incidentsCsvStream(
  repo: IncidentsRepository,
  filters: IncidentFilters,
  scope: SystemScope,
  ordering: IncidentOrdering,
  lang: Language,
): Readable {
  const csv = stringify({ bom: true, record_delimiter: 'windows' });
  const rows = async function* () {
    yield HEADERS[lang];
    for await (const batch of repo.stream(filters, scope, ordering, lang)) {
      for (const row of batch) yield csvRecord(row, lang);
    }
  };
  const source = Readable.from(rows());
  // a failing query must end the response with an error, not leave it hanging
  source.on('error', (err) => csv.destroy(err));
  return source.pipe(csv);
}
