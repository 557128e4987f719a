import { buildApp } from './app.ts';
import { createFileStorage } from './integrations/storage/create-storage.ts';
import { restrictTree } from './core/private-files.ts';
import { loadConfig } from './config.ts';
import { openConfiguredDatabase } from './db/open.ts';
import { demoLoginsToShow, loadDemoDataIfEmpty } from './demo/demo-start.ts';
import { DEMO_PASSWORD } from './demo/generator.ts';

const SHUTDOWN_TIMEOUT_MS = 10_000;
/** Unfinished uploads older than this were left by a process that died (none runs that long). */
const STALE_UPLOAD_MS = 24 * 3600 * 1000;

async function main(): Promise<void> {
  const started = performance.now();
  // whatever the server writes (the embedded database's own files too) is its user's alone
  process.umask(0o077);
  const config = loadConfig();
  restrictTree(config.dataDir);
  // PostgreSQL is not connected to yet: an unreachable one is waited for below, after listen
  const database = await openConfiguredDatabase(config);
  const storage = createFileStorage(config);

  // until the database was reached, migrated and (a new demo installation) filled, the API
  // answers 503 with Retry-After; /healthz answers, /readyz says 503 naming the database
  let databaseReady = false;
  const app = await buildApp({ config, database, storage, databaseReady: () => databaseReady });
  let url = '';
  // the first warm-up step, before the others: tried again while it fails (2 s, doubling up to
  // 30 s; each failure logged with its reason, never the URL), so an instance started while its
  // database is down becomes ready once it is back
  app.readiness.addPrerequisite('database', async () => {
    await database.migrate();
    const loaded = config.demo.enabled
      ? await loadDemoDataIfEmpty(database, {
          incidents: config.demo.incidents,
          storage,
          log: (m) => console.log(m),
        })
      : null;
    databaseReady = true;
    app.jobs.start();
    const logins = await demoLoginsToShow(database.db, {
      enabled: config.demo.enabled,
      loaded: loaded?.logins,
    });
    if (logins.length) {
      console.log('\nDemo logins (password for all: ' + DEMO_PASSWORD + '):');
      for (const login of logins) console.log(`  ${login.username.padEnd(10)} ${login.description}`);
      if (config.sms.outbox) console.log(`SMS sign-in codes (demo outbox): ${url}/dev/sms-outbox`);
      console.log('');
    }
  });

  const address = await app.listen({ host: config.host, port: config.port });
  url = address.replace('[::1]', 'localhost').replace('0.0.0.0', '127.0.0.1');
  storage.cleanupTemporary(STALE_UPLOAD_MS).then(
    (removed) => removed && app.log.info({ removed }, 'removed what interrupted uploads left'),
    (err: unknown) => app.log.warn({ err }, 'could not clean up interrupted uploads'),
  );
  // after listen: /healthz answers meanwhile, /readyz once every step has ended well (a failed
  // step is logged and tried again)
  const warming = performance.now();
  void app.readiness
    .start()
    .then(() =>
      console.log(`Warmed up in ${Math.round(performance.now() - warming)} ms: /readyz answers ready`),
    );
  const where =
    database.kind === 'postgres' ? 'PostgreSQL' : `embedded PostgreSQL (PGlite) in ${config.dataDir}`;
  console.log(
    `\nSOC portal listening on ${url}  (database: ${where}; listening in ${Math.round(performance.now() - started)} ms)`,
  );
  console.log(`API reference: ${url}/api/v0/docs`);
  if (!config.webDist) console.log('Web app not built: run `npm run build` (npm start does it for you).');
  console.log('');

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      app.log.error('shutdown timed out; exiting');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    app
      .close()
      .then(() => database.close())
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
