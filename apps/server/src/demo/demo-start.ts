import type { Database, Db } from '../db/client.ts';
import type { FileStorage } from '../integrations/storage/file-storage.ts';
import type { DemoLogin, DemoSummary } from './generator.ts';
import {
  DEMO_USERNAMES,
  createDemoAccountsRepository,
  generateDemoData,
  isDatabaseEmpty,
} from './generator.ts';

/** Arbitrary constant identifying the demo load's lock among advisory locks (the migration's is 7204311). */
const DEMO_LOAD_LOCK_ID = 7_204_313;

export interface DemoStartOptions {
  incidents: number;
  storage?: FileStorage;
  log?: (message: string) => void;
}

/**
 * Loads the demo data set into an empty database, once however many instances start together on
 * it: the first to take the lock loads; the others wait for the lock, then find the database
 * filled and load nothing (two loads at once broke on the unique keys of the second). Resolves to
 * what was loaded, or null when the database was not empty.
 */
export function loadDemoDataIfEmpty(
  database: Database,
  options: DemoStartOptions,
): Promise<DemoSummary | null> {
  return database.withLock(DEMO_LOAD_LOCK_ID, async () => {
    if (!(await isDatabaseEmpty(database.db))) return null;
    options.log?.(`Empty database: loading demo data (${options.incidents} incidents)…`);
    return generateDemoData(database.db, {
      incidents: options.incidents,
      ...(options.storage ? { storage: options.storage } : {}),
      ...(options.log ? { log: options.log } : {}),
    });
  });
}

/** What each demo account is (README's table of demo logins), for a start that finds the set loaded. */
const DEMO_LOGIN_DESCRIPTIONS: Record<(typeof DEMO_USERNAMES)[number], string> = {
  alice: 'customer of one system',
  bob: 'customer of another system',
  carol: 'customer of two systems',
  dave: 'customer with an SMS second factor',
  analyst: 'SOC analyst',
  admin: 'administrator',
};

/**
 * The demo logins the start banner prints: none unless the demo data set is enabled (DEMO_DATA)
 * and its accounts are in the database; those just loaded (`loaded`) with their descriptions.
 */
export async function demoLoginsToShow(
  db: Db,
  { enabled, loaded }: { enabled: boolean; loaded?: DemoLogin[] | undefined },
): Promise<DemoLogin[]> {
  if (!enabled) return [];
  if (loaded?.length) return loaded;
  if (!(await createDemoAccountsRepository(db).demoAccountsPresent())) return [];
  return DEMO_USERNAMES.map((username) => ({ username, description: DEMO_LOGIN_DESCRIPTIONS[username] }));
}
