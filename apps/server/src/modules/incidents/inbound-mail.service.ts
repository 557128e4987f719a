import { Readable } from 'node:stream';
import type { Email } from 'postal-mime';
import type { CommentSource, InboundMailResult, MailQuarantineReason } from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import type { Db } from '../../db/client.ts';
import type { FileStorage } from '../../integrations/storage/file-storage.ts';
import { audit } from '../../lib/audit.ts';
import { HttpError, badRequest } from '../../lib/http-errors.ts';
import { UploadStager } from '../../integrations/storage/upload-stager.ts';
import type { StatusListener } from './comments.service.ts';
import { fitsStorageQuota } from '../../integrations/storage/storage-quota.ts';
import { insertComment } from './comments.service.ts';
import { createIncidentAccessRepository } from './incident-access.ts';
import {
  inCentreDomain,
  incidentKeyOf,
  mailAttachments,
  mailHtml,
  outsideAuthor,
  parseMail,
  senderVerified,
  stageMailAttachments,
} from './inbound-mail.message.ts';
import { createInboundMailRepository } from './inbound-mail.repository.ts';
import { createMailQuarantineRepository } from './mail-quarantine.repository.ts';
import { shownName } from '../users/index.ts';

/**
 * Largest message the gateway may post. The message is parsed in memory, so this stays well
 * below ten 50 MB files; larger files belong in the portal (mail servers rarely pass them anyway).
 */
export const INBOUND_MAIL_MAX_BYTES = 100 * 1024 * 1024;

export interface InboundMailDeps {
  db: Db;
  config: Config;
  storage: FileStorage;
  onStatus: StatusListener;
}

type Outcome = { result: InboundMailResult; created: boolean; quarantined: boolean };

/**
 * Replies to notification e-mails (product §A3 Comment source). Our gateway must have
 * authenticated the sender's domain (see senderVerified). Then an active user of the incident's
 * system (or SOC staff) writes as that user ("Email by authorized user") and moves the status like
 * a portal comment, and the national centre's domain writes as the centre. Every other mail —
 * unauthenticated (also when it claims the centre's domain), or from an authenticated address
 * that is no user of the system — is kept in the analysts' quarantine (mail-quarantine.service.ts)
 * and never reaches the customer's incident unless an analyst releases it.
 */
export function createInboundMailService({ db, config, storage, onStatus }: InboundMailDeps) {
  const repo = createInboundMailRepository(db);
  const quarantined = createMailQuarantineRepository(db);
  /** The answer for a message stored before (the gateway delivering it again). */
  async function earlier(incidentId: string, key: number, messageId: string): Promise<Outcome | null> {
    const comment = await repo.commentByMessage(incidentId, messageId);
    const held = comment ? undefined : await quarantined.findByMessage(incidentId, messageId);
    if (!comment && !held) return null;
    return {
      result: {
        comment_id: comment?.id ?? null,
        incident: key,
        source: comment?.source ?? null,
        quarantine_id: held?.id ?? null,
        created: false,
        skipped_attachments: [],
      },
      created: false,
      quarantined: !!held,
    };
  }

  return {
    async receive(raw: Buffer, ip: string): Promise<Outcome> {
      const mail = await parseMail(raw);
      const from = mail.from?.address?.toLowerCase().trim();
      if (!from) throw badRequest({ non_field_errors: ['The message has no From address.'] });
      const key = incidentKeyOf(mail);
      if (key === null)
        throw badRequest({ non_field_errors: ['The message names no incident ([INC-key] in the subject).'] });
      const incident = await repo.incidentByKey(key);
      if (!incident) throw new HttpError(404, `Incident ${key} not found.`);

      const messageId = mail.messageId?.trim() || null;
      if (messageId) {
        const before = await earlier(incident.id, key, messageId);
        if (before) return before;
      }

      const verified = senderVerified(mail, config.inboundMail.authservId, from);
      const claimsCentre = inCentreDomain(from, config.nationalCentre.mailDomain);
      const user =
        verified && !claimsCentre ? await repo.activeUserByEmail(from, incident.systemId) : undefined;
      const authorized = !!user && (user.role !== 'customer' || user.member);
      const centre = verified && claimsCentre;
      const html = mailHtml(mail);

      try {
        if (!authorized && !centre) {
          const reason: MailQuarantineReason = claimsCentre
            ? 'unverified_national_centre'
            : verified
              ? 'not_a_user'
              : 'unverified_sender';
          const id = await quarantine(mail, raw, {
            incidentId: incident.id,
            from,
            html,
            verified,
            reason,
            messageId,
          });
          await audit(db, {
            userId: null,
            action: 'mail_quarantine.receive',
            // staff-only entries (audit_scope gives customers no system for them)
            objectType: 'mail_quarantine',
            objectId: id,
            ip,
            details: { incident: key, from, verified, reason },
          });
          return {
            result: {
              comment_id: null,
              incident: key,
              source: null,
              quarantine_id: id,
              created: true,
              skipped_attachments: [],
            },
            created: true,
            quarantined: true,
          };
        }
        const source: CommentSource = 'Email by authorized user';
        const stager = new UploadStager(storage);
        try {
          const skipped = await stageMailAttachments(stager, mail);
          let overQuota = false;
          const result = await db.transaction(async (tx) => {
            const locked = await createIncidentAccessRepository(tx).lockIncident(incident.id);
            // past the system's storage quota the reply is kept without its files
            overQuota = !(await fitsStorageQuota(
              tx,
              locked!.systemId,
              stager.files,
              config.storageQuotaBytesPerSystem,
            ));
            return insertComment(tx, {
              incident: locked!,
              authorId: authorized ? user.id : null,
              authorName: authorized ? shownName(user) : outsideAuthor(mail, from),
              authorEmail: from,
              html,
              source,
              fromSoc: authorized && user.role !== 'customer',
              fromNationalCentre: centre,
              mailMessageId: messageId ?? undefined,
              files: overQuota ? [] : stager.files,
              // the centre informs; only the incident's own people move its status
              affectsStatus: authorized,
            });
          });
          if (overQuota) {
            skipped.push(...stager.files.map((f) => f.filename));
            await stager.discard();
          }
          await audit(db, {
            userId: authorized ? user.id : null,
            action: 'incident.comment_mail',
            objectType: 'incident',
            objectId: key,
            ip,
            details: {
              comment: result.row.id,
              from,
              verified,
              source,
              ...(centre ? { national_centre: true } : {}),
              ...(result.newStatus ? { status: [incident.status, result.newStatus] } : {}),
            },
          });
          if (result.newStatus) await onStatus(incident.id, result.newStatus);
          return {
            result: {
              comment_id: result.row.id,
              incident: key,
              source,
              quarantine_id: null,
              created: true,
              skipped_attachments: skipped,
            },
            created: true,
            quarantined: false,
          };
        } catch (err) {
          await stager.discard();
          throw err;
        }
      } catch (err) {
        // the gateway delivered the same message twice at once: the other delivery stored it
        if (messageId && isUniqueViolation(err)) {
          const before = await earlier(incident.id, key, messageId);
          if (before) return before;
        }
        throw err;
      }
    },
  };

  /** Keeps the raw message (for its files) and the entry analysts review; returns the entry's id. */
  async function quarantine(
    mail: Email,
    raw: Buffer,
    m: {
      incidentId: string;
      from: string;
      html: string;
      verified: boolean;
      reason: MailQuarantineReason;
      messageId: string | null;
    },
  ): Promise<number> {
    const stored = await storage.put(QUARANTINE_PREFIX, Readable.from([raw]), INBOUND_MAIL_MAX_BYTES);
    try {
      return await quarantined.insert({
        incidentId: m.incidentId,
        senderEmail: m.from,
        senderName: mail.from && 'name' in mail.from ? (mail.from.name ?? '') : '',
        subject: (mail.subject ?? '').slice(0, 998),
        body: m.html,
        senderVerified: m.verified,
        reason: m.reason,
        attachmentNames: mailAttachments(mail).map((a) => a.filename ?? 'attachment'),
        rawKey: stored.key,
        mailMessageId: m.messageId,
      });
    } catch (err) {
      await storage.remove(stored.key);
      throw err;
    }
  }
}

/** Storage prefix of quarantined raw messages. */
export const QUARANTINE_PREFIX = 'mail-quarantine';

/** A PostgreSQL unique violation, possibly wrapped by the query layer. */
export function isUniqueViolation(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    if (e.code === '23505') return true;
    e = e.cause as typeof e;
  }
  return false;
}

export type InboundMailService = ReturnType<typeof createInboundMailService>;
