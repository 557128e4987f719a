import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type { Db } from '../../db/client.ts';
import { audit } from '../../lib/audit.ts';
import { countOutcome, mails } from '../../lib/metrics.ts';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../core/private-files.ts';

export interface MailAttachment {
  filename: string;
  /** A file on disk (streamed, not loaded). */
  path: string;
  contentType?: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
  /** Where replies go (inbound mail turns them into comments). */
  replyTo?: string;
  /** Extra headers, e.g. `Message-ID`-related or `X-…` tags. */
  headers?: Record<string, string>;
  messageId?: string;
  /** What the message is, for the audit log (which never holds the subject or the text). */
  kind?: MailKind;
}

/** Kinds of e-mail the portal sends (audit `mail.sent` details). */
export type MailKind =
  | 'report'
  | 'incident_csv'
  | 'incident_notification'
  | 'task_notification'
  | 'notification'
  | 'account'
  | 'other';

export interface Mailer {
  /** Delivers a message; rejects when the SMTP peer refuses it (the job runner retries). */
  send(message: MailMessage): Promise<{ messageId: string }>;
  close(): void;
}

export interface MailerOptions {
  /** `smtp://user:pass@host:port` or `smtps://…`; without it messages go to the outbox folder. */
  smtpUrl?: string;
  from: string;
  /** Folder of `.eml` files for the embedded default (inspectable by hand or by tests). */
  outboxDir: string;
}

/**
 * SMTP through nodemailer. The embedded default has no mail server: it writes each message as an
 * `.eml` file into the outbox folder, the same bytes SMTP would carry.
 */
export function createMailer(options: MailerOptions): Mailer {
  const transport: Transporter = options.smtpUrl
    ? nodemailer.createTransport(options.smtpUrl)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send({ kind: _kind, ...message }) {
      const info = (await transport.sendMail({ from: options.from, ...message })) as {
        messageId: string;
        message?: Buffer;
      };
      if (!options.smtpUrl && info.message) {
        await mkdir(options.outboxDir, { recursive: true, mode: PRIVATE_DIR_MODE });
        const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.eml`;
        await writeFile(path.join(options.outboxDir, name), info.message, { mode: PRIVATE_FILE_MODE });
      }
      return { messageId: info.messageId };
    },
    close() {
      transport.close();
    },
  };
}

/**
 * Every e-mail the portal sends is recorded once, here (issue 25 item 12): action `mail.sent`
 * with the recipients and the kind of message, never its subject, text or files. All senders
 * (reports, CSV exports, notifications, account notices) get the mailer through this wrapper.
 */
export function auditedMailer(
  mailer: Mailer,
  db: Db,
  log: { error(obj: object, msg: string): void },
): Mailer {
  return {
    async send(message) {
      const sent = await countOutcome(mailer.send(message), mails);
      // the mail is out: a failed record must not fail the job, whose retry would send it again
      await audit(db, {
        userId: null,
        action: 'mail.sent',
        objectType: 'mail',
        ip: '',
        details: {
          to: message.to
            .split(',')
            .map((a) => a.trim())
            .filter(Boolean),
          kind: message.kind ?? 'other',
        },
      }).catch((err: unknown) => log.error({ err, kind: message.kind }, 'mail sent but not audited'));
      return sent;
    },
    close() {
      mailer.close();
    },
  };
}
