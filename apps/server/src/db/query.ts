// The query interface every layer above names, apart from the client that opens it (client.ts),
// so that what client.ts runs at migration (derived/apply.ts) needs nothing of it.
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema/index.ts';

/** The query interface shared by the embedded and the server database. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** The query interface inside `db.transaction`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Runs raw SQL and returns its rows. Both drivers answer `{ rows }`; the shared `Db` type cannot
 * say so, hence the one cast here.
 */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return (result as { rows: T[] }).rows;
}
