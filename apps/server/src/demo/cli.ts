import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { openConfiguredDatabase } from '../db/open.ts';
import { createFileStorage } from '../integrations/storage/create-storage.ts';
import { techniqueTacticsOf } from '../modules/rules/index.ts';
import { topUpDemoAlerts } from './alerts.ts';
import { DEMO_PASSWORD, generateDemoData, isDatabaseEmpty, resetDatabase } from './generator.ts';

/**
 * `npm run demo -- --incidents N [--systems N] [--users N] [--seed S] [--reset] [--sigma DIR]`:
 * fills the configured database (DATABASE_URL, else the embedded one) with demo data; with
 * `--sigma`, the rule catalogue holds a few hundred Sigma rules of DIR instead of generated ones.
 * `--top-up-alerts N` instead adds alerts to the data set already there until it holds N.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      incidents: { type: 'string', default: '5000' },
      systems: { type: 'string', default: '5' },
      users: { type: 'string', default: '20' },
      seed: { type: 'string', default: '20261122' },
      days: { type: 'string', default: '180' },
      reset: { type: 'boolean', default: false },
      'top-up-alerts': { type: 'string' },
      sigma: { type: 'string' },
    },
  });
  const count = (name: string, value: string | undefined) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number`);
    return n;
  };
  const config = loadConfig();
  const database = await openConfiguredDatabase(config);
  try {
    await database.migrate();
    if (values['top-up-alerts'] !== undefined) {
      const total = count('top-up-alerts', values['top-up-alerts']);
      const started = performance.now();
      const { before, after } = await topUpDemoAlerts(database.db, total, (m) => console.log(m));
      console.log(
        `Done in ${((performance.now() - started) / 1000).toFixed(1)} s: ${before} alerts before, ${after} now.`,
      );
      return;
    }
    if (!(await isDatabaseEmpty(database.db))) {
      if (!values.reset) throw new Error('The database already holds data; add --reset to replace it.');
      await resetDatabase(database.db);
    }
    const started = performance.now();
    const summary = await generateDemoData(database.db, {
      incidents: count('incidents', values.incidents),
      systems: count('systems', values.systems),
      users: count('users', values.users),
      seed: count('seed', values.seed),
      days: count('days', values.days),
      storage: createFileStorage(config),
      log: (m) => console.log(m),
      ...(values.sigma
        ? { sigma: { folder: values.sigma, tacticsOf: await techniqueTacticsOf(config, database.db) } }
        : {}),
    });
    console.log(
      `Done in ${((performance.now() - started) / 1000).toFixed(1)} s: ${summary.systems} systems, ${summary.users} users, ` +
        `${summary.incidents} incidents, ${summary.comments} comments. Password of every account: ${DEMO_PASSWORD}`,
    );
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
