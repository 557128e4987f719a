import { ZodError } from 'zod';
import type { Config } from '../../core/config.ts';
import type { Database, Db } from '../../db/client.ts';
import { HttpError } from '../../lib/http-errors.ts';
import { createTokensService } from '../tokens/index.ts';
import type { AdminCaller } from './admin-caller.ts';
import { attackCommands } from './attack.commands.ts';
import { backupCommands } from './backup.commands.ts';
import { createAdminService } from './admin.service.ts';
import type { CommandContext, CommandGroup } from './command-context.ts';
import { CommandError, parseCommand } from './command-context.ts';
import { fileCommands } from './files.commands.ts';
import { brandingCommands, derivedCommands } from './settings.commands.ts';
import { systemCommands, systemPartCommands } from './systems.commands.ts';
import { ruleCommands } from './rules.commands.ts';
import { tokenCommands, userCommands } from './users.commands.ts';

/** What `npm run admin -- help` prints. */
export const ADMIN_USAGE = `Usage: npm run admin -- <command> [options]

Systems, services and contacts (a system is named by its code, e.g. IS-0001, or its id):
  systems list [--search TEXT]
  systems show SYSTEM
  systems create --is-id IS-0006 --name "Full name" [--status active|inactive]
  systems update SYSTEM [--is-id CODE] [--name TEXT] [--status active|inactive] [--soc-reply-name TEXT|""]
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

MITRE ATT&CK data (without an import: ATTACK_STIX_PATH, the download, else the repository's compact file):
  attack import BUNDLE.json   (MITRE's Enterprise STIX 2.1 bundle: every instance uses it from its next request)
  attack show                 (the import in force)

Detection rules:
  rules import-sigma FILE-OR-FOLDER [--services Vision,Horizon] [--activation auto|manual] [--dry-run]
                     (Sigma rules from YAML files and zip archives, a folder walked whole; a rule is
                      keyed by its Sigma id, so importing again updates it. Default: every service
                      level, manual activation. Prints counts, skips and refused files)

Stored files (uploads, reports, quarantined mail):
  files migrate --to s3|local [--concurrency 4]
                     (copies every file the database refers to from the other storage (DATA_DIR/files
                      or the S3_* bucket) to this one under the same key and reads each copy back to
                      check its SHA-256; a file already there with the right checksum is skipped, so
                      an interrupted run resumes. Prints progress; the source is left as it was.
                      Then set STORAGE to the target and restart)

Backups (stop the servers first):
  backup --to DIR    (DIR new or empty: the database dump (pg_dump --format=custom on PostgreSQL, the
                      data folder's tarball on the embedded one), every stored file under DIR/files/ and
                      DIR/manifest.json: version, last migration, row counts, SHA-256 of every file)
  restore --from DIR [--force]
                     (checks every SHA-256 first and refuses a backup of a newer migration; refuses a
                      database holding data unless --force. Puts the files back into the configured
                      storage, loads the dump (pg_restore --clean --if-exists --no-owner; the embedded
                      one's old folder is kept as pgdata.before-restore-TIME), then migrates)
`;

export { CommandError, CommandFailed } from './command-context.ts';

/** The command groups by their first word. */
const GROUPS = new Map<string, CommandGroup>([
  ['systems', systemCommands],
  ['contracts', systemPartCommands('contracts')],
  ['services', systemPartCommands('services')],
  ['contacts', systemPartCommands('contacts')],
  ['users', userCommands],
  ['tokens', tokenCommands],
  ['branding', brandingCommands],
  ['derived', derivedCommands],
  ['attack', attackCommands],
  ['rules', ruleCommands],
  ['files', fileCommands],
  // one word each: the action is the group's name
  [
    'backup',
    (ctx) =>
      backupCommands({ ...ctx, action: 'backup', rest: ctx.action ? [ctx.action, ...ctx.rest] : ctx.rest }),
  ],
  [
    'restore',
    (ctx) =>
      backupCommands({ ...ctx, action: 'restore', rest: ctx.action ? [ctx.action, ...ctx.rest] : ctx.rest }),
  ],
]);

/**
 * Runs one `npm run admin` command against a database and returns what it prints (JSON of the
 * changed object, or a table). Business rules are those of the admin API (admin.service.ts).
 */
export async function runAdminCommand(
  argv: string[],
  {
    db,
    config,
    log = (line) => console.error(line),
    openStorage,
    database,
    replaceDatabase,
  }: { db: Db; config: Config; database?: Database } & Partial<
    Pick<CommandContext, 'log' | 'openStorage' | 'replaceDatabase'>
  >,
): Promise<string> {
  const { values: o, positionals } = parseCommand(argv);
  const [group, action, ...rest] = positionals;
  const admin = createAdminService({ db, config });
  const tokens = createTokensService(db);
  const caller: AdminCaller = { userId: null, ip: 'cli' };
  const command = `${group ?? ''} ${action ?? ''}`.trim();
  if (command === '' || command === 'help') return ADMIN_USAGE;
  const run = GROUPS.get(group ?? '');
  const output = await run?.({
    action: action ?? '',
    rest,
    o,
    db,
    config,
    admin,
    tokens,
    caller,
    log,
    openStorage,
    database,
    replaceDatabase,
  });
  if (output === undefined)
    throw new CommandError(`Unknown command "${positionals.join(' ')}".\n\n${ADMIN_USAGE}`);
  return output;
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
    return String(err.detail);
  }
  if (err instanceof Error && 'code' in err && err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')
    return err.message;
  return err instanceof Error ? err.message : String(err);
}
