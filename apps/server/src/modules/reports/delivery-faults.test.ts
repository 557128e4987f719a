import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportFile } from '@soc/contracts';
import { MFA_MESSAGES } from '@soc/contracts';
import { queryRows } from '../../db/client.ts';
import { auditLog, loginThrottle } from '../../db/schema/index.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import type { BuiltUser } from '../../test/builders.ts';
import { BUILT_PASSWORD, buildCustomer, buildSystem } from '../../test/builders.ts';
import { testConfig } from '../../config.ts';
import { REPORT_MAIL_RETRY_MESSAGE } from './reports.service.ts';

/**
 * Delivery while a gateway is down. Mail is queued: a report whose SMTP server is unreachable
 * stays `pending` with a visible error, its job is retried with growing delays, and the mail goes
 * out once when the server is back. SMS codes are sent while the user signs in: an unreachable
 * gateway gives a clear 503, audited, and the next sign-in works once the gateway is back.
 */

/** Long enough that a slow machine never sees a retry come due by itself: the test moves the clock. */
const RETRY_BASE_MS = 60_000;
const RECIPIENT = 'smtp-down@reports.test.example';

/** A port with nothing listening on it (taken, then released). */
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });

let ctx: TestContext;
let smtpPort: number;
let smsPort: number;
let smtp: SMTPServer | undefined;
let sms: Server | undefined;
const delivered: { to: string[]; raw: string }[] = [];
const texts: string[] = [];
/** A customer whose system allows mail to RECIPIENT's domain, and one who signs in with an SMS code. */
let customer: BuiltUser;
let smsUser: BuiltUser;

beforeAll(async () => {
  smtpPort = await freePort();
  smsPort = await freePort();
  ctx = await createTestContext({
    incidents: 0,
    config: {
      mail: {
        smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
        from: 'soc@test.local',
        outboxDir: '',
        attachmentMaxBytes: 1024 * 1024,
      },
      jobs: { leaseSeconds: 600, retryBaseMs: RETRY_BASE_MS },
      sms: { ...testConfig().sms, outbox: false, gatewayUrl: `http://127.0.0.1:${smsPort}/send` },
    },
  });
  // only this test's jobs: no due schedules, no queued work of the demo
  await ctx.database.db.execute(sql`UPDATE report_schedules SET next_run_at = NULL`);
  await ctx.database.db.execute(sql`DELETE FROM jobs`);
  // a recipient outside the system's users: an administrator allowed its domain (issue 25 item 12)
  const system = await buildSystem(ctx, { mailDomains: ['reports.test.example'] });
  customer = await buildCustomer(ctx, [system.id]);
  smsUser = await buildCustomer(ctx, [system.id], { mfaPhone: '+79000000099' });
});

afterAll(async () => {
  await ctx?.close();
  if (smtp) await new Promise<void>((resolve) => smtp!.close(() => resolve()));
  if (sms) await new Promise<void>((resolve) => sms!.close(() => resolve()));
});

async function startSmtp(): Promise<void> {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        delivered.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString(),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp!.listen(smtpPort, '127.0.0.1', resolve));
}

describe('SMTP down', () => {
  it('keeps the report mail pending with a visible state, retries with backoff and sends it once when SMTP is back', async () => {
    const token = await customer.login();
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/soc/reports/create/',
      headers: bearer(token),
      payload: { name: 'Mail retried', emails: [RECIPIENT], start: '01.10.2026', finish: '31.10.2026' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ id: number }>().id;
    const job = async () =>
      (
        await queryRows<{ status: string; attempts: number; last_error: string | null; wait_ms: number }>(
          ctx.database.db,
          sql`SELECT status, attempts, last_error,
                     (extract(epoch FROM run_at - now()) * 1000)::int AS wait_ms
                FROM jobs WHERE type = 'reports.build' AND (payload->>'reportId')::int = ${id}`,
        )
      )[0]!;
    /** The job's clock moved on by `ms`: its retry comes due as if that much time had passed. */
    const wait = (ms: number) =>
      ctx.database.db.execute(
        sql`UPDATE jobs SET run_at = run_at - make_interval(secs => ${ms / 1000})
             WHERE type = 'reports.build' AND (payload->>'reportId')::int = ${id}`,
      );
    const shown = async () => {
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/api/v0/soc/reports/${id}/`,
        headers: bearer(token),
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<ReportFile>();
    };

    // first attempt: the PDF is built, the SMTP server refuses the connection
    await ctx.app.jobs.runDue();
    let state = await job();
    expect(state).toMatchObject({ status: 'queued', attempts: 1 });
    expect(state.last_error).toMatch(/ECONNREFUSED/);
    expect(state.wait_ms).toBeGreaterThan(0);
    expect(state.wait_ms).toBeLessThanOrEqual(RETRY_BASE_MS);
    // the report is there and says that its mail is waiting, without the SMTP detail
    expect(await shown()).toMatchObject({ mail: 'pending', mail_error: REPORT_MAIL_RETRY_MESSAGE });
    expect(JSON.stringify(await shown())).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);

    // not due yet: nothing runs before the backoff has passed
    await ctx.app.jobs.runDue();
    expect((await job()).attempts).toBe(1);

    // second attempt, still down: the delay doubles
    await wait(RETRY_BASE_MS + 50);
    await ctx.app.jobs.runDue();
    state = await job();
    expect(state).toMatchObject({ status: 'queued', attempts: 2 });
    expect(state.wait_ms).toBeGreaterThan(RETRY_BASE_MS);
    expect(state.wait_ms).toBeLessThanOrEqual(2 * RETRY_BASE_MS);
    expect(delivered).toHaveLength(0);

    // SMTP is back: the next attempt delivers it, once
    await startSmtp();
    await wait(2 * RETRY_BASE_MS + 50);
    await ctx.app.jobs.runDue();
    expect(await job()).toMatchObject({ status: 'done', attempts: 3, last_error: null });
    expect(await shown()).toMatchObject({ mail: 'sent', mail_error: null });
    await wait(4 * RETRY_BASE_MS);
    await ctx.app.jobs.runDue();
    const mails = delivered.filter((m) => m.to.includes(RECIPIENT));
    expect(mails).toHaveLength(1);
    const mail = await PostalMime.parse(mails[0]!.raw);
    expect(mail.subject).toMatch(/Mail retried/);
    expect(mail.attachments.map((a) => a.mimeType)).toEqual(['application/pdf']);
  });
});

describe('SMS gateway down', () => {
  const signIn = () =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/v0/auth/token/obtain/',
      payload: { username: smsUser.username, password: BUILT_PASSWORD },
      remoteAddress: '10.9.0.1',
    });

  it('answers the sign-in of an SMS user with a clear 503 (audited) and works once the gateway is back', async () => {
    await ctx.database.db.delete(loginThrottle);
    const down = await signIn();
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ mfa_token: [MFA_MESSAGES.sendFailed] });
    const audited = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'auth.mfa_send_failed'), eq(auditLog.objectId, String(smsUser.id))));
    expect(audited).toHaveLength(1);

    sms = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        texts.push(body);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => sms!.listen(smsPort, '127.0.0.1', resolve));
    const up = await signIn();
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json<{ mfa_token: string }>().mfa_token).toEqual(expect.any(String));
    expect(texts).toHaveLength(1);
    expect(texts[0]).toMatch(/\b\d{6}\b/);
  });
});
