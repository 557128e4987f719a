import { and, count, desc, eq, ilike, or } from 'drizzle-orm';
import type { MailQuarantineQuery } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { incidents, mailQuarantine, systems } from '../../db/schema/index.ts';
import { likePattern } from '../../lib/pagination.ts';
import { type SystemScope } from '../../lib/scope.ts';
import { inScope } from '../../db/fragments.ts';

const columns = {
  id: mailQuarantine.id,
  incidentId: mailQuarantine.incidentId,
  incidentKey: incidents.key,
  incidentStatus: incidents.status,
  systemCode: systems.isId,
  senderEmail: mailQuarantine.senderEmail,
  senderName: mailQuarantine.senderName,
  subject: mailQuarantine.subject,
  body: mailQuarantine.body,
  senderVerified: mailQuarantine.senderVerified,
  reason: mailQuarantine.reason,
  attachmentNames: mailQuarantine.attachmentNames,
  rawKey: mailQuarantine.rawKey,
  mailMessageId: mailQuarantine.mailMessageId,
  received: mailQuarantine.received,
};

export type QuarantineRow = {
  [K in keyof typeof columns]: (typeof columns)[K]['_']['data'];
};

/**
 * Quarantined mail with its incident and system; `scope` null: every system. A release passes its
 * transaction as `db`.
 */
export function createMailQuarantineRepository(db: Db) {
  const base = () =>
    db
      .select(columns)
      .from(mailQuarantine)
      .innerJoin(incidents, eq(incidents.id, mailQuarantine.incidentId))
      .innerJoin(systems, eq(systems.id, incidents.systemId));

  return {
    async list(q: MailQuarantineQuery, scope: SystemScope) {
      const where = and(
        inScope(incidents.systemId, scope),
        q.incident === undefined ? undefined : eq(incidents.key, q.incident),
        q.sender
          ? or(
              ilike(mailQuarantine.senderEmail, likePattern(q.sender)),
              ilike(mailQuarantine.senderName, likePattern(q.sender)),
            )
          : undefined,
      );
      const rows = await base()
        .where(where)
        .orderBy(desc(mailQuarantine.received), desc(mailQuarantine.id))
        .limit(q.page_size)
        .offset((q.page - 1) * q.page_size);
      const [total] = await db
        .select({ n: count() })
        .from(mailQuarantine)
        .innerJoin(incidents, eq(incidents.id, mailQuarantine.incidentId))
        .where(where);
      return { rows: rows as QuarantineRow[], total: total?.n ?? 0 };
    },

    async find(id: number, scope: SystemScope): Promise<QuarantineRow | undefined> {
      const [row] = await base().where(and(eq(mailQuarantine.id, id), inScope(incidents.systemId, scope)));
      return row as QuarantineRow | undefined;
    },

    /** Takes an entry out of the quarantine; false when another analyst released or deleted it first. */
    async take(id: number): Promise<boolean> {
      const [taken] = await db
        .delete(mailQuarantine)
        .where(eq(mailQuarantine.id, id))
        .returning({ id: mailQuarantine.id });
      return !!taken;
    },

    /** The entry a message of an incident was kept as (the gateway delivering it again). */
    async findByMessage(incidentId: string, messageId: string) {
      const [row] = await db
        .select({ id: mailQuarantine.id })
        .from(mailQuarantine)
        .where(and(eq(mailQuarantine.incidentId, incidentId), eq(mailQuarantine.mailMessageId, messageId)));
      return row;
    },

    /** Keeps a message for review; returns the entry's id. */
    async insert(values: typeof mailQuarantine.$inferInsert): Promise<number> {
      const [row] = await db.insert(mailQuarantine).values(values).returning({ id: mailQuarantine.id });
      return row!.id;
    },
  };
}
