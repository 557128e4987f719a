import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncidentAction, IncidentCard, IncidentStatus } from '@soc/contracts';
import { INCIDENT_ACTIONS, INCIDENT_STATUSES, IncidentCardSchema } from '@soc/contracts';
import { attachments, auditLog, comments, incidentLinks, incidents } from '../../db/schema/index.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import type { BuiltIncident, BuiltUser } from '../../test/builders.ts';
import {
  buildAnalyst,
  buildCustomer,
  buildIncident,
  buildSystem,
  issueTypeReference,
} from '../../test/builders.ts';

let ctx: TestContext;
const tokens: Record<string, string> = {};
/**
 * `customer` and `colleague` see the system of the incident `myKey` (type "incident") and of
 * `sibling`; `stranger` sees another system, that of `othersKey` and `theirs`.
 */
let myKey: number;
let myIncidentId: string;
let othersKey: number;
let sibling: BuiltIncident;
let theirs: BuiltIncident;
const people: Record<string, BuiltUser> = {};
let inactiveId: number;
let closeResolution: { id: number; kind: 'TP' | 'FP' };

const url = (key: number, tail = '') => `/api/v0/soc/incs/${key}/${tail}`;
const call = (user: string, method: 'GET' | 'POST' | 'PATCH', path: string, payload?: object) =>
  ctx.app.inject({
    method,
    url: path,
    headers: { ...bearer(tokens[user]!), 'accept-language': 'en' },
    ...(payload ? { payload } : {}),
  });

async function setStatus(id: string, status: IncidentStatus) {
  await ctx.database.db
    .update(incidents)
    .set({ status, customerStarRating: null, resolution: null, resolutionId: null })
    .where(eq(incidents.id, id));
}

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  const [own, other] = [await buildSystem(ctx), await buildSystem(ctx)];
  people.customer = await buildCustomer(ctx, [own.id]);
  people.colleague = await buildCustomer(ctx, [own.id]);
  people.stranger = await buildCustomer(ctx, [other.id]);
  inactiveId = (await buildCustomer(ctx, [own.id], { isActive: false })).id;
  for (const [name, person] of Object.entries(people)) tokens[name] = await person.login();
  tokens.analyst = await (await buildAnalyst(ctx)).login();
  const mine = await buildIncident(ctx, own.id, { status: 'work_in_progress' });
  myKey = mine.key;
  myIncidentId = mine.id;
  sibling = await buildIncident(ctx, own.id);
  theirs = await buildIncident(ctx, other.id);
  othersKey = theirs.key;
  closeResolution = (await issueTypeReference(ctx, 'incident')).resolutions.find((r) => r.kind === 'FP')!;
});
afterAll(() => ctx.close());

describe('GET /soc/incs/{key}/ — the card', () => {
  it('answers every field of the card, parsed by the shared schema', async () => {
    await ctx.database.db
      .update(incidents)
      .set({
        description: '# Title\n\nText with <script>alert(1)</script> and <a href="javascript:alert(1)">x</a>',
        observedIocs: [{ ioc: '203.0.113.7', ioc_type: 'ipv4', category: ['C2'] }],
      })
      .where(eq(incidents.id, myIncidentId));
    const res = await call('customer', 'GET', url(myKey));
    expect(res.statusCode, res.body).toBe(200);
    const card = IncidentCardSchema.parse(res.json());
    expect(card.key).toBe(myKey);
    expect(card.rendered_description).toContain('<h1>Title</h1>');
    expect(card.rendered_description).not.toMatch(/script|javascript:/i);
    expect(card.observed_iocs).toEqual([{ ioc: '203.0.113.7', ioc_type: 'ipv4', category: ['C2'] }]);
    expect(card.allowed_priorities).toEqual(['low', 'medium', 'high']);
    expect(card.gossopka_state).toMatch(/not_sent|sent|planned/);
  });

  it('reads the record, its own files (not those of comments) and its dates in one statement', async () => {
    const db = ctx.database.db;
    const detected = new Date('2026-03-04T05:06:07.891Z');
    const assigned = new Date('2026-03-05T00:00:00.001Z');
    await db
      .update(incidents)
      .set({
        activityDetectedAt: detected,
        customerAssigneeLastTime: assigned,
        affectedSystems: ['web-01', 'db-02'],
        mitreCov: { execution: ['T1059'] },
        detectionRules: ['Rule A'],
        statusDescription: 'Под контролем',
      })
      .where(eq(incidents.id, myIncidentId));
    const [comment] = await db
      .insert(comments)
      .values({ incidentId: myIncidentId, authorName: 'analyst', body: 'see file' })
      .returning({ id: comments.id });
    const file = (filename: string, created: string, commentId: number | null = null) => ({
      incidentId: myIncidentId,
      commentId,
      filename,
      contentType: 'text/plain',
      size: filename.length,
      storageKey: `test/${filename}`,
      sha256: '0'.repeat(64),
      created: new Date(created),
    });
    await db
      .insert(attachments)
      .values([
        file('второй.txt', '2026-03-02T00:00:00Z'),
        file('first.txt', '2026-03-01T00:00:00Z'),
        file('of-a-comment.txt', '2026-03-01T12:00:00Z', comment!.id),
      ]);
    try {
      const res = await call('customer', 'GET', url(myKey));
      expect(res.statusCode, res.body).toBe(200);
      const card = IncidentCardSchema.parse(res.json());
      expect(card.attachments.map((a) => [a.filename, a.size, a.content_type, a.created])).toEqual([
        ['first.txt', 9, 'text/plain', Date.parse('2026-03-01T00:00:00Z')],
        ['второй.txt', 10, 'text/plain', Date.parse('2026-03-02T00:00:00Z')],
      ]);
      expect(card.attachments[0]!.link).toBe(url(myKey, `attachments/${card.attachments[0]!.id}/download/`));
      expect(card.parsed_activity_detected).toBe(detected.getTime());
      expect(card.customer_assignee_last_time).toBe(assigned.getTime());
      expect(card.affected_systems).toEqual(['web-01', 'db-02']);
      expect(card.mitre_cov).toEqual({ execution: ['T1059'] });
      expect(card.detection_rules).toEqual(['Rule A']);
      expect(card.status_description).toBe('Под контролем');
      // another tenant's card stays a 404
      expect((await call('stranger', 'GET', url(myKey))).statusCode).toBe(404);
    } finally {
      await db.delete(attachments).where(eq(attachments.incidentId, myIncidentId));
      await db.delete(comments).where(eq(comments.id, comment!.id));
    }
  });

  it('lists related incidents the caller may see, in both directions', async () => {
    const db = ctx.database.db;
    const [sameSystem, otherSystem] = [sibling, theirs];
    await db.insert(incidentLinks).values([
      { incidentId: sameSystem.id, relatedId: myIncidentId },
      { incidentId: myIncidentId, relatedId: otherSystem.id },
    ]);
    const own = (await call('customer', 'GET', url(myKey))).json<IncidentCard>();
    expect(own.related_incidents.map((r) => r.key)).toEqual([sameSystem.key]);
    const analyst = (await call('analyst', 'GET', url(myKey))).json<IncidentCard>();
    expect(analyst.related_incidents.map((r) => r.key).sort()).toEqual(
      [sameSystem.key, otherSystem.key].sort(),
    );
    expect(analyst.allowed_priorities).toContain('critical');
  });

  it('answers 404 for another tenant’s incident and for unknown keys', async () => {
    expect((await call('customer', 'GET', url(othersKey))).statusCode).toBe(404);
    expect((await call('customer', 'GET', url(999_999))).statusCode).toBe(404);
    expect((await call('customer', 'GET', url(othersKey, 'available_actions/'))).statusCode).toBe(404);
    expect((await call('customer', 'POST', url(othersKey, 'confirm/'), { comment: 'x' })).statusCode).toBe(
      404,
    );
  });
});

describe('status machine (design §5): every action from every status', () => {
  const expected: Record<
    'customer' | 'analyst',
    Record<IncidentAction, [IncidentStatus[], IncidentStatus]>
  > = {
    customer: {
      confirm: [['waiting_for_customer'], 'work_in_progress'],
      close: [['waiting_for_customer', 'waiting_for_support', 'work_in_progress'], 'closed'],
      reopen: [['closed', 'completed', 'customer_completed', 'canceled'], 'waiting_for_support'],
      complete: [[], 'completed'],
      cancel: [[], 'canceled'],
    },
    analyst: {
      confirm: [[], 'work_in_progress'],
      close: [[], 'closed'],
      reopen: [['closed', 'completed', 'customer_completed', 'canceled'], 'waiting_for_support'],
      complete: [
        ['waiting_for_customer', 'waiting_for_support', 'work_in_progress', 'customer_completed'],
        'completed',
      ],
      cancel: [['waiting_for_customer', 'waiting_for_support', 'work_in_progress'], 'canceled'],
    },
  };

  for (const [user, role] of [
    ['customer', 'customer'],
    ['analyst', 'analyst'],
  ] as const) {
    for (const status of INCIDENT_STATUSES) {
      it(`${role} in ${status}: available_actions and each action`, async () => {
        await setStatus(myIncidentId, status);
        const allowed = INCIDENT_ACTIONS.filter((a) => expected[role][a][0].includes(status));
        const listed = await call(user, 'GET', url(myKey, 'available_actions/'));
        expect(listed.json()).toEqual({ results: allowed });
        for (const action of INCIDENT_ACTIONS) {
          await setStatus(myIncidentId, status);
          const body =
            action === 'close'
              ? { comment: `closing from ${status}`, resolution_name: closeResolution.id }
              : { comment: `${action} from ${status}` };
          const res = await call(user, 'POST', url(myKey, `${action}/`), body);
          if (allowed.includes(action)) {
            expect(res.statusCode, `${action} ${res.body}`).toBe(200);
            expect(res.json<IncidentCard>().status).toBe(expected[role][action][1]);
          } else {
            expect(res.statusCode, `${action} from ${status}`).toBe(400);
            expect(res.json<{ non_field_errors: string[] }>().non_field_errors[0]).toContain(
              `Action "${action}" is not available`,
            );
          }
        }
      });
    }
  }

  it('close stores the resolution, the comment and, when asked, assigns the caller; audit records it', async () => {
    await setStatus(myIncidentId, 'work_in_progress');
    const res = await call('customer', 'POST', url(myKey, 'close/'), {
      comment: 'False alarm: **scheduled** <i>scan</i>',
      resolution_name: closeResolution.id,
      change_customer_assignee: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    const card = res.json<IncidentCard>();
    expect(card.status).toBe('closed');
    expect(card.resolution).toBe('False Positive');
    expect(card.resolution_name_ref?.id).toBe(closeResolution.id);
    expect(card.resolutiondate).not.toBeNull();
    expect(card.customer_assignee?.username).toBe(people.customer!.username);
    const [last] = await ctx.database.db
      .select()
      .from(comments)
      .where(eq(comments.incidentId, myIncidentId))
      .orderBy(comments.id)
      .then((rows) => rows.slice(-1));
    // typed into the dialog's plain text area: Markdown formats, typed HTML stays text
    expect(last!.body).toBe('<p>False alarm: <strong>scheduled</strong> &lt;i&gt;scan&lt;/i&gt;</p>');
    const entries = await ctx.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'incident.close'));
    expect(entries.some((e) => e.objectId === String(myKey))).toBe(true);
  });

  it('validates the payloads with field errors', async () => {
    await setStatus(myIncidentId, 'work_in_progress');
    const empty = await call('customer', 'POST', url(myKey, 'close/'), {});
    expect(empty.statusCode).toBe(400);
    expect(Object.keys(empty.json<object>()).sort()).toEqual(['comment', 'resolution_name']);
    const blank = await call('customer', 'POST', url(myKey, 'confirm/'), { comment: '   ' });
    expect(blank.json()).toEqual({ comment: ['This field may not be blank.'] });
    const foreign = await call('customer', 'POST', url(myKey, 'close/'), {
      comment: 'x',
      resolution_name: 999_999,
    });
    expect(foreign.json<Record<string, string[]>>().resolution_name).toHaveLength(1);
  });
});

describe('priority', () => {
  it('lets customers choose low, medium, high; critical only analysts', async () => {
    const high = await call('customer', 'PATCH', url(myKey), { priority: 'high' });
    expect(high.statusCode, high.body).toBe(200);
    expect(high.json<IncidentCard>().priority).toBe('high');
    const critical = await call('customer', 'PATCH', url(myKey), { priority: 'critical' });
    expect(critical.statusCode).toBe(400);
    expect(critical.json<Record<string, string[]>>().priority).toHaveLength(1);
    const byAnalyst = await call('analyst', 'PATCH', url(myKey), { priority: 'critical' });
    expect(byAnalyst.json<IncidentCard>().priority).toBe('critical');
    expect((await call('customer', 'PATCH', url(myKey), { priority: 'urgent' })).statusCode).toBe(400);
    expect((await call('stranger', 'PATCH', url(myKey), { priority: 'low' })).statusCode).toBe(404);
  });
});

describe('assignment', () => {
  it('assigns an active user of the incident’s system, clears with null', async () => {
    const res = await call('customer', 'POST', url(myKey, 'assign_to_customer/'), {
      customer_assignee_id: people.colleague!.id,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<IncidentCard>().customer_assignee?.username).toBe(people.colleague!.username);
    expect(res.json<IncidentCard>().customer_assignee_last_time).not.toBeNull();
    const cleared = await call('customer', 'POST', url(myKey, 'assign_to_customer/'), {
      customer_assignee_id: null,
    });
    expect(cleared.json<IncidentCard>().customer_assignee).toBeNull();
  });

  it('refuses users of another system, inactive users and unknown ids', async () => {
    const strangerId = people.stranger!.id;
    const acrossSystems = await call('customer', 'POST', url(myKey, 'assign_to_customer/'), {
      customer_assignee_id: strangerId,
    });
    expect(acrossSystems.statusCode).toBe(400);
    expect(acrossSystems.json()).toEqual({
      customer_assignee_id: [`Invalid pk "${strangerId}" - object does not exist.`],
    });
    const res = await call('customer', 'POST', url(myKey, 'assign_to_customer/'), {
      customer_assignee_id: inactiveId,
    });
    expect(res.statusCode).toBe(400);
    expect(
      (await call('customer', 'POST', url(myKey, 'assign_to_customer/'), { customer_assignee_id: 987_654 }))
        .statusCode,
    ).toBe(400);
  });
});

describe('OpenAPI', () => {
  it('documents every route of the incident page', async () => {
    const doc = (await ctx.app.inject('/api/v0/docs/json')).json<{ paths: Record<string, object> }>();
    for (const path of [
      '/api/v0/soc/incs/{key}/',
      '/api/v0/soc/incs/{key}/available_actions/',
      '/api/v0/soc/incs/{key}/confirm/',
      '/api/v0/soc/incs/{key}/close/',
      '/api/v0/soc/incs/{key}/reopen/',
      '/api/v0/soc/incs/{key}/assign_to_customer/',
      '/api/v0/soc/incs/{key}/comments/',
      '/api/v0/soc/incs/{key}/attachments/{id}/download/',
      '/api/v0/soc/incs/{key}/add_rating/',
      '/api/v0/soc/incs/{key}/get_pdf_inc/',
      '/api/v0/soc/incs/{key}/manually_send_to_gossopka/',
      '/api/v0/soc/inbound_mail/',
    ]) {
      expect(doc.paths, path).toHaveProperty([path]);
    }
  });
});
