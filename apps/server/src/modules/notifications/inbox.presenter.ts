import type { InboxItem, TaskType } from '@soc/contracts';
import type { InboxRow } from './inbox.repository.ts';

const num = (v: string | number | null): number | null => (v === null ? null : Number(v));

/** One line of the notification centre; an object deleted since leaves its link without a name. */
export function presentInboxItem(row: InboxRow): InboxItem {
  const key = num(row.incident_key);
  const reportId = num(row.report_id);
  const taskId = num(row.task_id);
  return {
    id: Number(row.id),
    kind: row.kind,
    created: Number(row.created_ms),
    read: row.read,
    incident: key === null ? null : { key, summary: row.summary ?? '' },
    status: row.status,
    report: reportId === null ? null : { id: reportId, name: row.report_name ?? '' },
    task:
      taskId === null || row.task_type === null
        ? null
        : { id: taskId, type: row.task_type as TaskType, subject: row.task_subject ?? '' },
  };
}
