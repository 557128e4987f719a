import type { IncidentListItem } from '@soc/contracts';
import { RESOLUTION_LABELS } from '@soc/contracts';
import { parseJson } from '../../db/client.ts';
import type { IncidentRow } from './incident-rows.repository.ts';

const ms = (d: Date | string | null): number | null => (d === null ? null : new Date(d).getTime());

export const presentIncidentListItem = (row: IncidentRow): IncidentListItem => ({
  id: row.id,
  key: Number(row.key),
  summary: row.summary,
  priority: row.priority as IncidentListItem['priority'],
  status: row.status as IncidentListItem['status'],
  created: ms(row.created)!,
  updated: ms(row.updated)!,
  system: { id: row.system_id, is_id: row.system_is_id, full_name: row.system_name },
  service: row.service_id === null ? null : { id: row.service_id, name: row.service_name ?? '' },
  issuetype_ref: { id: row.issuetype_id, code: row.issuetype_code, title: row.issuetype_title },
  category_ref: row.category_id === null ? [] : [{ id: row.category_id, title: row.category_title ?? '' }],
  secondary_category_ref: parseJson(row.secondary),
  tags: row.tags,
  sla: ms(row.sla),
  sla_breached: row.sla_breached,
  notified: ms(row.notified_at),
  customer_assignee:
    row.assignee_id === null
      ? null
      : { id: row.assignee_id, username: row.assignee_username ?? '', full_name: row.assignee_name ?? '' },
  resolution: row.resolution ? RESOLUTION_LABELS[row.resolution] : null,
  resolution_name_ref:
    row.resolution_id === null ? null : { id: row.resolution_id, title: row.resolution_title ?? '' },
  resolutiondate: ms(row.resolution_date),
  gossopka_id: row.gossopka_id,
  reporter_displayName: row.reporter_name,
  customer_star_rating: row.customer_star_rating,
  comments_count: row.comments_count,
});
