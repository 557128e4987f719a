import { refusedRecipientMessage } from '@soc/contracts';
import type { Language } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { badRequest } from '../../lib/http-errors.ts';
import { createReportsRepository } from './reports.repository.ts';

const domainOf = (address: string) => address.split('@').pop()!.toLowerCase();

/**
 * The addresses among `emails` that may not receive a report of `systemIds` (issue 25 item 12).
 * An address may when, for EVERY system of the report, it belongs to an active user of that system
 * or is in a mail domain an administrator allowed for it (`systems.mail_domains`); the provider's
 * active staff may receive any report. A typed address thus never carries one tenant's report to
 * someone outside it.
 */
export async function refusedRecipients(db: Db, systemIds: number[], emails: string[]): Promise<string[]> {
  if (!emails.length) return [];
  const lower = [...new Set(emails.map((e) => e.trim().toLowerCase()))];
  const ids = [...new Set(systemIds)];
  const {
    domains: domainRows,
    members,
    staff,
  } = await createReportsRepository(db).recipientGrants(ids, lower);
  const staffSet = new Set(staff.map((s) => s.email));
  const domains = new Map(domainRows.map((r) => [r.id, new Set(r.domains.map((d) => d.toLowerCase()))]));
  const memberOf = new Set(members.map((m) => `${m.systemId} ${m.email}`));
  const allowed = (address: string) =>
    staffSet.has(address) ||
    (ids.length > 0 &&
      ids.every((id) => memberOf.has(`${id} ${address}`) || !!domains.get(id)?.has(domainOf(address))));
  return emails.filter((e) => !allowed(e.trim().toLowerCase()));
}

/** Refuses a request naming any address that may not receive the report (400 on `field`). */
export async function checkRecipients(
  db: Db,
  systemIds: number[],
  emails: string[],
  language: Language,
  field = 'emails',
): Promise<void> {
  const refused = await refusedRecipients(db, systemIds, emails);
  if (refused.length) throw badRequest({ [field]: refused.map((a) => refusedRecipientMessage(a, language)) });
}
