import type { AdminCaller } from './admin-caller.ts';
import type { AdminService } from './admin.service.ts';
import type { CommandContext, CommandGroup } from './command-context.ts';
import { arg, int, json, table } from './command-context.ts';

/** `sla critical=2,high=4`: SLA rows, in calendar hours unless `--business-hours`. */
const sla = (v: string | undefined, businessHours: boolean | undefined) =>
  v === undefined
    ? undefined
    : v
        .split(',')
        .filter(Boolean)
        .map((pair) => {
          const [category, hours] = pair.split('=');
          return {
            category: category as 'critical' | 'high' | 'medium' | 'low',
            hours: Number(hours),
            calendar: !businessHours,
          };
        });

const system = (ctx: CommandContext) => ctx.admin.resolveSystem(arg(ctx, 0, 'SYSTEM'));

/** `systems …`: list, show, create, update, mail-domains. */
export const systemCommands: CommandGroup = async (ctx) => {
  const { admin, caller, o } = ctx;
  switch (ctx.action) {
    case 'list': {
      const { results, total } = await admin.listSystems({ page: 1, page_size: 200, search: o.search });
      return `${table(results.map((s) => ({ id: s.id, is_id: s.is_id, status: s.status, name: s.full_name })))}\n${total} systems`;
    }
    case 'show':
      return json(await admin.system(await system(ctx)));
    case 'create':
      return json(
        await admin.createSystem(
          {
            is_id: o['is-id'] ?? '',
            full_name: o.name ?? '',
            ...(o.status ? { status: o.status as 'active' } : {}),
          },
          caller,
        ),
      );
    case 'update':
      return json(
        await admin.updateSystem(
          await system(ctx),
          {
            ...(o['is-id'] ? { is_id: o['is-id'] } : {}),
            ...(o.name ? { full_name: o.name } : {}),
            ...(o.status ? { status: o.status as 'active' } : {}),
            // an empty name: the SOC's replies are shown as the analyst's again
            ...(o['soc-reply-name'] !== undefined ? { soc_reply_name: o['soc-reply-name'] || null } : {}),
          },
          caller,
        ),
      );
    case 'mail-domains':
      return json(await systemMailDomains(admin, await system(ctx), o.set, caller));
  }
};

/** `contracts add`, `services add|update|delete`, `contacts add|delete`: the parts of a system. */
export const systemPartCommands =
  (group: 'contracts' | 'services' | 'contacts'): CommandGroup =>
  async (ctx) => {
    const { admin, caller, o } = ctx;
    switch (`${group} ${ctx.action}`) {
      case 'contracts add':
        return json(
          await admin.addContract(
            await system(ctx),
            {
              name: o.name ?? '',
              number: o.number ?? '',
              start_date: o.start ?? '',
              end_date: o.end ?? null,
            },
            caller,
          ),
        );
      case 'services add':
        return json(
          await admin.addService(
            await system(ctx),
            {
              name: o.name ?? '',
              start_date: o.start ?? '',
              contract_id: int(o.contract, '--contract') ?? null,
              contracted_eps: int(o.eps, '--eps') ?? 0,
              sla: sla(o.sla, o['business-hours']),
            },
            caller,
          ),
        );
      case 'services update':
        return json(
          await admin.updateService(
            int(arg(ctx, 0, 'SERVICE_ID'), 'SERVICE_ID')!,
            {
              ...(o.name ? { name: o.name } : {}),
              ...(o.eps !== undefined ? { contracted_eps: int(o.eps, '--eps') } : {}),
              ...(o.sla !== undefined ? { sla: sla(o.sla, o['business-hours']) } : {}),
            },
            caller,
          ),
        );
      case 'services delete':
        await admin.deleteService(int(arg(ctx, 0, 'SERVICE_ID'), 'SERVICE_ID')!, caller);
        return 'Deleted.';
      case 'contacts add':
        return json(
          await admin.addContact(
            await system(ctx),
            {
              first_name: o.first ?? '',
              last_name: o.last ?? '',
              email: o.email ?? '',
              mobile_phone: o.phone ?? '',
              ...(o.locale ? { locale: o.locale as 'ru' } : {}),
              notify: !o['no-notify'],
            },
            caller,
          ),
        );
      case 'contacts delete':
        await admin.deleteContact(int(arg(ctx, 0, 'CONTACT_ID'), 'CONTACT_ID')!, caller);
        return 'Deleted.';
    }
  };

/** `systems mail-domains SYSTEM [--set a.ru,b.ru]`: shows the list, or replaces it when `--set` is given. */
async function systemMailDomains(
  admin: AdminService,
  systemId: number,
  set: string | undefined,
  caller: AdminCaller,
) {
  if (set === undefined) return admin.mailDomains(systemId);
  const mail_domains = set
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean);
  return admin.setMailDomains(systemId, { mail_domains }, caller);
}
