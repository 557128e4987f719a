import type { SystemCard, SystemListItem, SystemPerson, SystemService } from '@soc/contracts';
import type { PersonRow, SystemRow, TenantsRepository } from './tenants.repository.ts';

type ListRow = Awaited<ReturnType<TenantsRepository['list']>>['rows'][number];
type ServiceRow = Awaited<ReturnType<TenantsRepository['services']>>[number];
type SlaRowRecord = Awaited<ReturnType<TenantsRepository['sla']>>[number];
type ContactRow = Awaited<ReturnType<TenantsRepository['contacts']>>[number];

export const presentPerson = (p: PersonRow): SystemPerson => ({
  id: p.id,
  full_name: p.name,
  email: p.email,
});

export const presentListItem = (r: ListRow): SystemListItem => ({
  id: r.id,
  is_id: r.isId,
  full_name: r.fullName,
  status: r.status,
  services: r.services,
  service_manager:
    r.managerId === null ? null : { id: r.managerId, full_name: r.managerName, email: r.managerEmail ?? '' },
  dedicated_analyst:
    r.analystId === null ? null : { id: r.analystId, full_name: r.analystName, email: r.analystEmail ?? '' },
});

const presentService = (s: ServiceRow, sla: SlaRowRecord[]): SystemService => ({
  id: s.id,
  name: s.name,
  start_date: s.startDate,
  contract:
    s.contractName === null
      ? null
      : {
          name: s.contractName,
          number: s.contractNumber ?? '',
          start_date: s.contractStart ?? '',
          end_date: s.contractEnd ?? null,
        },
  sla: sla
    .filter((r) => r.serviceId === s.id)
    .map((r) => ({ category: r.category, hours: r.hours, calendar: r.calendar, icon: r.icon })),
});

export function presentCard(
  system: SystemRow,
  serviceRows: ServiceRow[],
  sla: SlaRowRecord[],
  contactRows: ContactRow[],
  people: PersonRow[],
): SystemCard {
  const person = (id: number | null) => {
    const found = id === null ? undefined : people.find((p) => p.id === id);
    return found ? presentPerson(found) : null;
  };
  return {
    id: system.id,
    is_id: system.isId,
    full_name: system.fullName,
    status: system.status,
    services: serviceRows.map((s) => presentService(s, sla)),
    service_manager: person(system.serviceManagerId),
    service_manager_double: person(system.serviceManagerDoubleId),
    dedicated_analyst: person(system.dedicatedAnalystId),
    dedicated_analyst_double: person(system.dedicatedAnalystDoubleId),
    customer_contacts: contactRows.map((c) => ({
      id: c.id,
      last_name: c.lastName,
      first_name: c.firstName,
      patronimic: c.patronimic,
      email: c.email,
      work_phone: c.workPhone,
      mobile_phone: c.mobilePhone,
    })),
  };
}
