import type { AdminUser, AdminUserListQuery, UserInvite, UserInvited, UserUpdate } from '@soc/contracts';
import { TEMPORARY_PASSWORD_TTL_HOURS, UserInviteSchema, UserUpdateSchema } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import { audit } from '../../lib/audit.ts';
import { badRequest, notFound } from '../../lib/http-errors.ts';
import { msg } from '../../lib/messages.ts';
import { hashPassword, temporaryPassword } from '../../lib/passwords.ts';
import { revokeAllCredentials } from '../tokens/index.ts';
import type { AdminCaller } from './admin-caller.ts';
import { adminRecorder, doesNotExist } from './admin-caller.ts';
import type { AdminRepository, UserRow } from './admin.repository.ts';
import { createAdminRepository } from './admin.repository.ts';

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

/** Until when a temporary password given now signs in; the user must change it at once. */
const temporaryPasswordExpiry = () => new Date(Date.now() + TEMPORARY_PASSWORD_TTL_HOURS * 3_600_000);

/**
 * Administration of users (issue 13): invitations, changes, deactivation, password and
 * second-factor resets; every change is audited. `onUserChanged`: see AdminServiceOptions.
 */
export function createUsersAdmin(db: Db, repo: AdminRepository, onUserChanged: (userId: number) => void) {
  const record = adminRecorder(db);

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

  /**
   * Changes a user. Deactivation ends every session at once; the user's API tokens are
   * refused while the account is inactive (the auth hook reads the account on each request).
   */
  async function updateUser(id: number, raw: UserUpdate, caller: AdminCaller): Promise<AdminUser> {
    const input = UserUpdateSchema.parse(raw);
    const current = await repo.userById(id);
    if (!current) throw notFound();
    if (input.systems) await checkSystems(input.systems);
    if (caller.userId === id && (input.is_active === false || (input.role && input.role !== 'admin'))) {
      throw badRequest({ non_field_errors: [msg('cannotDemoteSelf')] });
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
  }

  return {
    user,
    async resolveUser(ref: string | number): Promise<number> {
      const row =
        typeof ref === 'number' || /^\d+$/.test(ref)
          ? await repo.userById(Number(ref))
          : await repo.userByUsername(ref);
      if (!row) throw notFound(`No user "${ref}".`);
      return row.id;
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
      if (await repo.userByUsername(input.username)) throw badRequest({ username: [msg('userExists')] });
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
        if (isUniqueViolation(err)) throw badRequest({ username: [msg('userExists')] });
        throw err;
      }
      await record(caller, 'user.invite', 'user', id, {
        username: input.username,
        role: input.role,
        systems: input.systems,
      });
      return { ...(await user(id)), temporary_password: password };
    },

    updateUser,

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
      return updateUser(id, { is_active: false }, caller);
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
  };
}
