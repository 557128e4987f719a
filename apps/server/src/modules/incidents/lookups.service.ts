import type { FilterChoices } from '@soc/contracts';
import { INCIDENT_PRIORITIES, INCIDENT_STATUSES } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../lib/http-errors.ts';
import type { SystemScope } from '../../lib/scope.ts';
import { createLookupsRepository, type OptionsPageQuery } from './lookups.repository.ts';

export type { OptionsPageQuery };

/** The option lists of the incident forms and the filter row (product §A7). */
export function createLookupsService(db: Db) {
  const repo = createLookupsRepository(db);
  return {
    /** An issue type's id, by id or code; 404 when there is none. */
    async issueType(type: string): Promise<number> {
      const id = await repo.issueTypeId(type);
      if (id === undefined) throw notFound();
      return id;
    },

    /** One page of a titled lookup table: its rows and the total. */
    optionsPage<R extends { id: number; title: string }>(q: OptionsPageQuery) {
      return repo.optionsPage<R>(q);
    },

    /** The choices of the incident filter row, limited to the caller's systems. */
    async filterChoices(scope: SystemScope, lang: 'ru' | 'en'): Promise<FilterChoices> {
      const rows = await repo.filterRows(scope, lang);
      return {
        systems: rows.systemRows,
        issue_types: rows.typeRows,
        categories: rows.categoryRows,
        resolutions: rows.resolutionRows,
        priorities: [...INCIDENT_PRIORITIES],
        statuses: [...INCIDENT_STATUSES],
        base_services: rows.serviceRows.map((s) => s.name),
        users: rows.userRows.map((u) => ({
          id: u.id,
          username: u.username,
          full_name: `${u.first} ${u.last}`.trim(),
        })),
      };
    },
  };
}

export type LookupsService = ReturnType<typeof createLookupsService>;
