import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { comments, incidents, userSystems, users } from '../../db/schema/index.ts';

/** The SQL of inbound mail: the incident a reply names, its sender, a comment stored before. */
export function createInboundMailRepository(db: Db) {
  return {
    async incidentByKey(key: number) {
      const [incident] = await db
        .select({
          id: incidents.id,
          key: incidents.key,
          status: incidents.status,
          systemId: incidents.systemId,
        })
        .from(incidents)
        .where(eq(incidents.key, key));
      return incident;
    },

    /** The comment a message became (the gateway delivering it again). */
    async commentByMessage(incidentId: string, messageId: string) {
      const [comment] = await db
        .select({ id: comments.id, source: comments.source })
        .from(comments)
        .where(and(eq(comments.incidentId, incidentId), eq(comments.mailMessageId, messageId)));
      return comment;
    },

    /** The active user with this (lower-case) address, and whether they belong to the system. */
    async activeUserByEmail(email: string, systemId: number) {
      const [user] = await db
        .select({
          id: users.id,
          role: users.role,
          first: users.firstName,
          last: users.lastName,
          username: users.username,
          member: sql<boolean>`EXISTS (SELECT 1 FROM ${userSystems} us WHERE us.user_id = ${users.id} AND us.system_id = ${systemId})`,
        })
        .from(users)
        .where(and(sql`lower(${users.email}) = ${email}`, eq(users.isActive, true)))
        .limit(1);
      return user;
    },
  };
}
