import type { SystemCard, SystemListItem, SystemListQuery, SystemPerson } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../lib/http-errors.ts';
import type { AuthContext } from '../../core/auth.ts';
import { systemScope } from '../../core/auth.ts';
import { presentCard, presentListItem, presentPerson } from './tenants.presenter.ts';
import { createTenantsRepository } from './tenants.repository.ts';

/** No-page answers are still bounded (design §4). */
export const SYSTEMS_NO_PAGE_MAX = 1000;

/** Protected systems as their customers (their own) and analysts (all) see them. */
export function createTenantsService(db: Db) {
  const repo = createTenantsRepository(db);
  return {
    async list(auth: AuthContext, q: SystemListQuery): Promise<{ total: number; results: SystemListItem[] }> {
      const limit = q.no_page ? SYSTEMS_NO_PAGE_MAX : q.page_size;
      const offset = q.no_page ? 0 : (q.page - 1) * q.page_size;
      const { rows, total } = await repo.list(systemScope(auth), q, limit, offset);
      return { total, results: rows.map(presentListItem) };
    },

    /** Another tenant's system is a 404 (design §4). */
    async card(auth: AuthContext, id: number): Promise<SystemCard> {
      const system = await repo.byId(systemScope(auth), id);
      if (!system) throw notFound();
      const personIds = [
        system.serviceManagerId,
        system.serviceManagerDoubleId,
        system.dedicatedAnalystId,
        system.dedicatedAnalystDoubleId,
      ].filter((v): v is number => v !== null);
      const [serviceRows, contactRows, people] = await Promise.all([
        repo.services(system.id),
        repo.contacts(system.id),
        repo.people(personIds),
      ]);
      const sla = await repo.sla(serviceRows.map((s) => s.id));
      return presentCard(system, serviceRows, sla, contactRows, people);
    },

    async people(auth: AuthContext, role: 'service_manager' | 'dedicated_analyst'): Promise<SystemPerson[]> {
      return (await repo.peopleOf(systemScope(auth), role)).map(presentPerson);
    },
  };
}
export type TenantsService = ReturnType<typeof createTenantsService>;
