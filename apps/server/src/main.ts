import { buildApp } from './app.ts';
import { createFileStorage } from './integrations/storage/create-storage.ts';
import { restrictTree } from './integrations/storage/private-files.ts';
import { loadConfig } from './config.ts';
import { openConfiguredDatabase } from './db/open.ts';
import { DEMO_PASSWORD, generateDemoData, isDatabaseEmpty } from './demo/generator.ts';

/** Incidents in the demo set that a fresh installation starts with (DESIGN §5). */
const DEMO_INCIDENTS = Number(process.env.DEMO_INCIDENTS ?? 5000);
const SHUTDOWN_TIMEOUT_MS = 10_000;
/** Unfinished uploads older than this were left by a process that died (none runs that long). */
const STALE_UPLOAD_MS = 24 * 3600 * 1000;

async function main(): Promise<void> {
  const started = performance.now();
  // whatever the server writes (the embedded database's own files too) is its user's alone
  process.umask(0o077);
  const config = loadConfig();
  restrictTree(config.dataDir);
  const database = await openConfiguredDatabase(config);
  await database.migrate();

  const storage = createFileStorage(config);
  let demoLogins: { username: string; description: string }[] = [];
  if (process.env.DEMO_DATA !== 'false' && (await isDatabaseEmpty(database.db))) {
    console.log(`Empty database: loading demo data (${DEMO_INCIDENTS} incidents)…`);
    const summary = await generateDemoData(database.db, {
      incidents: DEMO_INCIDENTS,
      storage,
      log: (m) => console.log(m),
    });
    demoLogins = summary.logins;
  }

  const app = await buildApp({ config, database, storage });
  const address = await app.listen({ host: config.host, port: config.port });
  app.jobs.start();
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
  const url = address.replace('[::1]', 'localhost').replace('0.0.0.0', '127.0.0.1');
  const where =
    database.kind === 'postgres' ? 'PostgreSQL' : `embedded PostgreSQL (PGlite) in ${config.dataDir}`;
  console.log(
    `\nSOC portal listening on ${url}  (database: ${where}; ready in ${Math.round(performance.now() - started)} ms)`,
  );
  console.log(`API reference: ${url}/api/v0/docs`);
  if (!config.webDist) console.log('Web app not built: run `npm run build` (npm start does it for you).');
  console.log('\nDemo logins (password for all: ' + DEMO_PASSWORD + '):');
  const logins = demoLogins.length
    ? demoLogins
    : [
        { username: 'alice', description: 'customer of one system' },
        { username: 'bob', description: 'customer of another system' },
        { username: 'carol', description: 'customer of two systems' },
        { username: 'dave', description: 'customer with an SMS second factor' },
        { username: 'analyst', description: 'SOC analyst' },
        { username: 'admin', description: 'administrator' },
      ];
  for (const login of logins) console.log(`  ${login.username.padEnd(10)} ${login.description}`);
  console.log('(demo accounts exist only where the demo data was loaded)');
  if (config.sms.outbox) console.log(`SMS sign-in codes (demo outbox): ${url}/dev/sms-outbox`);
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
