import { Readable } from 'node:stream';
import { and, eq, sql } from 'drizzle-orm';
import PostalMime from 'postal-mime';
import type { Email } from 'postal-mime';
import type { CommentSource, InboundMailResult } from '@soc/contracts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { comments, incidents, userSystems, users } from '../../db/schema/index.ts';
import type { FileStorage } from '../../integrations/storage/file-storage.ts';
import { audit } from '../../lib/audit.ts';
import { HttpError, badRequest } from '../../lib/http-errors.ts';
import { sanitizeHtmlFragment } from '../../lib/markdown.ts';
import { UploadStager } from './attachments.service.ts';
import type { StatusListener } from './comments.service.ts';
import { insertComment } from './comments.service.ts';

/**
 * Largest message the gateway may post. The message is parsed in memory, so this stays well
 * below ten 50 MB files; larger files belong in the portal (mail servers rarely pass them anyway).
 */
export const INBOUND_MAIL_MAX_BYTES = 100 * 1024 * 1024;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The new text of a reply: everything above the quoted original. */
export function stripQuotedReply(text: string): string {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const out: string[] = [];
  for (const line of lines) {
    if (/^\s*>/.test(line)) break;
    if (/^-{2,}\s*(Original Message|Исходное сообщение|Пересылаемое сообщение)/i.test(line.trim())) break;
    if (/(wrote|пишет|написал(\(а\))?):\s*$/i.test(line.trim()) && line.trim().length < 200) break;
    if (/^(From|От):\s/.test(line) && out.length) break;
    out.push(line);
  }
  return out.join('\n').trim();
}

/** Plain text → HTML paragraphs (escaped). */
function textToHtml(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br />')}</p>`)
    .join('');
}

/**
 * Whether the receiving gateway vouched for the sender's domain: an Authentication-Results
 * header of our own server (RFC 8601) with DMARC pass, or an aligned DKIM or SPF pass. Headers
 * added by anyone else, e.g. by the sender, are ignored.
 */
export function senderVerified(mail: Email, authservId: string, fromAddress: string): boolean {
  const domain = fromAddress.split('@')[1]?.toLowerCase();
  if (!domain) return false;
  const ours = mail.headers.filter(
    (h) =>
      h.key === 'authentication-results' &&
      h.value.trim().split(/[;\s]/)[0]?.toLowerCase() === authservId.toLowerCase(),
  );
  // the top-most header is the one our gateway added; earlier hops may be forged
  const header = ours[0]?.value.toLowerCase();
  if (!header) return false;
  const results = header.split(';').map((s) => s.trim());
  const aligned = (value: string | undefined) =>
    !!value && (value === domain || domain.endsWith(`.${value}`));
  for (const r of results) {
    if (/^dmarc=pass\b/.test(r)) return true;
    if (/^dkim=pass\b/.test(r) && aligned(/header\.d=([^\s;]+)/.exec(r)?.[1])) return true;
    if (/^spf=pass\b/.test(r) && aligned(/smtp\.mailfrom=(?:[^@\s;]*@)?([^\s;]+)/.exec(r)?.[1])) return true;
  }
  return false;
}

/** The incident a reply is about: `[INC-12345]` in the subject, or `incidents+12345@` in To. */
export function incidentKeyOf(mail: Email): number | null {
  const fromSubject = /\[INC-(\d{1,15})\]/i.exec(mail.subject ?? '')?.[1];
  if (fromSubject) return Number(fromSubject);
  for (const to of [...(mail.to ?? []), ...(mail.cc ?? [])]) {
    const tagged = /\+(\d{1,15})@/.exec(to.address ?? '')?.[1];
    if (tagged) return Number(tagged);
  }
  return null;
}

export interface InboundMailDeps {
  db: Db;
  config: Config;
  storage: FileStorage;
  onStatus: StatusListener;
}

/**
 * Replies to notification e-mails become comments (spec 000 §3 Comment source). A sender whose
 * domain the gateway verified and who is an active user of the incident's system (or SOC staff)
 * writes as that user ("Email by authorized user") and moves the status like a portal comment;
 * anyone else is recorded as "Email by unauthorized user" and changes nothing.
 */
export function createInboundMailService({ db, config, storage, onStatus }: InboundMailDeps) {
  return {
    async receive(raw: Buffer, ip: string): Promise<{ result: InboundMailResult; created: boolean }> {
      let mail: Email;
      try {
        mail = await PostalMime.parse(raw, { attachmentEncoding: 'arraybuffer' });
      } catch {
        throw badRequest({ non_field_errors: ['The message could not be parsed as MIME.'] });
      }
      const from = mail.from?.address?.toLowerCase().trim();
      if (!from) throw badRequest({ non_field_errors: ['The message has no From address.'] });
      const key = incidentKeyOf(mail);
      if (key === null)
        throw badRequest({ non_field_errors: ['The message names no incident ([INC-key] in the subject).'] });
      const [incident] = await db
        .select({
          id: incidents.id,
          key: incidents.key,
          status: incidents.status,
          systemId: incidents.systemId,
        })
        .from(incidents)
        .where(eq(incidents.key, key));
      if (!incident) throw new HttpError(404, `Incident ${key} not found.`);

      const messageId = mail.messageId?.trim() || null;
      if (messageId) {
        const [existing] = await db
          .select({ id: comments.id, source: comments.source })
          .from(comments)
          .where(and(eq(comments.incidentId, incident.id), eq(comments.mailMessageId, messageId)));
        if (existing) {
          return {
            result: {
              comment_id: existing.id,
              incident: key,
              source: existing.source,
              created: false,
              skipped_attachments: [],
            },
            created: false,
          };
        }
      }

      const verified = senderVerified(mail, config.inboundMail.authservId, from);
      const [user] = verified
        ? await db
            .select({
              id: users.id,
              role: users.role,
              first: users.firstName,
              last: users.lastName,
              username: users.username,
              member: sql<boolean>`EXISTS (SELECT 1 FROM ${userSystems} us WHERE us.user_id = ${users.id} AND us.system_id = ${incident.systemId})`,
            })
            .from(users)
            .where(and(sql`lower(${users.email}) = ${from}`, eq(users.isActive, true)))
            .limit(1)
        : [];
      const authorized = !!user && (user.role !== 'customer' || user.member);
      const source: CommentSource = authorized ? 'Email by authorized user' : 'Email by unauthorized user';

      const text = mail.text ? stripQuotedReply(mail.text) : '';
      const html = text ? textToHtml(text) : sanitizeHtmlFragment(mail.html ?? '').trim();
      if (!html) throw badRequest({ non_field_errors: ['The message has no text.'] });

      const stager = new UploadStager(storage);
      const skipped: string[] = [];
      try {
        for (const a of mail.attachments) {
          if (a.disposition === 'inline' && !a.filename) continue;
          const name = a.filename ?? 'attachment';
          const bytes =
            typeof a.content === 'string'
              ? Buffer.from(a.content, 'utf8')
              : Buffer.from(a.content as ArrayBuffer);
          try {
            await stager.stage(name, Readable.from([bytes]));
          } catch (err) {
            if (err instanceof HttpError) skipped.push(name);
            else throw err;
          }
        }
        const senderName = mail.from && 'name' in mail.from && mail.from.name ? mail.from.name : '';
        const authorName = authorized
          ? `${user.first} ${user.last}`.trim() || user.username
          : senderName
            ? `${senderName} <${from}>`
            : from;
        const result = await db.transaction(async (tx) => {
          const [locked] = await tx
            .select({ id: incidents.id, key: incidents.key, status: incidents.status })
            .from(incidents)
            .where(eq(incidents.id, incident.id))
            .for('update');
          return insertComment(tx, {
            incident: locked!,
            authorId: authorized ? user.id : null,
            authorName,
            authorEmail: from,
            html,
            source,
            fromSoc: authorized && user.role !== 'customer',
            mailMessageId: messageId ?? undefined,
            files: stager.files,
            affectsStatus: authorized,
          });
        });
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
            ...(result.newStatus ? { status: [incident.status, result.newStatus] } : {}),
          },
        });
        if (result.newStatus) await onStatus(incident.id, result.newStatus);
        return {
          result: {
            comment_id: result.row.id,
            incident: key,
            source,
            created: true,
            skipped_attachments: skipped,
          },
          created: true,
        };
      } catch (err) {
        await stager.discard();
        // the gateway delivered the same message twice at once: the other delivery stored it
        if (messageId && isUniqueViolation(err)) {
          const [existing] = await db
            .select({ id: comments.id, source: comments.source })
            .from(comments)
            .where(and(eq(comments.incidentId, incident.id), eq(comments.mailMessageId, messageId)));
          if (existing) {
            return {
              result: {
                comment_id: existing.id,
                incident: key,
                source: existing.source,
                created: false,
                skipped_attachments: [],
              },
              created: false,
            };
          }
        }
        throw err;
      }
    },
  };
}

/** A PostgreSQL unique violation, possibly wrapped by the query layer. */
function isUniqueViolation(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    if (e.code === '23505') return true;
    e = e.cause as typeof e;
  }
  return false;
}

export type InboundMailService = ReturnType<typeof createInboundMailService>;
