import { requestContext } from '@fastify/request-context';
import type { Db } from '../db/client.ts';
import { createJobQueueRepository } from '../jobs/job-queue.repository.ts';
import { createAuditLogRepository } from './audit.repository.ts';

export interface AuditEntry {
  userId: number | null;
  action: string;
  objectType: string;
  objectId?: string | number;
  /** The caller's address. */
  ip: string;
  /** The caller's User-Agent, for sign-in related entries. */
  userAgent?: string;
  /** Never secrets: no passwords, tokens or codes. */
  details?: Record<string, unknown>;
}

/** The job that mails a security notice about one audit entry (see modules/auth/security-notice.ts). */
export const SECURITY_NOTICE_JOB = 'security_notice';

/**
 * Audit actions that change how a user signs in or reaches the API: their entry also mails the
 * user concerned a security notice, so that writers only record the entry. The entry names the
 * user (`objectType` 'user', `objectId` the user's id) or the API token (`service_token`, its id).
 */
export const SECURITY_NOTICE_ACTIONS: ReadonlySet<string> = new Set([
  'auth.password_change',
  'auth.password_reset',
  'auth.totp_enabled',
  'auth.totp_replaced',
  'auth.totp_disabled',
  'auth.sms_enabled',
  'auth.sms_changed',
  'auth.sms_disabled',
  'user.reset_mfa',
  'token.create',
  'token.revoke',
]);

/**
 * Records who did what, when and from where, and in which request (the id of the request being
 * answered, as in its log lines and its `X-Request-Id`; none for jobs and the admin CLI). An
 * action of SECURITY_NOTICE_ACTIONS queues its notice in the same transaction as the entry.
 */
export async function audit(db: Db, entry: AuditEntry): Promise<void> {
  const id = await createAuditLogRepository(db).insertAuditEntry({
    userId: entry.userId,
    action: entry.action,
    objectType: entry.objectType,
    objectId: entry.objectId === undefined ? '' : String(entry.objectId),
    ip: entry.ip,
    userAgent: (entry.userAgent ?? '').slice(0, 512),
    details: entry.details ?? {},
    requestId: requestContext.get('requestId') ?? null,
  });
  if (SECURITY_NOTICE_ACTIONS.has(entry.action)) {
    await createJobQueueRepository(db).queueJob(SECURITY_NOTICE_JOB, { audit_id: id });
  }
}
