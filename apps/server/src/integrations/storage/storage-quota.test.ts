import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { count, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { queryRows } from '../../db/client.ts';
import { attachments, taskAttachments } from '../../db/schema/index.ts';
import { multipart } from '../../test/multipart.ts';
import { buildCustomer, buildIncident, buildSystem } from '../../test/builders.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import { STORAGE_QUOTA_EXCEEDED_CODE, createStorageQuotaRepository } from './storage-quota.ts';

/*
 * Issue 25 item 11: each system keeps at most STORAGE_QUOTA_BYTES_PER_SYSTEM bytes of uploaded
 * files; an upload past it is a 507 and nothing is stored (no row, no object). The usage is the
 * sum of the sizes in the database, served by an index.
 */
let ctx: TestContext;
let app: FastifyInstance;
const tokens: Record<string, string> = {};
const systemOf: Record<string, number> = {};
const keyOf: Record<string, number> = {};
let quota: number;

const file = (size: number, name = 'evidence.txt') => ({
  field: 'attachments',
  name,
  type: 'text/plain',
  body: Buffer.alloc(size, 'a'),
});

const post = (user: string, url: string, body: ReturnType<typeof multipart>) =>
  app.inject({
    method: 'POST',
    url: `/api/v0/soc/${url}`,
    headers: { ...bearer(tokens[user]!), ...body.headers },
    payload: body.payload,
  });
const addFile = (user: string, size: number) =>
  post(user, `incs/${keyOf[user]}/add_file/`, multipart({}, [file(size)]));

async function stored(): Promise<{ rows: number; objects: number; tmp: number }> {
  const list = async (dir: string) =>
    existsSync(dir)
      ? (await readdir(dir, { recursive: true, withFileTypes: true })).filter((d) => d.isFile()).length
      : 0;
  const [a] = await ctx.database.db.select({ n: count() }).from(attachments);
  const [t] = await ctx.database.db.select({ n: count() }).from(taskAttachments);
  return {
    rows: a!.n + t!.n,
    objects: await list(path.join(ctx.config.filesDir, 'objects')),
    tmp: await list(path.join(ctx.config.filesDir, 'tmp')),
  };
}

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  const db = ctx.database.db;
  // two customers, each with a system of their own and an incident in it
  for (const name of ['first', 'second']) {
    const system = await buildSystem(ctx);
    const customer = await buildCustomer(ctx, [system.id]);
    tokens[name] = await customer.login();
    systemOf[name] = system.id;
    keyOf[name] = (await buildIncident(ctx, system.id)).key;
  }
  const used = Math.max(
    await createStorageQuotaRepository(db).storageUsage(systemOf.first!),
    await createStorageQuotaRepository(db).storageUsage(systemOf.second!),
  );
  quota = used + 4000;
  app = await buildApp({
    config: { ...ctx.config, storageQuotaBytesPerSystem: quota },
    database: ctx.database,
  });
  await app.ready();
}, 120_000);
afterAll(async () => {
  await app?.close();
  await ctx?.close();
});

describe('the per-system storage quota', () => {
  it('refuses with 507 an upload that would pass the quota, and stores nothing', async () => {
    const free = quota - (await createStorageQuotaRepository(ctx.database.db).storageUsage(systemOf.first!));
    expect((await addFile('first', free - 1000)).statusCode).toBe(200);
    expect(await createStorageQuotaRepository(ctx.database.db).storageUsage(systemOf.first!)).toBe(
      quota - 1000,
    );

    const before = await stored();
    const refused = await addFile('first', 1001);
    expect(refused.statusCode).toBe(507);
    const body = refused.json<{ detail: string; code: string; quota_bytes: number; used_bytes: number }>();
    expect(body.code).toBe(STORAGE_QUOTA_EXCEEDED_CODE);
    // no Accept-Language: the portal's default language, Russian
    expect(body.detail).toMatch(/^Квота хранилища системы исчерпана/);
    expect(body).toMatchObject({ quota_bytes: quota, used_bytes: quota - 1000 });
    // a comment with a file and a task with a file count against the same quota
    const comment = await post(
      'first',
      `incs/${keyOf.first}/comments/`,
      multipart({ body: 'see the file' }, [file(1001)]),
    );
    expect(comment.statusCode).toBe(507);
    const task = await post(
      'first',
      'tasks/',
      multipart(
        {
          system: String(systemOf.first),
          type: 'question',
          subject: 'Quota',
          description: 'x',
          priority: 'low',
        },
        [file(1001)],
      ),
    );
    expect(task.statusCode).toBe(507);
    expect(await stored()).toEqual(before);

    // what still fits is taken; another tenant is not affected
    expect((await addFile('first', 1000)).statusCode).toBe(200);
    expect((await addFile('second', 3000)).statusCode).toBe(200);
  });

  it('takes a comment with a file and add_file on one incident at once, in one lock order', async () => {
    // on PostgreSQL, add_file taking the quota lock before the incident row (which the comment
    // takes first) deadlocked one of the two; PGlite runs them one after the other
    for (let round = 0; round < 8; round++) {
      const answers = await Promise.all([
        addFile('second', 20),
        post('second', `incs/${keyOf.second}/comments/`, multipart({ body: `round ${round}` }, [file(20)])),
      ]);
      expect(answers.map((a) => a.statusCode)).toEqual([200, 201]);
    }
  });

  it('keeps the system of every file row, which an index serves for the sum', async () => {
    const db = ctx.database.db;
    const [orphans] = await db
      .select({ n: count() })
      .from(attachments)
      .where(
        sql`${attachments.systemId} IS DISTINCT FROM (SELECT system_id FROM incidents WHERE id = ${attachments.incidentId})`,
      );
    expect(orphans!.n).toBe(0);
    const plan = await db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      return queryRows<{ 'QUERY PLAN': string }>(
        tx,
        sql`EXPLAIN SELECT coalesce(sum(size), 0) FROM attachments WHERE system_id = ${systemOf.first}`,
      );
    });
    expect(plan.map((r) => r['QUERY PLAN']).join('\n')).toMatch(
      /(Index|Index Only|Bitmap Index) Scan (using|on) attachments_system_size_idx/,
    );
  });
});
