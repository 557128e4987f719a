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
  AdminUser,
  AdminUserListQuery,
  Branding,
  BrandingUpdate,
  SystemMailDomains,
  UserInvite,
  UserInvited,
  UserUpdate,
} from '@soc/contracts';
import {
  TEMPORARY_PASSWORD_TTL_HOURS,
  AdminContactCreateSchema,
  AdminContactUpdateSchema,
  AdminContractCreateSchema,
  AdminContractUpdateSchema,
  AdminServiceCreateSchema,
  AdminServiceUpdateSchema,
  AdminSystemCreateSchema,
  AdminSystemUpdateSchema,
  BrandingUpdateSchema,
  SystemMailDomainsSchema,
  UserInviteSchema,
  UserUpdateSchema,
} from '@soc/contracts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { audit } from '../../lib/audit.ts';
import { badRequest, notFound } from '../../lib/http-errors.ts';
import { hashPassword, temporaryPassword } from '../../lib/passwords.ts';
import type { Actor } from '../tokens/tokens.service.ts';
import type { UserRow } from './admin.repository.ts';
import { createAdminRepository } from './admin.repository.ts';
import { revokeAllCredentials } from '../tokens/revoke-all-credentials.ts';
import { BRANDING_KEY, effectiveBranding, mergeBranding } from './branding.ts';

/** An administrative call: who (null for the CLI) and from where (`cli` for the CLI). */
export interface AdminCaller extends Actor {
  ip: string;
}

const doesNotExist = (id: number | string) => `Invalid pk "${id}" - object does not exist.`;
const isUniqueViolation = (err: unknown): boolean =>
  typeof err === 'object' &&
  err !== null &&
  ('code' in err ? err.code === '23505' : isUniqueViolation((err as { cause?: unknown }).cause));

const presentUser = (u: UserRow, systemIds: number[]): AdminUser => ({
  id: u.id,
  username: u.username,
  email: u.email,
  first_name: u.firstName,
  last_name: u.lastName,
  role: u.role,
  is_active: u.isActive,
  locale: u.locale,
  systems: systemIds,
  mfa_phone: u.mfaPhone,
  totp_enabled: Boolean(u.totpEnabledAt),
  last_login_at: u.lastLoginAt?.toISOString() ?? null,
  created_at: u.createdAt.toISOString(),
});

/** A one-time password that meets the password rules (letters and digits, 16 characters). */
/** Until when a temporary password given now signs in; the user must change it at once. */
const temporaryPasswordExpiry = () => new Date(Date.now() + TEMPORARY_PASSWORD_TTL_HOURS * 3_600_000);

/**
 * Administration of systems, contracts, services with SLA, contacts, users and branding
 * (issue 13), shared by the admin API and `npm run admin`. Every change is audited.
 */
export interface AdminServiceOptions {
  db: Db;
  config: Config;
  /**
   * Called once a change of a user's account, systems or sessions committed, so that this
   * instance's auth cache forgets them before the next request (other instances learn it from the
   * database's NOTIFY).
   */
  onUserChanged?: (userId: number) => void;
}

export function createAdminService({ db, config, onUserChanged = () => undefined }: AdminServiceOptions) {
  const repo = createAdminRepository(db);
  const record = (
    caller: AdminCaller,
    action: string,
    objectType: string,
    objectId: string | number,
    details = {},
  ) => audit(db, { userId: caller.userId, action, objectType, objectId, ip: caller.ip, details });

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

  async function checkSystems(ids: number[]) {
    const known = await repo.systemIdsExisting(ids);
    const missing = ids.filter((s) => !known.includes(s));
    if (missing.length) throw badRequest({ systems: [doesNotExist(missing[0]!)] });
  }

  async function user(id: number): Promise<AdminUser> {
    const row = await repo.userById(id);
    if (!row) throw notFound();
    return presentUser(row, (await repo.systemsOf([id])).get(id) ?? []);
  }

  return {
    repo,
    system,
    user,

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

    async resolveUser(ref: string | number): Promise<number> {
      const row =
        typeof ref === 'number' || /^\d+$/.test(ref)
          ? await repo.userById(Number(ref))
          : await repo.userByUsername(ref);
      if (!row) throw notFound(`No user "${ref}".`);
      return row.id;
    },

    async createSystem(raw: AdminSystemCreate, caller: AdminCaller): Promise<AdminSystem> {
      const input = AdminSystemCreateSchema.parse(raw);
      await checkStaff(input);
      if (await repo.systemByIsId(input.is_id))
        throw badRequest({ is_id: ['A system with this code already exists.'] });
      const row = await repo.insertSystem({
        isId: input.is_id,
        fullName: input.full_name,
        status: input.status,
        serviceManagerId: input.service_manager_id ?? null,
        serviceManagerDoubleId: input.service_manager_double_id ?? null,
        dedicatedAnalystId: input.dedicated_analyst_id ?? null,
        dedicatedAnalystDoubleId: input.dedicated_analyst_double_id ?? null,
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
        throw badRequest({ is_id: ['A system with this code already exists.'] });
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

    async listUsers(q: AdminUserListQuery) {
      const { total, rows } = await repo.listUsers(q, q.page_size, (q.page - 1) * q.page_size);
      const systemsOf = await repo.systemsOf(rows.map((r) => r.id));
      return { total, results: rows.map((r) => presentUser(r, systemsOf.get(r.id) ?? [])) };
    },

    /** Creates an account with a one-time password, shown once in the answer. */
    async inviteUser(raw: UserInvite, caller: AdminCaller): Promise<UserInvited> {
      const input = UserInviteSchema.parse(raw);
      await checkSystems(input.systems);
      if (await repo.userByUsername(input.username))
        throw badRequest({ username: ['A user with that username already exists.'] });
      const password = temporaryPassword({
        username: input.username,
        email: input.email,
        firstName: input.first_name,
        lastName: input.last_name,
      });
      let id: number;
      try {
        id = await repo.saveUser(
          null,
          {
            username: input.username,
            email: input.email,
            firstName: input.first_name,
            lastName: input.last_name,
            role: input.role,
            locale: input.locale,
            mfaPhone: input.mfa_phone ?? null,
            passwordHash: await hashPassword(password),
            temporaryPasswordExpiresAt: temporaryPasswordExpiry(),
          },
          [...new Set(input.systems)],
        );
      } catch (err) {
        if (isUniqueViolation(err))
          throw badRequest({ username: ['A user with that username already exists.'] });
        throw err;
      }
      await record(caller, 'user.invite', 'user', id, {
        username: input.username,
        role: input.role,
        systems: input.systems,
      });
      return { ...(await user(id)), temporary_password: password };
    },

    /**
     * Changes a user. Deactivation ends every session at once; the user's API tokens are
     * refused while the account is inactive (the auth hook reads the account on each request).
     */
    async updateUser(id: number, raw: UserUpdate, caller: AdminCaller): Promise<AdminUser> {
      const input = UserUpdateSchema.parse(raw);
      const current = await repo.userById(id);
      if (!current) throw notFound();
      if (input.systems) await checkSystems(input.systems);
      if (caller.userId === id && (input.is_active === false || (input.role && input.role !== 'admin'))) {
        throw badRequest({ non_field_errors: ['You cannot deactivate or demote yourself.'] });
      }
      await repo.saveUser(
        id,
        {
          ...(input.email !== undefined ? { email: input.email } : {}),
          ...(input.first_name !== undefined ? { firstName: input.first_name } : {}),
          ...(input.last_name !== undefined ? { lastName: input.last_name } : {}),
          ...(input.role !== undefined ? { role: input.role } : {}),
          ...(input.locale !== undefined ? { locale: input.locale } : {}),
          ...(input.is_active !== undefined ? { isActive: input.is_active } : {}),
          ...(input.mfa_phone !== undefined ? { mfaPhone: input.mfa_phone } : {}),
        },
        input.systems ? [...new Set(input.systems)] : undefined,
      );
      onUserChanged(id);
      if (input.is_active === false && current.isActive) {
        await repo.endSessions(id);
        onUserChanged(id);
      }
      if (input.mfa_phone !== undefined && (input.mfa_phone ?? null) !== current.mfaPhone) {
        // a change of the user's second factor: its own entry, which mails the user a notice
        const phoneAction = !current.mfaPhone ? 'enabled' : input.mfa_phone ? 'changed' : 'disabled';
        await record(caller, `auth.sms_${phoneAction}`, 'user', id);
      }
      const action = input.is_active === false && current.isActive ? 'user.deactivate' : 'user.update';
      await record(caller, action, 'user', id, {
        fields: Object.keys(input),
        ...(input.role && input.role !== current.role ? { role: [current.role, input.role] } : {}),
        ...(input.systems ? { systems: input.systems } : {}),
      });
      return user(id);
    },

    /**
     * Gives a user a new temporary password (shown once): it signs in for 72 hours and must be
     * changed at the first sign-in; every session of the user ends.
     */
    async resetPassword(id: number, caller: AdminCaller): Promise<UserInvited> {
      const current = await repo.userById(id);
      if (!current) throw notFound();
      const password = temporaryPassword(current);
      const passwordHash = await hashPassword(password);
      // the new password, the end of every session and personal token, and the audit commit together
      await db.transaction(async (tx) => {
        const txRepo = createAdminRepository(tx);
        await txRepo.saveUser(
          id,
          { passwordHash, temporaryPasswordExpiresAt: temporaryPasswordExpiry() },
          undefined,
        );
        await revokeAllCredentials(tx, id, {
          actorId: caller.userId,
          reason: 'password_reset',
          ip: caller.ip,
        });
        // sessions and tokens ended above; the pending second-factor sign-ins end too
        await txRepo.closeSignIns(id);
        await audit(tx, {
          userId: caller.userId,
          action: 'auth.password_reset',
          objectType: 'user',
          objectId: id,
          ip: caller.ip,
          details: { by: 'administrator' },
        });
      });
      onUserChanged(id);
      return { ...(await user(id)), temporary_password: password };
    },

    deactivateUser(id: number, caller: AdminCaller) {
      return this.updateUser(id, { is_active: false }, caller);
    },

    /** Removes the authenticator-app enrolment (the user enrols again) and ends pending second-factor sign-ins. */
    async resetSecondFactor(
      id: number,
      caller: AdminCaller,
      options: { removePhone?: boolean } = {},
    ): Promise<AdminUser> {
      const current = await repo.userById(id);
      if (!current) throw notFound();
      await repo.saveUser(
        id,
        {
          totpSecret: null,
          totpPendingSecret: null,
          totpEnabledAt: null,
          totpLastStep: null,
          ...(options.removePhone ? { mfaPhone: null } : {}),
        },
        undefined,
      );
      await repo.endSessions(id);
      onUserChanged(id);
      await record(caller, 'user.reset_mfa', 'user', id, { remove_phone: options.removePhone ?? false });
      return user(id);
    },

    branding: (): Promise<Branding> => effectiveBranding(db, config),

    async updateBranding(raw: BrandingUpdate, caller: AdminCaller): Promise<Branding> {
      const input = BrandingUpdateSchema.parse(raw);
      const stored = (await repo.setting(BRANDING_KEY)) ?? {};
      await repo.putSetting(BRANDING_KEY, mergeBranding(stored, input), caller.userId);
      await record(caller, 'settings.branding', 'settings', BRANDING_KEY, { fields: Object.keys(input) });
      return effectiveBranding(db, config);
    },
  };

  async function checkContract(systemId: number, contractId: number | null | undefined) {
    if (contractId === undefined || contractId === null) return;
    const c = await repo.contract(contractId);
    if (!c || c.systemId !== systemId) throw badRequest({ contract_id: [doesNotExist(contractId)] });
  }
}

export type AdminService = ReturnType<typeof createAdminService>;
