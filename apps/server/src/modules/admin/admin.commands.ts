import { parseArgs } from 'node:util';
import { ZodError } from 'zod';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { DerivedCheck } from '../../db/derived/check.ts';
import { checkDerived, rebuildDerived } from '../../db/derived/check.ts';
import { HttpError } from '../../lib/http-errors.ts';
import { createTokensService } from '../tokens/tokens.service.ts';
import type { AdminCaller } from './admin.service.ts';
import { createAdminService } from './admin.service.ts';

/** What `npm run admin -- help` prints. */
export const ADMIN_USAGE = `Usage: npm run admin -- <command> [options]

Systems, services and contacts (a system is named by its code, e.g. IS-0001, or its id):
  systems list [--search TEXT]
  systems show SYSTEM
  systems create --is-id IS-0006 --name "Full name" [--status active|inactive]
  systems update SYSTEM [--is-id CODE] [--name TEXT] [--status active|inactive]
  systems mail-domains SYSTEM [--set a.ru,b.ru]   (report recipients besides the system's users;
                                                   --set '' clears)
  contracts add SYSTEM --name TEXT --number N --start YYYY-MM-DD [--end YYYY-MM-DD]
  services add SYSTEM --name Vision --start YYYY-MM-DD [--contract ID] [--eps N]
               [--sla critical=2,high=4,medium=8,low=24] [--business-hours]
  services update SERVICE_ID [--name TEXT] [--eps N] [--sla ...] [--business-hours]
  services delete SERVICE_ID
  contacts add SYSTEM --first NAME --last NAME [--email ADDR] [--phone N] [--locale ru|en] [--no-notify]
  contacts delete CONTACT_ID

Users (named by username or id):
  users list [--search TEXT] [--role customer|analyst|admin] [--system SYSTEM]
  users invite USERNAME --email ADDR [--role customer|analyst|admin] [--systems IS-0001,IS-0002]
               [--first NAME] [--last NAME] [--locale ru|en] [--phone +7...]
  users assign USER --systems IS-0001,IS-0002     (replaces the user's systems)
  users deactivate USER                            (sessions and API tokens stop at once)
  users activate USER
  users reset-mfa USER [--remove-phone]
  users reset-password USER

API tokens (the secret is printed once):
  tokens list [--user USER] [--all]
  tokens create --name TEXT --user USER [--role ROLE] [--systems IS-0001,...] [--read-only]
                [--expires 2027-01-01T00:00:00Z]
  tokens revoke TOKEN_ID

Branding (overrides PORTAL_NAME, PORTAL_LOGO_URL, PORTAL_PRIMARY_COLOR and the BRAND_* flags):
  branding show
  branding set [--name TEXT] [--logo-url /path|data:image/...] [--color #rrggbb]
               [--hide-oidc true|false] [--hide-eps true|false] [--alternate-category-filter true|false]
  branding reset [FIELD ...]                        (all fields when none is named)

Derived tables (counts and figures that triggers keep, db/derived):
  derived check      (compares each with a recount from its source tables and lists the rows that
                      differ; exits with 1 when any does. Versions and cache_epoch only move and are
                      not compared)
  derived rebuild    (recounts them; writers of the source tables wait meanwhile)
`;

/** A command failed in a way the user can fix; the CLI prints the message and exits with 1. */
export class CommandError extends Error {}

/** A command ran and found something wrong: the CLI prints `output` as a result and exits with 1. */
export class CommandFailed extends Error {
  constructor(readonly output: string) {
    super(output);
  }
}

const OPTIONS = {
  search: { type: 'string' },
  'is-id': { type: 'string' },
  name: { type: 'string' },
  status: { type: 'string' },
  number: { type: 'string' },
  start: { type: 'string' },
  end: { type: 'string' },
  contract: { type: 'string' },
  eps: { type: 'string' },
  sla: { type: 'string' },
  'business-hours': { type: 'boolean' },
  first: { type: 'string' },
  last: { type: 'string' },
  email: { type: 'string' },
  phone: { type: 'string' },
  locale: { type: 'string' },
  'no-notify': { type: 'boolean' },
  role: { type: 'string' },
  system: { type: 'string' },
  systems: { type: 'string' },
  user: { type: 'string' },
  all: { type: 'boolean' },
  'read-only': { type: 'boolean' },
  expires: { type: 'string' },
  'remove-phone': { type: 'boolean' },
  'logo-url': { type: 'string' },
  color: { type: 'string' },
  'hide-oidc': { type: 'string' },
  'hide-eps': { type: 'string' },
  'alternate-category-filter': { type: 'string' },
  set: { type: 'string' },
} as const;

/**
 * Runs one `npm run admin` command against a database and returns what it prints (JSON of the
 * changed object, or a table). Business rules are those of the admin API (admin.service.ts).
 */
export async function runAdminCommand(
  argv: string[],
  { db, config }: { db: Db; config: Config },
): Promise<string> {
  const { values: o, positionals } = parseArgs({
    args: argv,
    options: OPTIONS,
    allowPositionals: true,
    strict: true,
  });
  const [group, action, ...rest] = positionals;
  const admin = createAdminService({ db, config });
  const tokens = createTokensService(db);
  const caller: AdminCaller = { userId: null, ip: 'cli' };
  const json = (v: unknown) => JSON.stringify(v, null, 2);
  const arg = (i: number, what: string) => {
    const v = rest[i];
    if (!v) throw new CommandError(`Missing ${what}.`);
    return v;
  };
  const int = (v: string | undefined, what: string) => {
    if (v === undefined) return undefined;
    if (!/^\d+$/.test(v)) throw new CommandError(`${what} must be a whole number.`);
    return Number(v);
  };
  const bool = (v: string | undefined, what: string) => {
    if (v === undefined) return undefined;
    if (v !== 'true' && v !== 'false') throw new CommandError(`${what} must be true or false.`);
    return v === 'true';
  };
  const systemList = async (v: string | undefined) =>
    v === undefined
      ? undefined
      : Promise.all(
          v
            .split(',')
            .filter(Boolean)
            .map((s) => admin.resolveSystem(s.trim())),
        );
  const sla = (v: string | undefined) =>
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
              calendar: !o['business-hours'],
            };
          });
  const table = (rows: Record<string, string | number | boolean | null | number[]>[]) =>
    rows.length
      ? rows
          .map((r) =>
            Object.values(r)
              .map((v) => (Array.isArray(v) ? v.join(',') : String(v ?? '—')))
              .join('\t'),
          )
          .join('\n')
      : '(none)';

  switch (`${group ?? ''} ${action ?? ''}`.trim()) {
    case 'systems list': {
      const { results, total } = await admin.listSystems({ page: 1, page_size: 200, search: o.search });
      return `${table(results.map((s) => ({ id: s.id, is_id: s.is_id, status: s.status, name: s.full_name })))}\n${total} systems`;
    }
    case 'systems show':
      return json(await admin.system(await admin.resolveSystem(arg(0, 'SYSTEM'))));
    case 'systems create':
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
    case 'systems update':
      return json(
        await admin.updateSystem(
          await admin.resolveSystem(arg(0, 'SYSTEM')),
          {
            ...(o['is-id'] ? { is_id: o['is-id'] } : {}),
            ...(o.name ? { full_name: o.name } : {}),
            ...(o.status ? { status: o.status as 'active' } : {}),
          },
          caller,
        ),
      );
    case 'systems mail-domains':
      return json(await systemMailDomains(admin, await admin.resolveSystem(arg(0, 'SYSTEM')), o.set, caller));
    case 'contracts add':
      return json(
        await admin.addContract(
          await admin.resolveSystem(arg(0, 'SYSTEM')),
          { name: o.name ?? '', number: o.number ?? '', start_date: o.start ?? '', end_date: o.end ?? null },
          caller,
        ),
      );
    case 'services add':
      return json(
        await admin.addService(
          await admin.resolveSystem(arg(0, 'SYSTEM')),
          {
            name: o.name ?? '',
            start_date: o.start ?? '',
            contract_id: int(o.contract, '--contract') ?? null,
            contracted_eps: int(o.eps, '--eps') ?? 0,
            sla: sla(o.sla),
          },
          caller,
        ),
      );
    case 'services update':
      return json(
        await admin.updateService(
          int(arg(0, 'SERVICE_ID'), 'SERVICE_ID')!,
          {
            ...(o.name ? { name: o.name } : {}),
            ...(o.eps !== undefined ? { contracted_eps: int(o.eps, '--eps') } : {}),
            ...(o.sla !== undefined ? { sla: sla(o.sla) } : {}),
          },
          caller,
        ),
      );
    case 'services delete':
      await admin.deleteService(int(arg(0, 'SERVICE_ID'), 'SERVICE_ID')!, caller);
      return 'Deleted.';
    case 'contacts add':
      return json(
        await admin.addContact(
          await admin.resolveSystem(arg(0, 'SYSTEM')),
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
      await admin.deleteContact(int(arg(0, 'CONTACT_ID'), 'CONTACT_ID')!, caller);
      return 'Deleted.';
    case 'users list': {
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
    case 'users invite': {
      const invited = await admin.inviteUser(
        {
          username: arg(0, 'USERNAME'),
          email: o.email ?? '',
          first_name: o.first ?? '',
          last_name: o.last ?? '',
          ...(o.role ? { role: o.role as 'customer' } : {}),
          ...(o.locale ? { locale: o.locale as 'ru' } : {}),
          systems: (await systemList(o.systems)) ?? [],
          ...(o.phone ? { mfa_phone: o.phone } : {}),
        },
        caller,
      );
      return `${json({ ...invited, temporary_password: undefined })}\nOne-time password (shown once): ${invited.temporary_password}`;
    }
    case 'users assign':
      return json(
        await admin.updateUser(
          await admin.resolveUser(arg(0, 'USER')),
          { systems: (await systemList(o.systems ?? '')) ?? [] },
          caller,
        ),
      );
    case 'users deactivate':
      return json(await admin.deactivateUser(await admin.resolveUser(arg(0, 'USER')), caller));
    case 'users activate':
      return json(
        await admin.updateUser(await admin.resolveUser(arg(0, 'USER')), { is_active: true }, caller),
      );
    case 'users reset-password': {
      const reset = await admin.resetPassword(await admin.resolveUser(arg(0, 'USER')), caller);
      return `${json({ ...reset, temporary_password: undefined })}\nOne-time password (shown once, valid 72 hours): ${reset.temporary_password}`;
    }
    case 'users reset-mfa':
      return json(
        await admin.resetSecondFactor(await admin.resolveUser(arg(0, 'USER')), caller, {
          removePhone: o['remove-phone'],
        }),
      );
    case 'tokens list': {
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
    case 'tokens create': {
      if (!o.user) throw new CommandError('Missing --user.');
      const created = await tokens.createService(
        caller,
        {
          name: o.name ?? '',
          user_id: await admin.resolveUser(o.user),
          ...(o.role ? { role: o.role as 'analyst' } : {}),
          systems: (await systemList(o.systems)) ?? [],
          read_only: o['read-only'] ?? false,
          expires_at: o.expires ?? null,
        },
        'cli',
      );
      return `${json({ ...created, token: undefined })}\nToken (shown once): ${created.token}`;
    }
    case 'tokens revoke':
      await tokens.revokeAny(caller, arg(0, 'TOKEN_ID'), 'cli');
      return 'Revoked.';
    case 'branding show':
      return json(await admin.branding());
    case 'branding set':
      return json(
        await admin.updateBranding(
          {
            ...(o.name !== undefined ? { portal_name: o.name } : {}),
            ...(o['logo-url'] !== undefined ? { logo_url: o['logo-url'] } : {}),
            ...(o.color !== undefined ? { primary_color: o.color } : {}),
            ...(o['hide-oidc'] !== undefined
              ? { hide_oidc_buttons: bool(o['hide-oidc'], '--hide-oidc') }
              : {}),
            ...(o['hide-eps'] !== undefined ? { hide_eps_widget: bool(o['hide-eps'], '--hide-eps') } : {}),
            ...(o['alternate-category-filter'] !== undefined
              ? {
                  alternate_category_filter: bool(
                    o['alternate-category-filter'],
                    '--alternate-category-filter',
                  ),
                }
              : {}),
          },
          caller,
        ),
      );
    case 'branding reset': {
      const fields = rest.length
        ? rest
        : [
            'portal_name',
            'logo_url',
            'primary_color',
            'hide_oidc_buttons',
            'hide_eps_widget',
            'alternate_category_filter',
          ];
      return json(await admin.updateBranding(Object.fromEntries(fields.map((f) => [f, null])), caller));
    }
    case 'derived check': {
      const report = describeCheck(await checkDerived(db));
      if (report.failed) throw new CommandFailed(report.text);
      return report.text;
    }
    case 'derived rebuild': {
      await rebuildDerived(db);
      const report = describeCheck(await checkDerived(db));
      if (report.failed) throw new CommandFailed(`Rebuilt, yet:\n${report.text}`);
      return `Rebuilt. ${report.text}`;
    }
    case '':
    case 'help':
      return ADMIN_USAGE;
    default:
      throw new CommandError(`Unknown command "${positionals.join(' ')}".\n\n${ADMIN_USAGE}`);
  }
}

/** A readable one-line (or field-by-field) message for a failed command. */
export function describeError(err: unknown): string {
  if (err instanceof CommandError) return err.message;
  if (err instanceof ZodError)
    return err.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('\n');
  if (err instanceof HttpError) {
    if (err.fields)
      return Object.entries(err.fields)
        .map(([f, m]) => `${f}: ${m.join(' ')}`)
        .join('\n');
    return err.detail;
  }
  if (err instanceof Error && 'code' in err && err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')
    return err.message;
  return err instanceof Error ? err.message : String(err);
}

/** What `derived check` prints: the rows that differ, as a table, or that none does. */
function describeCheck(check: DerivedCheck): { failed: boolean; text: string } {
  const tables = Object.keys(check.counts);
  const differing = Object.entries(check.counts).filter(([, n]) => n > 0);
  if (!differing.length)
    return {
      failed: false,
      text: `${tables.length} derived tables agree with their recount (${tables.join(', ')}).`,
    };
  const rows = check.differences.map((d) => [d.table, d.key, d.stored ?? '—', d.recounted ?? '—'].join('\t'));
  const listed = check.differences.length;
  const total = differing.reduce((sum, [, n]) => sum + n, 0);
  return {
    failed: true,
    text: [
      ['table', 'key', 'stored', 'recounted'].join('\t'),
      ...rows,
      `${total} rows differ (${differing.map(([t, n]) => `${t}: ${n}`).join(', ')})${listed < total ? `; ${listed} listed` : ''}.`,
    ].join('\n'),
  };
}

/** `systems mail-domains SYSTEM [--set a.ru,b.ru]`: shows the list, or replaces it when `--set` is given. */
async function systemMailDomains(
  admin: ReturnType<typeof createAdminService>,
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
