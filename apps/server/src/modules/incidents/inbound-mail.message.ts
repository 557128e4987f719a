import { Readable } from 'node:stream';
import PostalMime from 'postal-mime';
import type { Email } from 'postal-mime';
import { HttpError, badRequest } from '../../lib/http-errors.ts';
import { sanitizeHtmlFragment } from '../../lib/markdown.ts';
import type { UploadStager } from '../../integrations/storage/upload-stager.ts';
import type { AuthenticationResults } from '../../lib/authentication-results.ts';
import { parseAuthenticationResults, propertyOf } from '../../lib/authentication-results.ts';

/*
 * What an inbound message says: whether our gateway vouched for its sender, the incident it is
 * about, its new text and its files. Plain functions of the parsed message, no database.
 */

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

/**
 * Whether our gateway authenticated the domain of the From address (RFC 8601): the TOPMOST
 * `Authentication-Results` header whose authserv-id is ours (`INBOUND_MAIL_AUTHSERV_ID`) says
 * `dmarc=pass` for that From domain, or `dkim=pass` with a `header.d` or `header.i` aligned with
 * it. Our gateway prepends its header, so anything below it claiming our id was written by the
 * sender or an earlier hop and is ignored, and so are headers of any other server. SPF is not
 * enough: it vouches for the envelope sender, not for the From address a reader sees.
 *
 * The header is read by its grammar (lib/authentication-results.ts): what a sender put in a
 * quoted string or a comment of ours — the envelope address in `smtp.mailfrom`, a DKIM selector —
 * is never a result. A header above ours that cannot be read at all might be ours with its
 * structure broken, so the search stops there and the sender is not verified: looking further
 * down would reach the headers the sender wrote.
 */
export function senderVerified(mail: Email, authservId: string, fromAddress: string): boolean {
  const domain = domainOf(fromAddress);
  if (!domain || !fromAddress.includes('@')) return false;
  let ours: AuthenticationResults | undefined;
  for (const h of mail.headers) {
    if (h.key !== 'authentication-results') continue;
    const parsed = parseAuthenticationResults(h.value);
    if (!parsed) return false;
    if (parsed.authservId === authservId.toLowerCase()) {
      ours = parsed;
      break;
    }
  }
  if (!ours) return false;
  return ours.results.some((r) =>
    r.method === 'dmarc'
      ? r.result === 'pass' && domainOf(propertyOf(r, 'header.from')) === domain
      : r.method === 'dkim' &&
        r.result === 'pass' &&
        (aligned(domainOf(propertyOf(r, 'header.d')), domain) ||
          aligned(domainOf(propertyOf(r, 'header.i')), domain)),
  );
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
