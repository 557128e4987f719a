import type { Comment, CommentSource, IncidentStatus } from '@soc/contracts';
import { COMMENTS_NO_PAGE_MAX, CommentCreateFieldsSchema } from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { FileStorage } from '../../integrations/storage/file-storage.ts';
import { checkStorageQuota } from '../../integrations/storage/storage-quota.ts';
import type { StagedFile } from '../../integrations/storage/upload-stager.ts';
import { UploadStager } from '../../integrations/storage/upload-stager.ts';
import { audit } from '../../lib/audit.ts';
import { badRequest } from '../../lib/http-errors.ts';
import { msg } from '../../lib/messages.ts';
import { renderTypedMarkdown } from '../../lib/markdown.ts';
import type { MultipartPart } from '../../integrations/storage/multipart.ts';
import { parseMultipartFields, readChatParts } from '../../integrations/storage/multipart.ts';
import { likePattern } from '../../lib/pagination.ts';
import type { AuthContext } from '../../core/auth.ts';
import { systemScope } from '../../core/auth.ts';
import type { IncidentRecord } from './incident-access.ts';
import { createIncidentAccessRepository, loadIncident } from './incident-access.ts';
import { statusAfterComment } from './incident-workflow.ts';
import type { IncidentResponseCache } from './response-cache.ts';
import { displayName } from '../users/index.ts';
import { presentComment } from './comments.presenter.ts';
import type { CommentRow } from './comments.repository.ts';
import { createCommentsRepository } from './comments.repository.ts';

/** A page of the chat: `page`/`page_size`, or everything (`no_page`), optionally searched. */
type ChatQuery = { page: number; page_size: number; no_page?: boolean; search?: string };

export interface NewComment {
  incident: Pick<IncidentRecord, 'id' | 'key' | 'status'>;
  authorId: number | null;
  authorName: string;
  authorEmail?: string;
  /** Sanitised HTML. */
  html: string;
  source: CommentSource;
  fromSoc: boolean;
  issueCompleted?: boolean;
  mailMessageId?: string;
  /** Mail from the national centre's domain that our gateway authenticated. */
  fromNationalCentre?: boolean;
  files?: StagedFile[];
  /** Whether the comment may move the status (an unverified sender's mail may not). */
  affectsStatus: boolean;
}

/** Called when a status change needs customers told (notification e-mails). */
export type StatusListener = (incidentId: string, status: IncidentStatus) => Promise<void>;

/**
 * Stores a comment and its files inside a transaction and applies the status effect of
 * design §5. Returns the comment row and the new status, if it changed.
 */
export async function insertComment(
  tx: Tx,
  c: NewComment,
): Promise<{ row: CommentRow; newStatus: IncidentStatus | null }> {
  const repo = createCommentsRepository(tx);
  // a reply of the SOC goes out under the system's name for it, if the system has one, on every
  // path that shows the comment (chat, PDF, mail, webhooks, notification centre): set here, once
  const team = c.fromSoc ? await repo.socReplyName(c.incident.id) : null;
  const row = await repo.insert({
    incidentId: c.incident.id,
    authorId: c.authorId,
    authorName: team ?? c.authorName,
    asTeam: team !== null,
    authorEmail: c.authorEmail ?? '',
    body: c.html,
    source: c.source,
    fromSoc: c.fromSoc,
    issueCompleted: c.issueCompleted ?? false,
    mailMessageId: c.mailMessageId ?? null,
    fromNationalCentre: c.fromNationalCentre ?? false,
  });
  if (c.files?.length) await repo.insertFiles(row, c.files, c.authorId);
  const next = c.affectsStatus
    ? statusAfterComment(c.incident.status, c.fromSoc, c.issueCompleted ?? false)
    : null;
  await repo.touchIncident(c.incident.id, next, new Date());
  return { row, newStatus: next };
}

/**
 * Stores an internal note of the SOC (design §9): it writes no event (see db/derived/events.ts),
 * neither moves the status nor touches the incident's `updated`, carries no files and sends
 * nothing; its audit entry names the note, not the incident, so that it stays out of the
 * customers' audit log.
 */
export async function insertNote(
  db: Db,
  incident: Pick<IncidentRecord, 'id' | 'key'>,
  author: { id: number | null; name: string; email: string },
  html: string,
  ip: string,
): Promise<CommentRow> {
  return db.transaction(async (tx) => {
    const row = await createCommentsRepository(tx).insert({
      incidentId: incident.id,
      authorId: author.id,
      authorName: author.name,
      authorEmail: author.email,
      body: html,
      source: 'API',
      fromSoc: true,
      internal: true,
    });
    await audit(tx, {
      userId: author.id,
      action: 'incident.note',
      objectType: 'incident_note',
      objectId: row.id,
      ip,
      details: { incident: incident.key },
    });
    return row;
  });
}

/** A page of an incident's internal notes, oldest first (staff only; the caller checks the role). */
export async function notesPage(
  db: Db,
  incidentId: string,
  q: { page: number; page_size: number },
): Promise<{ total: number; rows: CommentRow[] }> {
  return createCommentsRepository(db).page(incidentId, {
    internal: true,
    limit: q.page_size,
    offset: (q.page - 1) * q.page_size,
  });
}

export interface CommentsDeps {
  db: Db;
  config: Config;
  storage: FileStorage;
  onStatus: StatusListener;
  /** Keeps chat pages until something they show changes. */
  responses?: IncidentResponseCache;
}

export function createCommentsService({ db, config, storage, onStatus, responses }: CommentsDeps) {
  const repo = createCommentsRepository(db);
  async function presentMany(rows: CommentRow[], key: number, auth: AuthContext): Promise<Comment[]> {
    const files = await repo.attachmentsOf(rows.map((r) => r.id));
    return rows.map((r) => presentComment(r, key, files.get(r.id) ?? [], auth, config.nationalCentre.name));
  }

  async function readPage(
    key: number,
    auth: AuthContext,
    q: ChatQuery,
  ): Promise<{ total: number; results: Comment[] }> {
    const incident = await loadIncident(db, key, auth);
    const { total, rows } = await repo.page(incident.id, {
      pattern: q.search ? likePattern(q.search) : undefined,
      limit: q.no_page ? COMMENTS_NO_PAGE_MAX : q.page_size,
      offset: q.no_page ? 0 : (q.page - 1) * q.page_size,
    });
    return { total, results: await presentMany(rows, key, auth) };
  }

  return {
    presentMany,

    /** The chat of an incident, oldest first. */
    async list(key: number, auth: AuthContext, q: ChatQuery): Promise<{ total: number; results: Comment[] }> {
      const build = () => readPage(key, auth, q);
      return responses ? responses.comments(key, systemScope(auth), auth.userId, q, build) : build();
    },

    /**
     * A comment from the portal: multipart `body`, `issue_completed`, `attachments`. Files are
     * streamed into storage as they arrive and dropped again if anything is refused.
     */
    async create(
      key: number,
      parts: AsyncIterable<MultipartPart>,
      auth: AuthContext,
      ip: string,
    ): Promise<Comment> {
      const incident = await loadIncident(db, key, auth);
      const stager = new UploadStager(storage);
      // after the commit the files belong to the comment: a later failure (the database gone
      // while reading it back) must not remove them
      let committed = false;
      try {
        const fields = await readChatParts(parts, stager);
        const parsed = parseMultipartFields(CommentCreateFieldsSchema, fields);
        const byStaff = auth.role !== 'customer';
        if (parsed.issue_completed && byStaff) {
          throw badRequest({ issue_completed: [msg('completeByAction')] });
        }
        const me = await displayName(db, auth.userId);
        const result = await db.transaction(async (tx) => {
          const locked = await createIncidentAccessRepository(tx).lockIncident(incident.id);
          if (
            parsed.issue_completed &&
            !['waiting_for_customer', 'waiting_for_support', 'work_in_progress'].includes(locked!.status)
          ) {
            throw badRequest({ issue_completed: [msg('completeNotOpen')] });
          }
          await checkStorageQuota(tx, incident.systemId, stager.files, config.storageQuotaBytesPerSystem);
          const inserted = await insertComment(tx, {
            incident: locked!,
            authorId: auth.userId,
            authorName: me.name,
            authorEmail: me.email,
            html: renderTypedMarkdown(parsed.body),
            source: 'API',
            fromSoc: byStaff,
            issueCompleted: parsed.issue_completed,
            files: stager.files,
            affectsStatus: true,
          });
          // in the transaction: once the comment is committed its files must stay (see discard below)
          await audit(tx, {
            userId: auth.userId,
            action: 'incident.comment',
            objectType: 'incident',
            objectId: key,
            ip,
            details: {
              comment: inserted.row.id,
              files: stager.files.length,
              ...(inserted.newStatus ? { status: [incident.status, inserted.newStatus] } : {}),
            },
          });
          return inserted;
        });
        committed = true;
        if (result.newStatus) await onStatus(incident.id, result.newStatus);
        const [shown] = await presentMany([result.row], key, auth);
        return shown!;
      } catch (err) {
        if (!committed) await stager.discard();
        throw err;
      }
    },
  };
}

export type CommentsService = ReturnType<typeof createCommentsService>;
