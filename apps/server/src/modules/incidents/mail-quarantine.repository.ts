import { and, count, desc, eq, ilike, inArray, or } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { MailQuarantineQuery } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { incidents, mailQuarantine, systems } from '../../db/schema/index.ts';
import { likePattern } from '../../lib/pagination.ts';

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

/** Quarantined mail with its incident and system; `scope` null: every system. */
export function createMailQuarantineRepository(db: Db) {
  const inScope = (scope: number[] | null): SQL | undefined =>
    scope ? inArray(incidents.systemId, scope.length ? scope : [-1]) : undefined;
  const base = () =>
    db
      .select(columns)
      .from(mailQuarantine)
      .innerJoin(incidents, eq(incidents.id, mailQuarantine.incidentId))
      .innerJoin(systems, eq(systems.id, incidents.systemId));

  return {
    async list(q: MailQuarantineQuery, scope: number[] | null) {
      const where = and(
        inScope(scope),
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

    async find(id: number, scope: number[] | null): Promise<QuarantineRow | undefined> {
      const [row] = await base().where(and(eq(mailQuarantine.id, id), inScope(scope)));
      return row as QuarantineRow | undefined;
    },
  };
}
