import path from 'node:path';
import type { Config } from '../core/config.ts';
import type { Database } from './client.ts';
import { openDatabase } from './client.ts';

/** PostgreSQL when DATABASE_URL is set, else the embedded database under the data folder. */
export const openConfiguredDatabase = (config: Config): Promise<Database> =>
  config.databaseUrl
    ? openDatabase({
        kind: 'postgres',
        url: config.databaseUrl,
        poolSize: config.databasePoolSize,
        workMem: config.databaseWorkMem,
      })
    : openDatabase({
        kind: 'pglite',
        dataDir: path.join(config.dataDir, 'pgdata'),
        workMem: config.databaseWorkMem,
      });
