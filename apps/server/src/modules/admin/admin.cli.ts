import { loadConfig } from '../../config.ts';
import { openConfiguredDatabase } from '../../db/open.ts';
import { CommandFailed, describeError, runAdminCommand } from './admin.commands.ts';

/**
 * `npm run admin -- <command>`: administration from a shell against the configured database
 * (DATABASE_URL, else the embedded one under DATA_DIR, which only one process may open: stop
 * the server first, or use the admin API).
 */
async function main(): Promise<void> {
  const config = loadConfig();
  let database = await openConfiguredDatabase(config);
  try {
    await database.migrate();
    console.log(
      await runAdminCommand(process.argv.slice(2), {
        db: database.db,
        config,
        database,
        // a restore of the embedded database opens it anew: that one is closed at the end
        replaceDatabase: (restored) => (database = restored),
      }),
    );
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  // a check that found differences prints them as its result
  if (err instanceof CommandFailed) console.log(err.output);
  else console.error(describeError(err));
  process.exit(1);
});
