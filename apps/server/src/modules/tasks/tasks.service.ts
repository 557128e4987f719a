import type { FastifyReply } from 'fastify';
import type { Comment, Task, TaskDetail, TaskListQuery, TaskStatus } from '@soc/contracts';
import {
  COMMENTS_NO_PAGE_MAX,
  TaskCreateFieldsSchema,
  TaskMessageCreateFieldsSchema,
  TaskStatusPayloadSchema,
} from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { checkStorageQuota } from '../../integrations/storage/storage-quota.ts';
import type { FileStorage } from '../../integrations/storage/file-storage.ts';
import type { StagedFile } from '../../integrations/storage/upload-stager.ts';
import { UploadStager } from '../../integrations/storage/upload-stager.ts';
import { audit } from '../../lib/audit.ts';
import { badRequest, notFound } from '../../lib/http-errors.ts';
import { msg } from '../../lib/messages.ts';
import { isUuid, sendStoredFile } from '../../integrations/storage/http-files.ts';
import { renderMarkdown, renderTypedMarkdown } from '../../lib/markdown.ts';
import type { MultipartPart } from '../../integrations/storage/multipart.ts';
import { parseMultipartFields, readChatParts } from '../../integrations/storage/multipart.ts';
import type { AuthContext } from '../../core/auth.ts';
import { systemScope } from '../../core/auth.ts';
import { displayName } from '../users/index.ts';
import { availableStatuses, statusAfterMessage } from './task-workflow.ts';
import {
  presentTask,
  presentTaskAttachment,
  presentTaskDetail,
  presentTaskMessage,
} from './tasks.presenter.ts';
import type { TaskMessageRow, Tx } from './tasks.repository.ts';
import { createTasksRepository } from './tasks.repository.ts';

export interface TasksDeps {
  db: Db;
  storage: FileStorage;
  /** Called after a SOC reply is stored (the e-mail to the customer). */
  onSocReply: (taskId: number, messageId: number) => Promise<void>;
  /** Bytes of files each system may keep (config.storageQuotaBytesPerSystem); 0 or absent: none. */
  storageQuotaBytes?: number;
}

const attachmentRows = (taskId: number, messageId: number | null, files: StagedFile[], userId: number) =>
  files.map((f) => ({
    taskId,
    messageId,
    filename: f.filename,
    contentType: f.contentType,
    size: f.size,
    storageKey: f.key,
    sha256: f.sha256,
    uploadedBy: userId,
  }));

/**
 * Service requests of customers to the SOC (tasks), with a chat under the incident comment
 * rules: the same composer fields, attachment limits and sanitised Markdown. Customers see the
 * tasks of their systems (another system's task is a 404); analysts answer through the same API.
 */
export function createTasksService({ db, storage, onSocReply, storageQuotaBytes = 0 }: TasksDeps) {
  const repo = createTasksRepository(db);

  async function load(auth: AuthContext, id: number) {
    const row = await repo.get(systemScope(auth), id);
    if (!row) throw notFound();
    return row;
  }

  async function presentMessages(rows: TaskMessageRow[], auth: AuthContext): Promise<Comment[]> {
    const files = await repo.messageAttachments(rows.map((r) => r.id));
    return rows.map((r) => presentTaskMessage(r, files.get(r.id) ?? [], auth.userId));
  }

  async function detail(auth: AuthContext, id: number): Promise<TaskDetail> {
    const row = await load(auth, id);
    const files = await repo.taskAttachments(id);
    return presentTaskDetail(row, {
      rendered_description: renderMarkdown(row.task.description),
      attachments: files.map(presentTaskAttachment),
      available_statuses: availableStatuses(auth.role, row.task.status),
    });
  }

  /** Locks the task for a change; a closed task takes no messages. */
  async function lockOpen(tx: Tx, auth: AuthContext, id: number) {
    const task = await createTasksRepository(tx).lock(systemScope(auth), id);
    if (!task) throw notFound();
    return task;
  }

  return {
    async list(auth: AuthContext, q: TaskListQuery): Promise<{ total: number; results: Task[] }> {
      const { rows, total } = await repo.list(systemScope(auth), q);
      return { total, results: rows.map(presentTask) };
    },

    detail,

    /**
     * Opens a task from multipart fields (system, type, subject, description, priority) and
     * `attachments`. Files are streamed into storage and dropped again if anything is refused.
     */
    async create(parts: AsyncIterable<MultipartPart>, auth: AuthContext, ip: string): Promise<TaskDetail> {
      const stager = new UploadStager(storage);
      try {
        const fields = parseMultipartFields(TaskCreateFieldsSchema, await readChatParts(parts, stager));
        // the caller's systems: a customer's, or a service token's limit; else any existing system
        const scope = systemScope(auth);
        const allowed = scope ? scope.includes(fields.system) : await repo.systemExists(fields.system);
        if (!allowed) throw badRequest({ system: [msg('unknownSystem')] });
        const me = await displayName(db, auth.userId);
        const task = await db.transaction(async (tx) => {
          const writes = createTasksRepository(tx);
          const row = await writes.insertTask({
            systemId: fields.system,
            type: fields.type,
            subject: fields.subject,
            description: fields.description,
            priority: fields.priority,
            authorId: auth.userId,
            authorName: me.name,
          });
          await checkStorageQuota(tx, row.systemId, stager.files, storageQuotaBytes);
          await writes.insertAttachments(attachmentRows(row.id, null, stager.files, auth.userId));
          return row;
        });
        await audit(db, {
          userId: auth.userId,
          action: 'task.create',
          objectType: 'task',
          objectId: task.id,
          ip,
          details: { type: task.type, system: task.systemId, files: stager.files.length },
        });
        return detail(auth, task.id);
      } catch (err) {
        await stager.discard();
        throw err;
      }
    },

    /** The chat of a task, oldest first. */
    async messages(
      auth: AuthContext,
      id: number,
      q: { page: number; page_size: number; no_page?: boolean; search?: string },
    ): Promise<{ total: number; results: Comment[] }> {
      await load(auth, id);
      const limit = q.no_page ? COMMENTS_NO_PAGE_MAX : q.page_size;
      const offset = q.no_page ? 0 : (q.page - 1) * q.page_size;
      const { rows, total } = await repo.messages(id, limit, offset, q.search);
      return { total, results: await presentMessages(rows, auth) };
    },

    /** A chat message: multipart `body` (Markdown) and `attachments`; may move the status. */
    async addMessage(
      auth: AuthContext,
      id: number,
      parts: AsyncIterable<MultipartPart>,
      ip: string,
    ): Promise<Comment> {
      await load(auth, id);
      const stager = new UploadStager(storage);
      try {
        const fields = parseMultipartFields(
          TaskMessageCreateFieldsSchema,
          await readChatParts(parts, stager),
        );
        const fromSoc = auth.role !== 'customer';
        const me = await displayName(db, auth.userId);
        const result = await db.transaction(async (tx) => {
          const task = await lockOpen(tx, auth, id);
          if (task.status === 'closed') {
            throw badRequest({ non_field_errors: [msg('taskClosed')] });
          }
          const writes = createTasksRepository(tx);
          const message = await writes.insertMessage({
            taskId: id,
            authorId: auth.userId,
            authorName: me.name,
            body: renderTypedMarkdown(fields.body),
            fromSoc,
          });
          await checkStorageQuota(tx, task.systemId, stager.files, storageQuotaBytes);
          await writes.insertAttachments(attachmentRows(id, message.id, stager.files, auth.userId));
          const next = statusAfterMessage(task.status, fromSoc);
          await writes.updateTask(id, {
            updated: message.created,
            messagesCount: task.messagesCount + 1,
            lastFromSoc: fromSoc,
            ...(next ? { status: next } : {}),
          });
          return { message, from: task.status, next };
        });
        await audit(db, {
          userId: auth.userId,
          action: 'task.message',
          objectType: 'task',
          objectId: id,
          ip,
          details: {
            message: result.message.id,
            files: stager.files.length,
            ...(result.next ? { status: [result.from, result.next] } : {}),
          },
        });
        if (fromSoc) await onSocReply(id, result.message.id);
        const [shown] = await presentMessages([result.message], auth);
        return shown!;
      } catch (err) {
        await stager.discard();
        throw err;
      }
    },

    /** Sets a status the caller's role and the current status allow (see availableStatuses). */
    async setStatus(auth: AuthContext, id: number, payload: { status: TaskStatus }, ip: string) {
      const { status } = TaskStatusPayloadSchema.parse(payload);
      const from = await db.transaction(async (tx) => {
        const task = await lockOpen(tx, auth, id);
        if (!availableStatuses(auth.role, task.status).includes(status)) {
          throw badRequest({
            status: [msg('taskStatus', task.status, status)],
          });
        }
        await createTasksRepository(tx).updateTask(id, { status, updated: new Date() });
        return task.status;
      });
      await audit(db, {
        userId: auth.userId,
        action: 'task.status',
        objectType: 'task',
        objectId: id,
        ip,
        details: { status: [from, status] },
      });
      return detail(auth, id);
    },

    /** Streams a file of a task the caller may see. */
    async sendAttachment(
      auth: AuthContext,
      id: number,
      attachmentId: string,
      rangeHeader: string | undefined,
      reply: FastifyReply,
    ): Promise<FastifyReply> {
      await load(auth, id);
      if (!isUuid(attachmentId)) throw notFound();
      const file = await repo.attachment(id, attachmentId);
      if (!file) throw notFound();
      return sendStoredFile(storage, file, rangeHeader, reply);
    },
  };
}
export type TasksService = ReturnType<typeof createTasksService>;
