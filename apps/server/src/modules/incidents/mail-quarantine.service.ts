import { buffer } from 'node:stream/consumers';
import type {
  MailQuarantineDetail,
  MailQuarantineItem,
  MailQuarantineQuery,
  MailQuarantineReleased,
} from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import type { Db } from '../../db/client.ts';
import type { FileStorage } from '../../integrations/storage/file-storage.ts';
import { audit } from '../../lib/audit.ts';
import { notFound } from '../../lib/http-errors.ts';
import type { AuthContext } from '../../core/auth.ts';
import { systemScope } from '../../core/auth.ts';
import { UploadStager } from '../../integrations/storage/upload-stager.ts';
import { checkStorageQuota } from '../../integrations/storage/storage-quota.ts';
import { insertComment } from './comments.service.ts';
import { createIncidentAccessRepository } from './incident-access.ts';
import { outsideAuthor, parseMail, stageMailAttachments } from './inbound-mail.message.ts';
import type { QuarantineRow } from './mail-quarantine.repository.ts';
import { createMailQuarantineRepository } from './mail-quarantine.repository.ts';

const presentItem = (r: QuarantineRow): MailQuarantineItem => ({
  id: r.id,
  incident: r.incidentKey,
  system: r.systemCode,
  sender: r.senderEmail,
  sender_name: r.senderName,
  subject: r.subject,
  reason: r.reason,
  sender_verified: r.senderVerified,
  received: r.received.getTime(),
  attachments: r.attachmentNames,
});

export interface MailQuarantineDeps {
  db: Db;
  storage: FileStorage;
  /** Its per-system storage quota, which a released mail's files count against (0: none). */
  config: Pick<Config, 'storageQuotaBytesPerSystem'>;
}

/**
 * The analysts' review of inbound mail the portal could not vouch for (issue 25 item 4). A
 * released mail becomes an outside comment ("Email by unauthorized user", shown with a warning,
 * never as a user or as the national centre, moving no status); a deleted one is gone with its
 * stored message. Staff only; a token limited to systems sees only theirs.
 */
export function createMailQuarantineService({ db, storage, config }: MailQuarantineDeps) {
  const repo = createMailQuarantineRepository(db);

  async function find(id: number, auth: AuthContext): Promise<QuarantineRow> {
    const row = await repo.find(id, systemScope(auth));
    if (!row) throw notFound();
    return row;
  }

  return {
    async list(q: MailQuarantineQuery, auth: AuthContext) {
      const { rows, total } = await repo.list(q, systemScope(auth));
      return { total, results: rows.map(presentItem) };
    },

    async one(id: number, auth: AuthContext): Promise<MailQuarantineDetail> {
      const row = await find(id, auth);
      return { ...presentItem(row), body: row.body };
    },

    async release(id: number, auth: AuthContext, ip: string): Promise<MailQuarantineReleased> {
      const row = await find(id, auth);
      const mail = await parseMail(await buffer(await storage.open(row.rawKey)));
      const stager = new UploadStager(storage);
      let commentId: number;
      try {
        const skipped = await stageMailAttachments(stager, mail);
        commentId = await db.transaction(async (tx) => {
          const locked = await createIncidentAccessRepository(tx).lockIncident(row.incidentId);
          // released or deleted by another analyst meanwhile
          const taken = await createMailQuarantineRepository(tx).take(row.id);
          if (!locked || !taken) throw notFound();
          await checkStorageQuota(tx, locked.systemId, stager.files, config.storageQuotaBytesPerSystem);
          const { row: comment } = await insertComment(tx, {
            incident: locked,
            authorId: null,
            authorName: outsideAuthor(mail, row.senderEmail),
            authorEmail: row.senderEmail,
            html: row.body,
            source: 'Email by unauthorized user',
            fromSoc: false,
            fromNationalCentre: false,
            mailMessageId: row.mailMessageId ?? undefined,
            files: stager.files,
            affectsStatus: false,
          });
          return comment.id;
        });
        await audit(db, {
          userId: auth.userId,
          action: 'mail_quarantine.release',
          objectType: 'mail_quarantine',
          objectId: row.id,
          ip,
          details: {
            incident: row.incidentKey,
            comment: commentId,
            from: row.senderEmail,
            reason: row.reason,
            ...(skipped.length ? { skipped_attachments: skipped } : {}),
          },
        });
      } catch (err) {
        await stager.discard();
        throw err;
      }
      await storage.remove(row.rawKey);
      return { comment_id: commentId, incident: row.incidentKey };
    },

    async remove(id: number, auth: AuthContext, ip: string): Promise<void> {
      const row = await find(id, auth);
      if (!(await repo.take(row.id))) throw notFound();
      await storage.remove(row.rawKey);
      await audit(db, {
        userId: auth.userId,
        action: 'mail_quarantine.delete',
        objectType: 'mail_quarantine',
        objectId: row.id,
        ip,
        details: { incident: row.incidentKey, from: row.senderEmail, reason: row.reason },
      });
    },
  };
}

export type MailQuarantineService = ReturnType<typeof createMailQuarantineService>;
