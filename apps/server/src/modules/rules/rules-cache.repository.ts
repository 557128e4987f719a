import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { readVersion } from '../../lib/cache/versioned-cache.ts';

/** The version of the rules' cached answers (design §8): the counter of `cache_epoch`. */
const EPOCH = sql`SELECT coalesce((SELECT n FROM cache_epoch), 0)::text AS version`;

export const readRulesVersion = (db: Db) => readVersion(db, EPOCH);
