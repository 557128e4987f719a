import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { exited, startServerProcess, until } from '../../test/server-process.ts';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookEndpointWithSecret } from '@soc/contracts';
import { WEBHOOK_QUEUE_DEFAULTS } from '../../core/config.ts';
import { queryRows } from '../../db/client.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import { buildCustomer, buildIncident, buildSystem } from '../../test/builders.ts';

/**
 * The real server process (src/main.ts) is killed with SIGKILL while a webhook delivery waits
 * for the receiver's answer; a new process takes the delivery job up again once its lease has
 * passed, and the receiver gets the same message (same webhook-id) again: nothing is lost.
 */

const LEASE_SECONDS = 3;
/** The server key: the test's app seals the endpoint's secret with it, the server processes open it. */
const JWT_SECRET = 'sigkill-test-secret-sigkill-test-secret-0';

let ctx: TestContext;
let dataDir: string;
let receiverUrl: string;
let closeReceiver: () => Promise<void>;
/** While true, the receiver takes a request and never answers (the sender hangs in it). */
let stall = true;
const stalled: ServerResponse[] = [];
const received: { headers: Record<string, string>; body: string }[] = [];
const children: ChildProcess[] = [];

function startServer(): ChildProcess {
  const child = startServerProcess({
    DATABASE_URL: ctx.databaseUrl,
    DATA_DIR: dataDir,
    JWT_SECRET,
    JOB_LEASE_SECONDS: String(LEASE_SECONDS),
    WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.1/32',
  });
  children.push(child);
  return child;
}

beforeAll(async () => {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString(),
      });
      // never answered: the sending process is killed while it waits here
      if (stall) return void stalled.push(res);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  closeReceiver = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  ctx = await createTestContext({
    incidents: 0,
    config: {
      webhooks: { allowPrivateCidrs: ['127.0.0.1/32'], retryBaseMs: 0, ...WEBHOOK_QUEUE_DEFAULTS },
      jwtSecret: new TextEncoder().encode(JWT_SECRET),
    },
  });
  dataDir = mkdtempSync(path.join(tmpdir(), 'soc-webhook-sigkill-'));
  // only this test's jobs run: no due schedules, no queued work of the template
  await ctx.database.db.execute(sql`UPDATE report_schedules SET next_run_at = NULL`);
  await ctx.database.db.execute(sql`DELETE FROM jobs`);
}, 120_000);

afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited(child);
  }
  for (const res of stalled) res.destroy();
  await closeReceiver?.();
  await ctx?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('SIGKILL during a webhook delivery', () => {
  it('takes the delivery up again after a restart and delivers the same message', async () => {
    const system = await buildSystem(ctx);
    const token = await (await buildCustomer(ctx, [system.id])).login();
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/soc/webhooks/',
      headers: bearer(token),
      payload: { system: system.id, url: receiverUrl, events: ['incident.created'] },
    });
    expect(res.statusCode, res.body).toBe(201);
    const endpoint = res.json<WebhookEndpointWithSecret>();
    const incident = await buildIncident(ctx, system.id);
    const jobOf = async () =>
      (
        await queryRows<{ status: string; attempts: number; locked_by: string | null }>(
          ctx.database.db,
          sql`SELECT status, attempts, locked_by FROM jobs WHERE type = 'webhooks.deliver'`,
        )
      )[0];

    // the first process fans the event out, signs the delivery and hangs waiting for the answer
    const first = startServer();
    await until('the delivery to reach the receiver', async () => stalled.length > 0);
    const running = await jobOf();
    expect(running).toMatchObject({ status: 'running', attempts: 1 });
    expect(running!.locked_by).toContain(`:${first.pid}`);
    first.kill('SIGKILL');
    await exited(first);
    expect(first.signalCode).toBe('SIGKILL');
    stall = false;

    // a new process takes the job up again once its lease has passed, and delivers
    const killedAt = Date.now();
    const second = startServer();
    const done = await until('the job to finish', async () => {
      const job = await jobOf();
      return job?.status === 'done' ? job : undefined;
    });
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual((LEASE_SECONDS - 1) * 1000);
    expect(done.attempts).toBe(2);
    expect(done.locked_by).toContain(`:${second.pid}`);
    // time for a duplicate to show up, if there were one
    await sleep(1_500);

    expect(received).toHaveLength(2);
    expect(received[1]!.headers['webhook-id']).toBe(received[0]!.headers['webhook-id']);
    for (const r of received) {
      const message = new Webhook(endpoint.secret).verify(r.body, r.headers) as {
        type: string;
        data: { incident: { key: number } };
      };
      expect(message).toMatchObject({ type: 'incident.created', data: { incident: { key: incident.key } } });
    }
    const deliveries = await queryRows<{ status: string; attempts: number; status_code: number }>(
      ctx.database.db,
      sql`SELECT status, attempts, status_code FROM webhook_deliveries WHERE endpoint_id = ${endpoint.id}`,
    );
    expect(deliveries).toEqual([{ status: 'succeeded', attempts: 1, status_code: 204 }]);
    second.kill('SIGTERM');
    await exited(second);
  }, 60_000);
});
