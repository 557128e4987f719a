import { parseArgs } from 'node:util';
import type { Config } from '../../core/config.ts';
import type { Database, Db } from '../../db/client.ts';
import type { FileStorage, StorageDriver } from '../../integrations/storage/file-storage.ts';
import type { TokensService } from '../tokens/index.ts';
import type { AdminCaller } from './admin-caller.ts';
import type { AdminService } from './admin.service.ts';

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
  services: { type: 'string' },
  activation: { type: 'string' },
  'dry-run': { type: 'boolean' },
  to: { type: 'string' },
  from: { type: 'string' },
  force: { type: 'boolean' },
  concurrency: { type: 'string' },
  'soc-reply-name': { type: 'string' },
} as const;

export const parseCommand = (argv: string[]) =>
  parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });

/** What a group of `npm run admin` commands works with: the parsed command line, the services and helpers. */
export interface CommandContext {
  /** The second word of the command (`list` of `systems list`). */
  action: string;
  /** The positionals after the action. */
  rest: string[];
  o: ReturnType<typeof parseCommand>['values'];
  db: Db;
  config: Config;
  admin: AdminService;
  tokens: TokensService;
  caller: AdminCaller;
  /** Progress of a long command, printed as it goes (stderr); the result is what the command returns. */
  log: (line: string) => void;
  /** The storage of a driver instead of the configured one (tests: a target that fails midway). */
  openStorage?: (driver: StorageDriver) => FileStorage;
  /** The open database as a whole (backup and restore need its kind and its dump; the CLI gives it). */
  database?: Database;
  /** Takes the database that replaced `database` (a restore of the embedded one opens it anew). */
  replaceDatabase?: (database: Database) => void;
}

/** Runs one command of a group; undefined when the group has no such action. */
export type CommandGroup = (ctx: CommandContext) => Promise<string | undefined>;

export const json = (v: unknown) => JSON.stringify(v, null, 2);

/** The `i`-th positional after the action; missing, the command fails naming `what`. */
export const arg = ({ rest }: CommandContext, i: number, what: string) => {
  const v = rest[i];
  if (!v) throw new CommandError(`Missing ${what}.`);
  return v;
};

export const int = (v: string | undefined, what: string) => {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new CommandError(`${what} must be a whole number.`);
  return Number(v);
};

export const bool = (v: string | undefined, what: string) => {
  if (v === undefined) return undefined;
  if (v !== 'true' && v !== 'false') throw new CommandError(`${what} must be true or false.`);
  return v === 'true';
};

/** Systems named by code or id, comma-separated. */
export const systemList = async ({ admin }: CommandContext, v: string | undefined) =>
  v === undefined
    ? undefined
    : Promise.all(
        v
          .split(',')
          .filter(Boolean)
          .map((s) => admin.resolveSystem(s.trim())),
      );

export const table = (rows: Record<string, string | number | boolean | null | number[]>[]) =>
  rows.length
    ? rows
        .map((r) =>
          Object.values(r)
            .map((v) => (Array.isArray(v) ? v.join(',') : String(v ?? '—')))
            .join('\t'),
        )
        .join('\n')
    : '(none)';
