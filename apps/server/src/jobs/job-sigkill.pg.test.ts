import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { exited, startServerProcess, until } from '../test/server-process.ts';
import { eq, sql } from 'drizzle-orm';
import type { SMTPServerDataStream, SMTPServerSession } from 'smtp-server';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client.ts';
import { reports } from '../db/schema/index.ts';
import type { TestContext } from '../test/harness.ts';
import { bearer, createTestContext } from '../test/harness.ts';
import { buildCustomer, buildIncident, buildSystem } from '../test/builders.ts';

/**
 * The real server process (src/main.ts) is killed with SIGKILL while it runs a report job; a new
 * process takes the job up again once its lease has passed, and the report ends ready once, with
 * one e-mail and one job.
 */

const LEASE_SECONDS = 3;

let ctx: TestContext;
let smtp: SMTPServer;
let smtpPort: number;
let dataDir: string;
/** While true, the SMTP server takes a message's data and never answers (the job hangs in the send). */
let stall = true;
let stalledData: (() => void) | undefined;
const delivered: { to: string[]; raw: string }[] = [];
const children: ChildProcess[] = [];
const RECIPIENT = 'sigkill-report@customer1.example';

function startServer(): ChildProcess {
  const child = startServerProcess({
    DATABASE_URL: ctx.databaseUrl,
    DATA_DIR: dataDir,
    JWT_SECRET: 'sigkill-test-secret-sigkill-test-secret-0',
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    JOB_LEASE_SECONDS: String(LEASE_SECONDS),
  });
  children.push(child);
  return child;
}

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address);
        if (stall && to.includes(RECIPIENT)) {
          // never answered: the sending process is killed while it waits here
          stalledData = () => callback(new Error('connection lost'));
          return;
        }
        delivered.push({ to, raw: Buffer.concat(chunks).toString() });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
  ctx = await createTestContext({ incidents: 0 });
  dataDir = mkdtempSync(path.join(tmpdir(), 'soc-sigkill-'));
  // only this test's job runs: no due schedules, no queued work of the template
  await ctx.database.db.execute(sql`UPDATE report_schedules SET next_run_at = NULL`);
  await ctx.database.db.execute(sql`DELETE FROM jobs`);
}, 120_000);

afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited(child);
  }
  stalledData?.();
  await new Promise<void>((resolve) => smtp?.close(() => resolve()));
  await ctx?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('SIGKILL during report generation', () => {
  it('resumes the job after a restart and delivers the report exactly once', async () => {
    // a recipient outside the system's users: its domain is allowed for the system (issue 25 item 12)
    const system = await buildSystem(ctx, { mailDomains: ['customer1.example'] });
    await buildIncident(ctx, system.id, { created: new Date('2026-10-15T10:00:00Z') });
    const token = await (await buildCustomer(ctx, [system.id])).login();
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/soc/reports/create/',
      headers: bearer(token),
      payload: { name: 'Killed', emails: [RECIPIENT], start: '01.10.2026', finish: '31.10.2026' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const reportId = res.json<{ id: number }>().id;
    const jobOf = async () =>
      (
        await queryRows<{ id: string; status: string; attempts: number; locked_by: string | null }>(
          ctx.database.db,
          sql`SELECT id, status, attempts, locked_by FROM jobs
               WHERE type = 'reports.build' AND (payload->>'reportId')::int = ${reportId}`,
        )
      )[0];

    // the first process claims the job, builds the PDF and hangs in the SMTP send: killed there
    const first = startServer();
    await until('the report e-mail to be sent', async () => stalledData !== undefined);
    const running = await jobOf();
    expect(running).toMatchObject({ status: 'running', attempts: 1 });
    expect(running!.locked_by).toContain(`:${first.pid}`);
    first.kill('SIGKILL');
    await exited(first);
    expect(first.signalCode).toBe('SIGKILL');
    stall = false;
    stalledData!();
    expect(delivered.filter((m) => m.to.includes(RECIPIENT))).toHaveLength(0);

    // a new process takes the job up again once its lease has passed, and finishes it
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

    const [report] = await ctx.database.db.select().from(reports).where(eq(reports.id, reportId));
    expect(report).toMatchObject({ status: 'ready', error: null });
    expect(report!.mailedAt).not.toBeNull();
    expect(report!.size).toBeGreaterThan(0);
    expect(await ctx.database.db.select().from(reports).where(eq(reports.name, 'Killed'))).toHaveLength(1);
    const mails = delivered.filter((m) => m.to.includes(RECIPIENT));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.raw).toMatch(/Killed/);
    const jobsOfReport = await queryRows<{ n: string }>(
      ctx.database.db,
      sql`SELECT count(*) AS n FROM jobs WHERE type = 'reports.build' AND (payload->>'reportId')::int = ${reportId}`,
    );
    expect(Number(jobsOfReport[0]!.n)).toBe(1);
    second.kill('SIGTERM');
    await exited(second);
  }, 60_000);
});
