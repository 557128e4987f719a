import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GossopkaStatus, IncidentCard } from '@soc/contracts';
import { GOSSOPKA_PROCESSING_MS } from '@soc/contracts';
import { jobs } from '../../db/schema/index.ts';
import {
  NationalCentreError,
  createNationalCentreClient,
} from '../../integrations/national-centre/national-centre.client.ts';
import type { NationalCentreSimulator } from '../../integrations/national-centre/national-centre.simulator.ts';
import { startNationalCentreSimulator } from '../../integrations/national-centre/national-centre.simulator.ts';
import { testConfig } from '../../config.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import {
  buildAnalyst,
  buildCustomer,
  buildIncident,
  buildSystem,
  issueTypeReference,
} from '../../test/builders.ts';
import { gossopkaStatus } from './incident-card.presenter.ts';

let sim: NationalCentreSimulator;
let ctx: TestContext;
/** The customer's access; `keys` are incidents of their system, `othersKey` of another tenant's. */
let token: string;
let analyst: string;
const keys: number[] = [];
let otherTypeKey: number;
let othersKey: number;

const send = (key: number, access = token) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/v0/soc/incs/${key}/manually_send_to_gossopka/`,
    headers: bearer(access),
  });
const card = async (key: number) =>
  (await ctx.app.inject({ url: `/api/v0/soc/incs/${key}/`, headers: bearer(token) })).json<IncidentCard>();
/** Makes retried jobs due now instead of after their back-off. */
const runJobsNow = async () => {
  await ctx.database.db.execute(sql`UPDATE jobs SET run_at = now() WHERE status = 'queued'`);
  return ctx.app.jobs.runDue();
};

beforeAll(async () => {
  sim = await startNationalCentreSimulator({ username: 'portal', password: 's3cret' });
  ctx = await createTestContext({
    incidents: 0,
    config: {
      nationalCentre: {
        ...testConfig().nationalCentre,
        url: sim.url,
        username: 'portal',
        password: 's3cret',
        timeoutMs: 300,
      },
    },
  });
  // planned demo reports would otherwise reach the simulator too
  await ctx.database.db.delete(jobs);
  const [own, other] = [await buildSystem(ctx), await buildSystem(ctx)];
  token = await (await buildCustomer(ctx, [own.id])).login();
  analyst = await (await buildAnalyst(ctx)).login();
  const { categories } = await issueTypeReference(ctx, 'incident');
  const fields = {
    status: 'work_in_progress' as const,
    categoryId: categories[0]!.id,
    affectedSystems: ['dc01.corp.local'],
    activityDetectedAt: new Date(Date.now() - 3_600_000),
  };
  for (let i = 0; i < 5; i++) keys.push((await buildIncident(ctx, own.id, fields)).key);
  otherTypeKey = (await buildIncident(ctx, own.id, { type: 'remediation', status: 'work_in_progress' })).key;
  othersKey = (await buildIncident(ctx, other.id, fields)).key;
});
afterAll(async () => {
  await ctx.close();
  await sim.close();
});

describe('sending to the national centre', () => {
  it('sends, records gossopka_id and send time, and does not send twice', async () => {
    const key = keys[0]!;
    expect((await card(key)).gossopka_state).toBe('not_sent');
    const res = await send(key);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json<GossopkaStatus>().gossopka_state).toBe('processing');
    expect((await card(key)).show_gossopka_button).toBe(false);
    // a second click while processing starts nothing
    expect((await send(key)).statusCode).toBe(200);
    await ctx.app.jobs.runDue();
    const sent = await card(key);
    expect(sent.gossopka_state).toBe('sent');
    const registered = [...sim.registered.values()].find((r) => r.body.key === key)!;
    expect(sent.gossopka_id).toBe(registered.id);
    expect(sent.gossopka_send_time).not.toBeNull();
    expect(registered.body.summary).toBe(sent.summary);
    const before = sim.requests;
    const again = await send(key);
    expect(again.statusCode).toBe(200);
    expect(again.json<GossopkaStatus>().gossopka_id).toBe(registered.id);
    await runJobsNow();
    expect(sim.requests).toBe(before);
  });

  it('retries after a 5xx answer', async () => {
    const key = keys[1]!;
    sim.failNext(1, 503);
    await send(key);
    await ctx.app.jobs.runDue();
    const [job] = await ctx.database.db
      .select()
      .from(jobs)
      .where(eq(jobs.type, 'incident.gossopka_send'))
      .orderBy(sql`id DESC`)
      .limit(1);
    expect(job!.status).toBe('queued');
    expect(job!.lastError).toContain('503');
    expect((await card(key)).gossopka_state).toBe('processing');
    await runJobsNow();
    expect((await card(key)).gossopka_state).toBe('sent');
  });

  it('is idempotent when an answer is lost to a time-out: one registration, one id', async () => {
    const key = keys[2]!;
    sim.delayNext(1, 1_000);
    await send(key);
    await ctx.app.jobs.runDue();
    expect((await card(key)).gossopka_state).toBe('processing');
    await runJobsNow();
    const shown = await card(key);
    expect(shown.gossopka_state).toBe('sent');
    const entries = [...sim.registered.values()].filter((r) => r.body.key === key);
    expect(entries).toHaveLength(1);
    expect(shown.gossopka_id).toBe(entries[0]!.id);
  });

  it('reports the failure after the last attempt and lets the user send again', async () => {
    const key = keys[3]!;
    sim.failNext(4, 500);
    await send(key);
    for (let i = 0; i < 4; i++) await runJobsNow();
    const failed = await card(key);
    expect(failed.gossopka_state).toBe('error');
    expect(failed.gossopka_error).toContain('500');
    expect(failed.show_gossopka_button).toBe(true);
    expect(failed.gossopka_id).toBeNull();
    const retry = await send(key);
    expect(retry.statusCode).toBe(202);
    await ctx.app.jobs.runDue();
    expect((await card(key)).gossopka_state).toBe('sent');
  });

  it('lets analysts plan the automatic send; a moved plan runs only at its new time', async () => {
    const key = keys[4]!;
    const patch = (access: string, payload: object) =>
      ctx.app.inject({ method: 'PATCH', url: `/api/v0/soc/incs/${key}/`, headers: bearer(access), payload });
    const inOneHour = Date.now() + 3_600_000;
    const byCustomer = await patch(token, { gossopka_planned_time: inOneHour });
    expect(byCustomer.statusCode).toBe(400);
    expect(byCustomer.json<Record<string, string[]>>().gossopka_planned_time).toHaveLength(1);
    expect((await patch(analyst, { gossopka_planned_time: Date.now() - 1000 })).statusCode).toBe(400);
    expect((await patch(analyst, {})).json()).toEqual({
      non_field_errors: ['Give priority or gossopka_planned_time.'],
    });

    await ctx.database.db.delete(jobs);
    expect((await patch(analyst, { gossopka_planned_time: inOneHour })).statusCode).toBe(200);
    const planned = await card(key);
    expect(planned.gossopka_state).toBe('planned');
    expect(planned.gossopka_planned_time).toBe(inOneHour);
    expect(planned.show_gossopka_button).toBe(true);
    expect(await ctx.app.jobs.runDue()).toBe(0); // not yet due
    const later = inOneHour + 3_600_000;
    await patch(analyst, { gossopka_planned_time: later });
    const queued = await ctx.database.db.select().from(jobs).orderBy(jobs.id);
    expect(queued.map((j) => j.runAt.getTime())).toEqual([inOneHour, later]);
    // the first plan comes due: it was moved, so nothing is sent
    await ctx.database.db.execute(sql`UPDATE jobs SET run_at = now() WHERE id = ${queued[0]!.id}`);
    await ctx.app.jobs.runDue();
    expect((await card(key)).gossopka_state).toBe('planned');
    expect([...sim.registered.values()].some((r) => r.body.key === key)).toBe(false);
    // the moved plan comes due: sent
    await runJobsNow();
    const sent = await card(key);
    expect(sent.gossopka_state).toBe('sent');
    expect(sent.gossopka_planned_time).toBeNull();
    expect((await patch(analyst, { gossopka_planned_time: later })).statusCode).toBe(400);
  });

  it('refuses other issue types with 400 and other tenants with 404', async () => {
    const res = await send(otherTypeKey);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ non_field_errors: string[] }>().non_field_errors).toHaveLength(1);
    expect((await send(othersKey)).statusCode).toBe(404);
  });
});

describe('national centre connector', () => {
  it('does not retry refused credentials; time-outs and 5xx are retryable', async () => {
    const wrong = createNationalCentreClient({
      url: sim.url,
      username: 'portal',
      password: 'nope',
      timeoutMs: 300,
    });
    const report = {
      external_id: 'x',
      key: 1,
      summary: 's',
      description: '',
      category: '',
      priority: 'low',
      system: { is_id: 'IS-1', name: 'n' },
      created: new Date().toISOString(),
      detected: null,
      affected_hosts: [],
      iocs: [],
      techniques: [],
    };
    const refused = await wrong.send(report, 'k1').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(NationalCentreError);
    expect((refused as NationalCentreError).retryable).toBe(false);
    const right = createNationalCentreClient({
      url: sim.url,
      username: 'portal',
      password: 's3cret',
      timeoutMs: 300,
    });
    sim.delayNext(1, 1_000);
    const slow = await right.send(report, 'k2').catch((e: unknown) => e);
    expect((slow as NationalCentreError).retryable).toBe(true);
    expect((slow as Error).message).toMatch(/did not answer/);
    sim.failNext(1, 502);
    expect(((await right.send(report, 'k3').catch((e: unknown) => e)) as NationalCentreError).retryable).toBe(
      true,
    );
    const down = createNationalCentreClient({ url: 'http://127.0.0.1:1', timeoutMs: 300 });
    expect(((await down.send(report, 'k4').catch((e: unknown) => e)) as NationalCentreError).retryable).toBe(
      true,
    );
  });

  it('shows a send still processing after 5 minutes as an error', () => {
    const since = new Date('2026-11-20T10:00:00Z');
    const row = {
      gossopkaId: null,
      gossopkaSendTime: null,
      gossopkaPlannedTime: null,
      gossopkaProcessingSince: since,
      gossopkaError: null,
      status: 'work_in_progress' as const,
    };
    expect(gossopkaStatus(row, true, new Date(since.getTime() + 60_000)).gossopka_state).toBe('processing');
    const late = gossopkaStatus(row, true, new Date(since.getTime() + GOSSOPKA_PROCESSING_MS + 1));
    expect(late.gossopka_state).toBe('error');
    expect(late.show_gossopka_button).toBe(true);
    const planned = gossopkaStatus(
      { ...row, gossopkaProcessingSince: null, gossopkaPlannedTime: since },
      true,
    );
    expect(planned.gossopka_state).toBe('planned');
  });
});

describe('embedded default', () => {
  it('sends to the local simulator the app starts when GOSSOPKA_URL is unset', async () => {
    const local = await createTestContext({ incidents: 0 });
    try {
      const access = await (await buildAnalyst(local)).login();
      const row = await buildIncident(local, (await buildSystem(local)).id, { status: 'work_in_progress' });
      const res = await local.app.inject({
        method: 'POST',
        url: `/api/v0/soc/incs/${row.key}/manually_send_to_gossopka/`,
        headers: bearer(access),
      });
      expect(res.statusCode, res.body).toBe(202);
      await local.app.jobs.runDue();
      const shown = await local.app.inject({ url: `/api/v0/soc/incs/${row.key}/`, headers: bearer(access) });
      expect(shown.json<IncidentCard>().gossopka_id).toMatch(/^GSP-\d{4}-\d{6}$/);
    } finally {
      await local.close();
    }
    // the test builds its own app on the empty template (shared with other files)
  }, 120_000);
});
