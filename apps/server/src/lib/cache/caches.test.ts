import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { openDatabase, queryRows } from '../../db/client.ts';
import type { EventListener, LiveListener, StoredEvent } from '../../modules/events/index.ts';
import type { Caches } from '../../test/caches.ts';
import { createCaches } from '../../test/caches.ts';

/** A bus whose events and liveness the test decides. */
function fakeBus() {
  const listeners: EventListener[] = [];
  const live: LiveListener[] = [];
  return {
    subscribe(listener: EventListener) {
      listeners.push(listener);
      return () => undefined;
    },
    onLive(listener: LiveListener) {
      live.push(listener);
      listener(false);
      return () => undefined;
    },
    emit(type: string) {
      const event: StoredEvent = {
        id: 1,
        type,
        systemIds: [],
        incidentKey: null,
        objectId: '',
        data: {},
        created: 0,
      };
      for (const l of listeners) l(event);
    },
    setLive(value: boolean) {
      for (const l of live) l(value);
    },
  };
}

let database: Database;
let bus: ReturnType<typeof fakeBus>;
let caches: Caches;

/** Puts one total and one chat page into the caches. */
async function fill() {
  await caches.incidentCounts.get('k', async (version) => {
    const [row] = await queryRows<{ n: number; version: string }>(
      database.db,
      sql`SELECT 5 AS n, (${version})::text AS version`,
    );
    return row!;
  });
  await caches.incidents.comments(1, null, 1, {}, async () => ({ total: 0, results: [] }));
}

beforeAll(async () => {
  database = await openDatabase({ kind: 'pglite' });
  await database.migrate();
  bus = fakeBus();
  caches = createCaches(database.db, bus);
});
afterAll(() => database.close());

describe('createCaches', () => {
  it('keeps nothing until the bus listens, and forgets everything when it stops', async () => {
    await fill();
    expect([caches.incidentCounts.size, caches.incidents.size]).toEqual([0, 0]);
    bus.setLive(true);
    await fill();
    expect([caches.incidentCounts.size, caches.incidents.size]).toEqual([1, 1]);
    bus.setLive(false);
    expect([caches.incidentCounts.size, caches.incidents.size]).toEqual([0, 0]);
  });

  it('empties each cache on the events its version reads', async () => {
    bus.setLive(true);
    await fill();
    // a comment changes no incident row: the totals stay, the cards and pages go
    bus.emit('comment.created');
    expect([caches.incidentCounts.size, caches.incidents.size]).toEqual([1, 0]);
    await fill();
    bus.emit('incident.updated');
    expect([caches.incidentCounts.size, caches.incidents.size]).toEqual([0, 0]);
  });
});
