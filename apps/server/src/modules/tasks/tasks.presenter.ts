import type { Attachment, Comment, Task, TaskDetail } from '@soc/contracts';
import { API_BASE } from '@soc/contracts';
import { presentStoredFile } from '../../integrations/storage/http-files.ts';
import type { TaskAttachmentRow, TaskListRow, TaskMessageRow } from './tasks.repository.ts';

export const taskAttachmentLink = (taskId: number, id: string) =>
  `${API_BASE}/soc/tasks/${taskId}/attachments/${id}/download/`;

export const presentTaskAttachment = (r: TaskAttachmentRow): Attachment =>
  presentStoredFile(r, taskAttachmentLink(r.taskId, r.id));

export function presentTask({ task: t, system }: TaskListRow): Task {
  return {
    id: t.id,
    type: t.type,
    subject: t.subject,
    status: t.status,
    priority: t.priority,
    system: { id: system.id, is_id: system.isId, full_name: system.fullName },
    author: t.authorName,
    author_id: t.authorId,
    created: t.created.getTime(),
    updated: t.updated.getTime(),
    messages_count: t.messagesCount,
    last_from_soc: t.lastFromSoc,
  };
}

export function presentTaskDetail(
  row: TaskListRow,
  extra: Pick<TaskDetail, 'rendered_description' | 'attachments' | 'available_statuses'>,
): TaskDetail {
  return { ...presentTask(row), ...extra };
}

/** A chat message in the shape of an incident comment, so that both chats share one client. */
export function presentTaskMessage(r: TaskMessageRow, files: TaskAttachmentRow[], userId: number): Comment {
  return {
    id: r.id,
    author: r.authorName,
    author_id: r.authorId,
    body: r.body,
    created: r.created.getTime(),
    attachments: files.map(presentTaskAttachment),
    source: r.source,
    from_soc: r.fromSoc,
    from_national_centre: false,
    issue_completed: false,
    is_mine: r.authorId === userId,
  };
}
