import type {
  AdminContactCreate,
  AdminContactUpdate,
  AdminContractCreate,
  AdminPageQuery,
  AdminServiceCreate,
  AdminServiceUpdate,
  AdminSystem,
  AdminSystemCreate,
  AdminSystemUpdate,
  SystemMailDomains,
} from '@soc/contracts';
import {
  AdminContactCreateSchema,
  AdminContactUpdateSchema,
  AdminContractCreateSchema,
  AdminContractUpdateSchema,
  AdminServiceCreateSchema,
  AdminServiceUpdateSchema,
  AdminSystemCreateSchema,
  AdminSystemUpdateSchema,
  SystemMailDomainsSchema,
} from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { badRequest, notFound } from '../../lib/http-errors.ts';
import { msg } from '../../lib/messages.ts';
import type { AdminCaller } from './admin-caller.ts';
import { adminRecorder, doesNotExist } from './admin-caller.ts';
import type { AdminRepository } from './admin.repository.ts';

/** Administration of systems with their contracts, services (SLA) and contacts (issue 13); every change is audited. */
export function createSystemsAdmin(db: Db, repo: AdminRepository) {
  const record = adminRecorder(db);

  async function system(id: number): Promise<AdminSystem> {
    const row = await repo.systemById(id);
    if (!row) throw notFound();
    const [contractRows, serviceRows, contactRows] = await Promise.all([
      repo.systemContracts(id),
      repo.systemServices(id),
      repo.systemContacts(id),
    ]);
    const sla = await repo.slaOf(serviceRows.map((s) => s.id));
    return {
      id: row.id,
      is_id: row.isId,
      full_name: row.fullName,
      status: row.status,
      service_manager_id: row.serviceManagerId,
      service_manager_double_id: row.serviceManagerDoubleId,
      dedicated_analyst_id: row.dedicatedAnalystId,
      dedicated_analyst_double_id: row.dedicatedAnalystDoubleId,
      soc_reply_name: row.socReplyName,
      contracts: contractRows.map((c) => ({
        id: c.id,
        name: c.name,
        number: c.number,
        start_date: c.startDate,
        end_date: c.endDate,
      })),
      services: serviceRows.map((s) => ({
        id: s.id,
        name: s.name,
        contract_id: s.contractId,
        start_date: s.startDate,
        contracted_eps: s.contractedEps,
        sla: sla
          .filter((r) => r.serviceId === s.id)
          .map((r) => ({ category: r.category, hours: r.hours, calendar: r.calendar })),
      })),
      contacts: contactRows.map((c) => ({
        id: c.id,
        last_name: c.lastName,
        first_name: c.firstName,
        patronimic: c.patronimic,
        email: c.email,
        work_phone: c.workPhone,
        mobile_phone: c.mobilePhone,
        locale: c.locale,
        notify: c.notify,
      })),
      created_at: row.createdAt.toISOString(),
    };
  }

  async function checkStaff(input: AdminSystemUpdate) {
    const fields = [
      'service_manager_id',
      'service_manager_double_id',
      'dedicated_analyst_id',
      'dedicated_analyst_double_id',
    ] as const;
    const wanted = fields.flatMap((f) => {
      const id = input[f];
      return typeof id === 'number' ? [[f, id] as const] : [];
    });
    const known = await repo.staffIdsExisting(wanted.map(([, id]) => id));
    const errors: Record<string, string[]> = {};
    for (const [f, id] of wanted)
      if (!known.includes(id)) errors[f] = ['Choose an analyst or administrator.'];
    if (Object.keys(errors).length) throw badRequest(errors);
  }

  async function checkContract(systemId: number, contractId: number | null | undefined) {
    if (contractId === undefined || contractId === null) return;
    const c = await repo.contract(contractId);
    if (!c || c.systemId !== systemId) throw badRequest({ contract_id: [doesNotExist(contractId)] });
  }

  return {
    system,
    async listSystems(q: AdminPageQuery) {
      const { total, rows } = await repo.listSystems(q.search, q.page_size, (q.page - 1) * q.page_size);
      return {
        total,
        results: rows.map((r) => ({
          id: r.id,
          is_id: r.isId,
          full_name: r.fullName,
          status: r.status,
          created_at: r.createdAt.toISOString(),
        })),
      };
    },

    /** Finds a system by id or by its code (`IS-0001`), as the CLI names them. */
    async resolveSystem(ref: string | number): Promise<number> {
      const row =
        typeof ref === 'number' || /^\d+$/.test(ref)
          ? await repo.systemById(Number(ref))
          : await repo.systemByIsId(ref);
      if (!row) throw notFound(`No system "${ref}".`);
      return row.id;
    },

    async createSystem(raw: AdminSystemCreate, caller: AdminCaller): Promise<AdminSystem> {
      const input = AdminSystemCreateSchema.parse(raw);
      await checkStaff(input);
      if (await repo.systemByIsId(input.is_id)) throw badRequest({ is_id: [msg('systemExists')] });
      const row = await repo.insertSystem({
        isId: input.is_id,
        fullName: input.full_name,
        status: input.status,
        serviceManagerId: input.service_manager_id ?? null,
        serviceManagerDoubleId: input.service_manager_double_id ?? null,
        dedicatedAnalystId: input.dedicated_analyst_id ?? null,
        dedicatedAnalystDoubleId: input.dedicated_analyst_double_id ?? null,
        socReplyName: input.soc_reply_name ?? null,
      });
      await record(caller, 'system.create', 'system', row.id, { is_id: row.isId });
      return system(row.id);
    },

    async updateSystem(id: number, raw: AdminSystemUpdate, caller: AdminCaller): Promise<AdminSystem> {
      const input = AdminSystemUpdateSchema.parse(raw);
      const current = await repo.systemById(id);
      if (!current) throw notFound();
      await checkStaff(input);
      if (
        input.is_id &&
        input.is_id.toLowerCase() !== current.isId.toLowerCase() &&
        (await repo.systemByIsId(input.is_id))
      )
        throw badRequest({ is_id: [msg('systemExists')] });
      const values = {
        ...(input.is_id !== undefined ? { isId: input.is_id } : {}),
        ...(input.full_name !== undefined ? { fullName: input.full_name } : {}),
        ...(input.status !== undefined ? { status: input.status } : {}),
        ...(input.service_manager_id !== undefined ? { serviceManagerId: input.service_manager_id } : {}),
        ...(input.service_manager_double_id !== undefined
          ? { serviceManagerDoubleId: input.service_manager_double_id }
          : {}),
        ...(input.dedicated_analyst_id !== undefined
          ? { dedicatedAnalystId: input.dedicated_analyst_id }
          : {}),
        ...(input.dedicated_analyst_double_id !== undefined
          ? { dedicatedAnalystDoubleId: input.dedicated_analyst_double_id }
          : {}),
        ...(input.soc_reply_name !== undefined ? { socReplyName: input.soc_reply_name } : {}),
      };
      await repo.updateSystem(id, values);
      await record(caller, 'system.update', 'system', id, { fields: Object.keys(input) });
      return system(id);
    },

    /** Mail domains allowed as report recipients of a system, besides its users (issue 25 item 12). */
    async mailDomains(id: number): Promise<SystemMailDomains> {
      const row = await repo.systemById(id);
      if (!row) throw notFound();
      return { mail_domains: row.mailDomains };
    },

    async setMailDomains(
      id: number,
      raw: SystemMailDomains,
      caller: AdminCaller,
    ): Promise<SystemMailDomains> {
      const input = SystemMailDomainsSchema.parse(raw);
      if (!(await repo.systemById(id))) throw notFound();
      const mailDomains = [...new Set(input.mail_domains)].sort();
      await repo.updateSystem(id, { mailDomains });
      await record(caller, 'system.mail_domains', 'system', id, { mail_domains: mailDomains });
      return { mail_domains: mailDomains };
    },

    async addContract(systemId: number, raw: AdminContractCreate, caller: AdminCaller): Promise<AdminSystem> {
      const input = AdminContractCreateSchema.parse(raw);
      if (!(await repo.systemById(systemId))) throw notFound();
      const row = await repo.insertContract({
        systemId,
        name: input.name,
        number: input.number,
        startDate: input.start_date,
        endDate: input.end_date ?? null,
      });
      await record(caller, 'contract.create', 'contract', row.id, { system: systemId, number: row.number });
      return system(systemId);
    },

    async updateContract(
      id: number,
      raw: Partial<AdminContractCreate>,
      caller: AdminCaller,
    ): Promise<AdminSystem> {
      const input = AdminContractUpdateSchema.parse(raw);
      const current = await repo.contract(id);
      if (!current) throw notFound();
      await repo.updateContract(id, {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.number !== undefined ? { number: input.number } : {}),
        ...(input.start_date !== undefined ? { startDate: input.start_date } : {}),
        ...(input.end_date !== undefined ? { endDate: input.end_date } : {}),
      });
      await record(caller, 'contract.update', 'contract', id, { fields: Object.keys(input) });
      return system(current.systemId);
    },

    async deleteContract(id: number, caller: AdminCaller): Promise<void> {
      const current = await repo.contract(id);
      if (!current) throw notFound();
      await repo.deleteContract(id);
      await record(caller, 'contract.delete', 'contract', id, { system: current.systemId });
    },

    async addService(systemId: number, raw: AdminServiceCreate, caller: AdminCaller): Promise<AdminSystem> {
      const input = AdminServiceCreateSchema.parse(raw);
      if (!(await repo.systemById(systemId))) throw notFound();
      await checkContract(systemId, input.contract_id);
      const id = await repo.saveService(
        null,
        {
          systemId,
          name: input.name,
          startDate: input.start_date,
          contractId: input.contract_id ?? null,
          contractedEps: input.contracted_eps,
        },
        input.sla,
      );
      await record(caller, 'service.create', 'service', id, {
        system: systemId,
        name: input.name,
        sla: input.sla ?? [],
      });
      return system(systemId);
    },

    async updateService(id: number, raw: AdminServiceUpdate, caller: AdminCaller): Promise<AdminSystem> {
      const input = AdminServiceUpdateSchema.parse(raw);
      const current = await repo.service(id);
      if (!current) throw notFound();
      await checkContract(current.systemId, input.contract_id);
      await repo.saveService(
        id,
        {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.start_date !== undefined ? { startDate: input.start_date } : {}),
          ...(input.contract_id !== undefined ? { contractId: input.contract_id } : {}),
          ...(input.contracted_eps !== undefined ? { contractedEps: input.contracted_eps } : {}),
        },
        input.sla,
      );
      await record(caller, 'service.update', 'service', id, {
        fields: Object.keys(input),
        ...(input.sla ? { sla: input.sla } : {}),
      });
      return system(current.systemId);
    },

    async deleteService(id: number, caller: AdminCaller): Promise<void> {
      const current = await repo.service(id);
      if (!current) throw notFound();
      await repo.deleteService(id);
      await record(caller, 'service.delete', 'service', id, { system: current.systemId });
    },

    async addContact(systemId: number, raw: AdminContactCreate, caller: AdminCaller): Promise<AdminSystem> {
      const input = AdminContactCreateSchema.parse(raw);
      if (!(await repo.systemById(systemId))) throw notFound();
      const row = await repo.insertContact({
        systemId,
        lastName: input.last_name,
        firstName: input.first_name,
        patronimic: input.patronimic,
        email: input.email,
        workPhone: input.work_phone,
        mobilePhone: input.mobile_phone,
        locale: input.locale,
        notify: input.notify,
      });
      await record(caller, 'contact.create', 'contact', row.id, { system: systemId });
      return system(systemId);
    },

    async updateContact(id: number, raw: AdminContactUpdate, caller: AdminCaller): Promise<AdminSystem> {
      const input = AdminContactUpdateSchema.parse(raw);
      const current = await repo.contact(id);
      if (!current) throw notFound();
      await repo.updateContact(id, {
        ...(input.last_name !== undefined ? { lastName: input.last_name } : {}),
        ...(input.first_name !== undefined ? { firstName: input.first_name } : {}),
        ...(input.patronimic !== undefined ? { patronimic: input.patronimic } : {}),
        ...(input.email !== undefined ? { email: input.email } : {}),
        ...(input.work_phone !== undefined ? { workPhone: input.work_phone } : {}),
        ...(input.mobile_phone !== undefined ? { mobilePhone: input.mobile_phone } : {}),
        ...(input.locale !== undefined ? { locale: input.locale } : {}),
        ...(input.notify !== undefined ? { notify: input.notify } : {}),
      });
      await record(caller, 'contact.update', 'contact', id, { fields: Object.keys(input) });
      return system(current.systemId);
    },

    async deleteContact(id: number, caller: AdminCaller): Promise<void> {
      const current = await repo.contact(id);
      if (!current) throw notFound();
      await repo.deleteContact(id);
      await record(caller, 'contact.delete', 'contact', id, { system: current.systemId });
    },
  };
}
