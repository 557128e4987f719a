import type { SQL } from 'drizzle-orm';
import { and, asc, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { SystemListQuery } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { contacts, contracts, services, slaRows, systems, users } from '../../db/schema/index.ts';
import { likePattern } from '../../lib/pagination.ts';
import type { SystemScope } from '../../lib/scope.ts';
import { inScope } from '../../db/fragments.ts';

const manager = alias(users, 'manager');
const analyst = alias(users, 'analyst');

const personName = (u: { firstName: AnyPgColumn; lastName: AnyPgColumn; username: AnyPgColumn }) =>
  sql<string>`coalesce(nullif(trim(${u.firstName} || ' ' || ${u.lastName}), ''), ${u.username})`;

const ORDER: Record<SystemListQuery['ordering'], SQL[]> = {
  is_id: [asc(systems.isId)],
  '-is_id': [desc(systems.isId)],
  full_name: [asc(systems.fullName), asc(systems.id)],
  '-full_name': [desc(systems.fullName), desc(systems.id)],
  service_manager: [sql`${personName(manager)} ASC NULLS LAST`, asc(systems.isId)],
  '-service_manager': [sql`${personName(manager)} DESC NULLS LAST`, desc(systems.isId)],
  dedicated_analyst: [sql`${personName(analyst)} ASC NULLS LAST`, asc(systems.isId)],
  '-dedicated_analyst': [sql`${personName(analyst)} DESC NULLS LAST`, desc(systems.isId)],
};

export interface PersonRow {
  id: number;
  name: string;
  email: string;
}

export type SystemRow = typeof systems.$inferSelect;

const scoped = (scope: SystemScope): SQL | undefined => inScope(systems.id, scope);

export function createTenantsRepository(db: Db) {
  return {
    async list(scope: SystemScope, q: SystemListQuery, limit: number, offset: number) {
      const where = and(
        scoped(scope),
        q.search
          ? or(ilike(systems.isId, likePattern(q.search)), ilike(systems.fullName, likePattern(q.search)))
          : undefined,
        q.is_id__icontains ? ilike(systems.isId, likePattern(q.is_id__icontains)) : undefined,
        q.full_name__icontains ? ilike(systems.fullName, likePattern(q.full_name__icontains)) : undefined,
        q.service_manager__in ? inArray(systems.serviceManagerId, q.service_manager__in) : undefined,
        q.dedicated_analyst__in ? inArray(systems.dedicatedAnalystId, q.dedicated_analyst__in) : undefined,
      );
      const [rows, [count]] = await Promise.all([
        db
          .select({
            id: systems.id,
            isId: systems.isId,
            fullName: systems.fullName,
            status: systems.status,
            services: sql<
              string[]
            >`array(SELECT ${services.name} FROM ${services} WHERE ${services.systemId} = ${systems.id} ORDER BY ${services.name})`,
            managerId: manager.id,
            managerName: personName(manager),
            managerEmail: manager.email,
            analystId: analyst.id,
            analystName: personName(analyst),
            analystEmail: analyst.email,
          })
          .from(systems)
          .leftJoin(manager, eq(manager.id, systems.serviceManagerId))
          .leftJoin(analyst, eq(analyst.id, systems.dedicatedAnalystId))
          .where(where)
          .orderBy(...ORDER[q.ordering])
          .limit(limit)
          .offset(offset),
        db
          .select({ n: sql<number>`count(*)::int` })
          .from(systems)
          .where(where),
      ]);
      return { rows, total: count?.n ?? 0 };
    },

    async byId(scope: SystemScope, id: number): Promise<SystemRow | undefined> {
      const [row] = await db
        .select()
        .from(systems)
        .where(and(eq(systems.id, id), scoped(scope)))
        .limit(1);
      return row;
    },

    async people(ids: number[]): Promise<PersonRow[]> {
      if (!ids.length) return [];
      return db
        .select({ id: users.id, name: personName(users), email: users.email })
        .from(users)
        .where(inArray(users.id, ids));
    },

    /** Users named in `column` of the systems in scope. */
    async peopleOf(scope: SystemScope, role: 'service_manager' | 'dedicated_analyst'): Promise<PersonRow[]> {
      const column = role === 'service_manager' ? systems.serviceManagerId : systems.dedicatedAnalystId;
      return db
        .selectDistinct({ id: users.id, name: personName(users), email: users.email })
        .from(systems)
        .innerJoin(users, eq(users.id, column))
        .where(scoped(scope))
        .orderBy(personName(users), users.id)
        .limit(1000);
    },

    async services(systemId: number) {
      return db
        .select({
          id: services.id,
          name: services.name,
          startDate: services.startDate,
          contractName: contracts.name,
          contractNumber: contracts.number,
          contractStart: contracts.startDate,
          contractEnd: contracts.endDate,
        })
        .from(services)
        .leftJoin(contracts, eq(contracts.id, services.contractId))
        .where(eq(services.systemId, systemId))
        .orderBy(services.name, services.id);
    },

    async sla(serviceIds: number[]) {
      if (!serviceIds.length) return [];
      return db
        .select()
        .from(slaRows)
        .where(inArray(slaRows.serviceId, serviceIds))
        .orderBy(sql`array_position(ARRAY['critical','high','medium','low'], ${slaRows.category})`);
    },

    async contacts(systemId: number) {
      return db
        .select()
        .from(contacts)
        .where(eq(contacts.systemId, systemId))
        .orderBy(contacts.lastName, contacts.firstName, contacts.id);
    },
  };
}
export type TenantsRepository = ReturnType<typeof createTenantsRepository>;
