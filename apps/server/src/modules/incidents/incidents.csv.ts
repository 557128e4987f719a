import { Readable } from 'node:stream';
import type { IncidentFilters, IncidentOrdering, Language } from '@soc/contracts';
import { INCIDENT_PRIORITY_TITLES, INCIDENT_STATUS_TITLES, RESOLUTION_LABELS } from '@soc/contracts';
import type { SystemScope } from '../../lib/scope.ts';
import type { CsvLabels } from './incidents.csv.repository.ts';
import type { IncidentsRepository } from './incidents.repository.ts';

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

/** The header line: the titles hold no separators, quotes or formula prefixes. */
const headerLine = (lang: Language) => `${HEADERS[lang].join(',')}\n`;

export const csvLabels = (lang: Language): CsvLabels => ({
  statuses: INCIDENT_STATUS_TITLES[lang],
  priorities: INCIDENT_PRIORITY_TITLES[lang],
  resolutions: RESOLUTION_LABELS,
  yes: YES_NO[lang][0],
  no: YES_NO[lang][1],
});

/**
 * The incidents of a filter as an RFC 4180 CSV stream: UTF-8 with a byte-order mark (Excel then
 * reads Cyrillic right), LF line ends (what PostgreSQL's COPY writes; spreadsheets read both),
 * header in the request's language. PostgreSQL formats and escapes the rows (see `csvChunks`), a keyset batch at a time, so memory stays flat
 * whatever the size.
 */
export function incidentsCsvStream(
  repo: IncidentsRepository,
  filters: IncidentFilters,
  scope: SystemScope,
  ordering: IncidentOrdering,
  lang: Language,
): Readable {
  const chunks = async function* () {
    yield `\uFEFF${headerLine(lang)}`;
    yield* repo.csvChunks(filters, scope, ordering, lang, csvLabels(lang));
  };
  return Readable.from(chunks(), { objectMode: false });
}
