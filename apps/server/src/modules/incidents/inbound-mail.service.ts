import { Readable } from 'node:stream';
import { and, eq, sql } from 'drizzle-orm';
import PostalMime from 'postal-mime';
import type { Email } from 'postal-mime';
import type { CommentSource, InboundMailResult, MailQuarantineReason } from '@soc/contracts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { comments, incidents, mailQuarantine, userSystems, users } from '../../db/schema/index.ts';
import type { FileStorage } from '../../integrations/storage/file-storage.ts';
import { audit } from '../../lib/audit.ts';
import { HttpError, badRequest } from '../../lib/http-errors.ts';
import { sanitizeHtmlFragment } from '../../lib/markdown.ts';
import { UploadStager } from '../../integrations/storage/upload-stager.ts';
import type { StatusListener } from '../comments/index.ts';
import { fitsStorageQuota } from '../../integrations/storage/storage-quota.ts';
import { insertComment } from '../comments/index.ts';
import { lockIncident } from './incident-access.ts';
import { shownName } from '../users/index.ts';

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

/** `user@domain` or `@domain` → `domain`, lower case. */
const domainOf = (value: string | undefined) => value?.split('@').pop()?.toLowerCase().replace(/\.$/, '');

/** The From domain is the signing domain or one of its subdomains (relaxed alignment, RFC 7489 §3.1). */
const aligned = (signer: string | undefined, domain: string) =>
  !!signer && (signer === domain || domain.endsWith(`.${signer}`));

/** The authserv-id of an Authentication-Results value (its first token, unquoted), lower case. */
const authservIdOf = (value: string) =>
  value
    .trim()
    .split(';')[0]!
    .trim()
    .split(/\s+/)[0]!
    .replace(/^"(.*)"$/, '$1')
    .toLowerCase();

/**
 * Whether our gateway authenticated the domain of the From address (RFC 8601): the TOPMOST
 * `Authentication-Results` header whose authserv-id is ours (`INBOUND_MAIL_AUTHSERV_ID`) says
 * `dmarc=pass` for that From domain, or `dkim=pass` with a `header.d` or `header.i` aligned with
 * it. Our gateway prepends its header, so anything below it claiming our id was written by the
 * sender or an earlier hop and is ignored, and so are headers of any other server. SPF is not
 * enough: it vouches for the envelope sender, not for the From address a reader sees.
 */
export function senderVerified(mail: Email, authservId: string, fromAddress: string): boolean {
  const domain = domainOf(fromAddress);
  if (!domain || !fromAddress.includes('@')) return false;
  const ours = mail.headers.find(
    (h) => h.key === 'authentication-results' && authservIdOf(h.value) === authservId.toLowerCase(),
  );
  if (!ours) return false;
  const results = ours.value
    .toLowerCase()
    // RFC 5322 comments, e.g. `dkim=pass (2048-bit key)`, carry no verdict
    .replace(/\([^()]*\)/g, ' ')
    .split(';')
    .slice(1)
    .map((r) => r.trim());
  const property = (r: string, name: string) =>
    new RegExp(`(?:^|\\s)${name.replace('.', '\\.')}\\s*=\\s*"?([^\\s;"]+)`).exec(r)?.[1];
  for (const r of results) {
    if (/^dmarc\s*=\s*pass\b/.test(r) && domainOf(property(r, 'header.from')) === domain) return true;
    if (
      /^dkim\s*=\s*pass\b/.test(r) &&
      (aligned(domainOf(property(r, 'header.d')), domain) ||
        aligned(domainOf(property(r, 'header.i')), domain))
    )
      return true;
  }
  return false;
}

/** Whether an address is in the national centre's mail domain (or a subdomain of it). */
export function inCentreDomain(address: string, centreDomain: string): boolean {
  const domain = domainOf(address);
  return !!domain && !!centreDomain && (domain === centreDomain || domain.endsWith(`.${centreDomain}`));
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

/** Parses raw MIME; a message that is not MIME is the gateway's error (400). */
export async function parseMail(raw: Buffer): Promise<Email> {
  try {
    return await PostalMime.parse(raw, { attachmentEncoding: 'arraybuffer' });
  } catch {
    throw badRequest({ non_field_errors: ['The message could not be parsed as MIME.'] });
  }
}

/** The new text of a reply as sanitised HTML. */
export function mailHtml(mail: Email): string {
  const text = mail.text ? stripQuotedReply(mail.text) : '';
  const html = text ? textToHtml(text) : sanitizeHtmlFragment(mail.html ?? '').trim();
  if (!html) throw badRequest({ non_field_errors: ['The message has no text.'] });
  return html;
}

/** The attachments a reader would see (inline images without a name are part of the text). */
export const mailAttachments = (mail: Email) =>
  mail.attachments.filter((a) => !(a.disposition === 'inline' && !a.filename));

/** Stages a mail's attachments as comment files; returns the names refused (executables, oversize…). */
export async function stageMailAttachments(stager: UploadStager, mail: Email): Promise<string[]> {
  const skipped: string[] = [];
  for (const a of mailAttachments(mail)) {
    const name = a.filename ?? 'attachment';
    const bytes =
      typeof a.content === 'string' ? Buffer.from(a.content, 'utf8') : Buffer.from(a.content as ArrayBuffer);
    try {
      await stager.stage(name, Readable.from([bytes]));
    } catch (err) {
      if (err instanceof HttpError) skipped.push(name);
      else throw err;
    }
  }
  return skipped;
}

/** `Name <address>`, or the address alone: how an unauthenticated sender is shown. */
export function outsideAuthor(mail: Email, from: string): string {
  const name = mail.from && 'name' in mail.from && mail.from.name ? mail.from.name : '';
  return name ? `${name} <${from}>` : from;
}

export interface InboundMailDeps {
  db: Db;
  config: Config;
  storage: FileStorage;
  onStatus: StatusListener;
}

type Outcome = { result: InboundMailResult; created: boolean; quarantined: boolean };

/**
 * Replies to notification e-mails (spec 000 §3 Comment source). Our gateway must have
 * authenticated the sender's domain (see senderVerified). Then an active user of the incident's
 * system (or SOC staff) writes as that user ("Email by authorized user") and moves the status like
 * a portal comment, and the national centre's domain writes as the centre. Every other mail —
 * unauthenticated (also when it claims the centre's domain), or from an authenticated address
 * that is no user of the system — is kept in the analysts' quarantine (mail-quarantine.service.ts)
 * and never reaches the customer's incident unless an analyst releases it.
 */
export function createInboundMailService({ db, config, storage, onStatus }: InboundMailDeps) {
  const existingComment = async (incidentId: string, messageId: string) =>
    (
      await db
        .select({ id: comments.id, source: comments.source })
        .from(comments)
        .where(and(eq(comments.incidentId, incidentId), eq(comments.mailMessageId, messageId)))
    )[0];
  const existingQuarantine = async (incidentId: string, messageId: string) =>
    (
      await db
        .select({ id: mailQuarantine.id })
        .from(mailQuarantine)
        .where(and(eq(mailQuarantine.incidentId, incidentId), eq(mailQuarantine.mailMessageId, messageId)))
    )[0];
  /** The answer for a message stored before (the gateway delivering it again). */
  async function earlier(incidentId: string, key: number, messageId: string): Promise<Outcome | null> {
    const comment = await existingComment(incidentId, messageId);
    const held = comment ? undefined : await existingQuarantine(incidentId, messageId);
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
        const before = await earlier(incident.id, key, messageId);
        if (before) return before;
      }

      const verified = senderVerified(mail, config.inboundMail.authservId, from);
      const claimsCentre = inCentreDomain(from, config.nationalCentre.mailDomain);
      const [user] =
        verified && !claimsCentre
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
            const locked = await lockIncident(tx, incident.id);
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
      const [row] = await db
        .insert(mailQuarantine)
        .values({
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
        })
        .returning({ id: mailQuarantine.id });
      return row!.id;
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
