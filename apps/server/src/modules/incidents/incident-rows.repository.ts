import { sql } from 'drizzle-orm';
import type { IncidentPriority, IncidentStatus } from '@soc/contracts';

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

/** The columns lists and exports read: not the long texts (description, recommendations, JSON). */
export const PAGE_COLUMNS = sql.raw(
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
