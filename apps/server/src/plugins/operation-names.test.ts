import Fastify from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE } from '@soc/contracts';
import { bearer, createTestContext } from '../test/harness.ts';
import type { TestContext } from '../test/harness.ts';
import { operationNamesPlugin } from './operation-names.ts';

describe('operation names', () => {
  it('names a route handler after its operationId in the stack of what it throws', async () => {
    const app = Fastify();
    await app.register(operationNamesPlugin);
    app.get('/things/', { schema: { operationId: 'listThings' } }, async () => {
      await Promise.resolve();
      throw new Error('the repository failed');
    });
    let stack = '';
    app.setErrorHandler((error: Error, _request, reply) => {
      stack = error.stack ?? '';
      return reply.status(500).send({});
    });
    expect((await app.inject({ url: '/things/' })).statusCode).toBe(500);
    expect(stack).toMatch(/\bat (async )?(Object\.)?listThings \(/);
    await app.close();
  });

  it('refuses an API route without an operationId when it is added', async () => {
    const app = Fastify();
    await app.register(operationNamesPlugin);
    expect(() => app.get(`${API_BASE}/nameless/`, async () => ({}))).toThrow(/needs schema.operationId/);
    // routes outside the API (the web app's files, the probes' own names) are left alone
    expect(() => app.get('/assets/*', async () => ({}))).not.toThrow();
    await app.close();
  });
});

describe('a failing request of the app', () => {
  let ctx: TestContext;
  const lines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    ctx = await createTestContext({
      incidents: 0,
      config: { logLevel: 'error' },
      logStream: { write: (line) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
    });
  });
  afterAll(() => ctx.close());

  it('logs the operation that failed', async () => {
    const { access } = await ctx.login('alice');
    // the tasks table gone: the list's query fails inside the repository
    await ctx.database.db.execute(sql`ALTER TABLE tasks RENAME TO tasks_gone`);
    try {
      const res = await ctx.app.inject({ url: `${API_BASE}/soc/tasks/`, headers: bearer(access) });
      expect(res.statusCode).toBe(500);
    } finally {
      await ctx.database.db.execute(sql`ALTER TABLE tasks_gone RENAME TO tasks`);
    }
    const line = lines.find((l) => l.msg === 'request failed');
    // a driver's error carries the driver's stack, so the log line names the operation itself
    expect(line).toMatchObject({ operation: 'listTasks' });
  });
});
