import type { CommandGroup } from './command-context.ts';
import { CommandError, arg, json, systemList, table } from './command-context.ts';

/** `users …`: list, invite, assign, deactivate, activate, reset-password, reset-mfa. */
export const userCommands: CommandGroup = async (ctx) => {
  const { admin, caller, o } = ctx;
  const user = () => admin.resolveUser(arg(ctx, 0, 'USER'));
  switch (ctx.action) {
    case 'list': {
      const { results, total } = await admin.listUsers({
        page: 1,
        page_size: 200,
        search: o.search,
        role: o.role as 'customer' | undefined,
        system: o.system ? await admin.resolveSystem(o.system) : undefined,
      });
      return `${table(
        results.map((u) => ({
          id: u.id,
          username: u.username,
          role: u.role,
          active: u.is_active,
          systems: u.systems,
          email: u.email,
        })),
      )}\n${total} users`;
    }
    case 'invite': {
      const invited = await admin.inviteUser(
        {
          username: arg(ctx, 0, 'USERNAME'),
          email: o.email ?? '',
          first_name: o.first ?? '',
          last_name: o.last ?? '',
          ...(o.role ? { role: o.role as 'customer' } : {}),
          ...(o.locale ? { locale: o.locale as 'ru' } : {}),
          systems: (await systemList(ctx, o.systems)) ?? [],
          ...(o.phone ? { mfa_phone: o.phone } : {}),
        },
        caller,
      );
      return `${json({ ...invited, temporary_password: undefined })}\nOne-time password (shown once): ${invited.temporary_password}`;
    }
    case 'assign':
      return json(
        await admin.updateUser(
          await user(),
          { systems: (await systemList(ctx, o.systems ?? '')) ?? [] },
          caller,
        ),
      );
    case 'deactivate':
      return json(await admin.deactivateUser(await user(), caller));
    case 'activate':
      return json(await admin.updateUser(await user(), { is_active: true }, caller));
    case 'reset-password': {
      const reset = await admin.resetPassword(await user(), caller);
      return `${json({ ...reset, temporary_password: undefined })}\nOne-time password (shown once, valid 72 hours): ${reset.temporary_password}`;
    }
    case 'reset-mfa':
      return json(
        await admin.resetSecondFactor(await user(), caller, {
          removePhone: o['remove-phone'],
        }),
      );
  }
};

/** `tokens …`: list, create, revoke (the secret is printed once). */
export const tokenCommands: CommandGroup = async (ctx) => {
  const { admin, tokens, caller, o } = ctx;
  switch (ctx.action) {
    case 'list': {
      const { results, total } = await tokens.listAll({
        page: 1,
        page_size: 100,
        include_revoked: o.all ?? false,
        user_id: o.user ? await admin.resolveUser(o.user) : undefined,
      });
      return `${table(
        results.map((t) => ({
          id: t.id,
          prefix: t.prefix,
          kind: t.kind,
          name: t.name,
          user: t.user.username,
          role: t.role,
          systems: t.systems,
          read_only: t.read_only,
          last_used: t.last_used_at,
          revoked: t.revoked_at,
        })),
      )}\n${total} tokens`;
    }
    case 'create': {
      if (!o.user) throw new CommandError('Missing --user.');
      const created = await tokens.createService(
        caller,
        {
          name: o.name ?? '',
          user_id: await admin.resolveUser(o.user),
          ...(o.role ? { role: o.role as 'analyst' } : {}),
          systems: (await systemList(ctx, o.systems)) ?? [],
          read_only: o['read-only'] ?? false,
          expires_at: o.expires ?? null,
        },
        'cli',
      );
      return `${json({ ...created, token: undefined })}\nToken (shown once): ${created.token}`;
    }
    case 'revoke':
      await tokens.revokeAny(caller, arg(ctx, 0, 'TOKEN_ID'), 'cli');
      return 'Revoked.';
  }
};
