import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MisconfigDetailSchema, MisconfigGroupPageSchema, MisconfigPageSchema } from '@soc/contracts';
import { auditLog, misconfigurationIncidents, misconfigurations } from '../../db/schema/index.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import type { BuiltSystem } from '../../test/builders.ts';
import { buildAnalyst, buildCustomer, buildIncident, buildSystem } from '../../test/builders.ts';

let ctx: TestContext;
const tokens: Record<string, string> = {};
/** Recommendations of the customer's system, and one of the stranger's. */
let own: { id: number }[];
let others: { id: number };
let ownSystem: BuiltSystem;
let remediationKey: number;

const get = (user: string, url: string) =>
  ctx.app.inject({ method: 'GET', url: `/api/v0/soc${url}`, headers: bearer(tokens[user]!) });
const act = (user: string, id: number, action: string, payload: object = {}) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/v0/soc/misconfigs/${id}/${action}/`,
    headers: bearer(tokens[user]!),
    payload,
  });

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  const db = ctx.database.db;
  ownSystem = await buildSystem(ctx);
  const otherSystem = await buildSystem(ctx);
  const named = { firstName: 'Алиса', lastName: 'Морозова' };
  tokens.customer = await (await buildCustomer(ctx, [ownSystem.id], named)).login();
  tokens.stranger = await (await buildCustomer(ctx, [otherSystem.id])).login();
  tokens.analyst = await (await buildAnalyst(ctx, { firstName: 'Анна', lastName: 'Смирнова' })).login();
  const [mine, theirs] = [ownSystem.id, otherSystem.id];
  own = await db
    .insert(misconfigurations)
    .values([
      {
        systemId: mine,
        title: 'Kerberoastable service account',
        description: 'svc-sql has an SPN and a weak password.',
        recommendation: 'Use a managed service account.',
        severity: 'critical',
        affectedAssets: ['dc-01', 'sql-02'],
      },
      {
        systemId: mine,
        title: 'Print spooler on domain controllers',
        description: 'The spooler runs on dc-01.',
        recommendation: 'Stop and disable the service.',
        severity: 'low',
        affectedAssets: ['dc-01'],
      },
    ])
    .returning({ id: misconfigurations.id });
  others = (
    await db
      .insert(misconfigurations)
      .values({
        systemId: theirs,
        title: 'Another tenant’s open share',
        severity: 'high',
        affectedAssets: ['fs-9'],
      })
      .returning({ id: misconfigurations.id })
  )[0]!;
  const remediation = await buildIncident(ctx, mine, { type: 'remediation' });
  remediationKey = remediation.key;
  await db
    .insert(misconfigurationIncidents)
    .values({ misconfigurationId: own[0]!.id, incidentId: remediation.id });
});
afterAll(() => ctx.close());

describe('security recommendations', () => {
  it('lists the caller’s systems only, most severe first, with filters and search', async () => {
    const page = MisconfigPageSchema.parse((await get('customer', '/misconfigs/?page_size=200')).json());
    expect(page.total).toBe(2);
    expect(page.results.every((m) => m.system.is_id === ownSystem.isId)).toBe(true);
    expect(page.results.some((m) => m.id === others.id)).toBe(false);
    const ranks = page.results.map((m) => ['low', 'medium', 'high', 'critical'].indexOf(m.severity));
    expect(ranks).toEqual([...ranks].sort((a, b) => b - a));

    const found = MisconfigPageSchema.parse(
      (await get('customer', '/misconfigs/?search=%20sql-02%20')).json(),
    );
    expect(found.results.map((m) => m.id)).toEqual([own[0]!.id]);
    expect(found.results[0]).toMatchObject({
      affected_assets: ['dc-01', 'sql-02'],
      status: 'open',
      available_actions: ['fix', 'accept_risk'],
      status_changed_by: null,
    });
    expect(found.results[0]!.incidents.map((i) => i.key)).toEqual([remediationKey]);
    const low = MisconfigPageSchema.parse(
      (await get('customer', '/misconfigs/?severity__in=low&search=spooler')).json(),
    );
    expect(low.results.map((m) => m.id)).toEqual([own[1]!.id]);
    const all = MisconfigPageSchema.parse(
      (await get('analyst', '/misconfigs/?page_size=200&ordering=title')).json(),
    );
    expect(all.results.some((m) => m.id === others.id)).toBe(true);
    const titles = all.results.map((m) => m.title);
    expect(titles).toEqual([...titles].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect((await get('customer', '/misconfigs/?status__in=accepted')).statusCode).toBe(400);
  });

  it('marks one fixed, accepts a risk only with a comment, reopens, and records each change in the audit log', async () => {
    const id = own[1]!.id;
    const noComment = await act('customer', id, 'accept_risk', {});
    expect(noComment.statusCode).toBe(400);
    expect(noComment.json<Record<string, string[]>>().comment).toEqual(['Обязательное поле.']);

    const accepted = MisconfigDetailSchema.parse(
      (
        await act('customer', id, 'accept_risk', {
          comment: '  The spooler is needed for the label printer. ',
        })
      ).json(),
    );
    expect(accepted).toMatchObject({
      status: 'accepted_risk',
      status_comment: 'The spooler is needed for the label printer.',
      status_changed_by: 'Алиса Морозова',
      available_actions: ['fix', 'reopen'],
    });
    const fixed = MisconfigDetailSchema.parse((await act('customer', id, 'fix')).json());
    expect(fixed.status).toBe('fixed');
    expect((await act('customer', id, 'fix')).statusCode).toBe(400);
    const reopened = MisconfigDetailSchema.parse(
      (await act('analyst', id, 'reopen', { comment: 'Seen again on dc-01.' })).json(),
    );
    expect(reopened.status).toBe('open');
    expect(reopened.history.map((h) => [h.action, h.from, h.to, h.user])).toEqual([
      ['reopen', 'fixed', 'open', 'Анна Смирнова'],
      ['fix', 'accepted_risk', 'fixed', 'Алиса Морозова'],
      ['accept_risk', 'open', 'accepted_risk', 'Алиса Морозова'],
    ]);
    const entries = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.objectType, 'misconfig'), eq(auditLog.objectId, String(id))))
      .orderBy(auditLog.id);
    expect(entries.map((e) => [e.action, e.details.comment])).toEqual([
      ['misconfig.accept_risk', 'The spooler is needed for the label printer.'],
      ['misconfig.fix', ''],
      ['misconfig.reopen', 'Seen again on dc-01.'],
    ]);
    expect(entries.every((e) => e.ip !== '')).toBe(true);
    const listed = MisconfigPageSchema.parse(
      (await get('customer', '/misconfigs/?ordering=-updated')).json(),
    );
    expect(listed.results[0]!.id).toBe(id);
  });

  it('shows the same data on the incident’s misconfigurations tab', async () => {
    const fixed = await act('customer', own[0]!.id, 'fix', { comment: 'Moved to a gMSA.' });
    expect(fixed.statusCode).toBe(200);
    const tab = MisconfigPageSchema.parse(
      (await get('customer', `/incs/${remediationKey}/misconfigs/?page_size=200`)).json(),
    );
    expect(tab.results.find((m) => m.id === own[0]!.id)).toMatchObject({
      status: 'fixed',
      status_comment: 'Moved to a gMSA.',
    });
  });

  it('answers 404 for another tenant’s recommendation and validates the input', async () => {
    expect((await get('customer', `/misconfigs/${others.id}/`)).statusCode).toBe(404);
    expect((await act('customer', others.id, 'fix')).statusCode).toBe(404);
    expect((await get('customer', '/misconfigs/999999/')).statusCode).toBe(404);
    expect((await act('customer', own[0]!.id, 'delete')).statusCode).toBe(400);
    expect((await act('customer', own[0]!.id, 'fix', { comment: 'x'.repeat(5001) })).statusCode).toBe(400);
    expect((await act('customer', own[0]!.id, 'fix', { note: 'x' })).statusCode).toBe(400);
    expect((await get('stranger', `/misconfigs/${others.id}/`)).statusCode).toBe(200);
  });
});

describe('recommendations grouped by title (issue 40 flaw 7)', () => {
  let token: string;
  let strangerToken: string;

  beforeAll(async () => {
    const db = ctx.database.db;
    const system = await buildSystem(ctx);
    const foreign = await buildSystem(ctx);
    token = await (await buildCustomer(ctx, [system.id])).login();
    strangerToken = await (await buildCustomer(ctx, [foreign.id])).login();
    const row = (
      title: string,
      severity: 'low' | 'medium' | 'high',
      status: 'open' | 'fixed',
      assets: string[],
    ) => ({
      systemId: system.id,
      title,
      severity,
      status,
      affectedAssets: assets,
    });
    await db.insert(misconfigurations).values([
      // one recommendation found three times: on four distinct assets, one of them fixed
      row('SMBv1 enabled', 'medium', 'open', ['host-1', 'host-2']),
      row('SMBv1 enabled', 'medium', 'fixed', ['host-2', 'host-3']),
      row('SMBv1 enabled', 'high', 'open', ['host-4']),
      // a more severe one, but fixed everywhere: after every group with open items
      { ...row('Telnet exposed', 'high', 'fixed', ['host-9']), severity: 'high' as const },
      row('Audit policy off', 'low', 'open', []),
      // another tenant's finding of the same title counts nowhere here
      { ...row('SMBv1 enabled', 'medium', 'open', ['foreign-1']), systemId: foreign.id },
    ]);
  });

  const groups = (bearerToken: string, query = '') =>
    ctx.app.inject({
      method: 'GET',
      url: `/api/v0/soc/misconfigs/groups/${query}`,
      headers: bearer(bearerToken),
    });

  it('lists one entry per title with its status counts and distinct assets, open groups first', async () => {
    const res = await groups(token);
    expect(res.statusCode).toBe(200);
    const page = MisconfigGroupPageSchema.parse(res.json());
    expect(page.total).toBe(3);
    expect(page.total_exact).toBe(true);
    expect(page.results.map((g) => g.title)).toEqual(['SMBv1 enabled', 'Audit policy off', 'Telnet exposed']);
    expect(page.results[0]).toMatchObject({
      severity: 'high',
      total: 3,
      open: 2,
      fixed: 1,
      accepted_risk: 0,
      assets: 4,
      asset_sample: ['host-1', 'host-2', 'host-3', 'host-4'],
    });
    expect(page.results[1]).toMatchObject({ total: 1, open: 1, assets: 0, asset_sample: [] });
  });

  it('filters like the list, pages, and opens a group as the list filtered by its title', async () => {
    const fixed = MisconfigGroupPageSchema.parse((await groups(token, '?status__in=fixed')).json());
    // counts and severity of the filtered items only: the fixed SMBv1 finding is medium
    expect(fixed.results.map((g) => [g.title, g.total, g.severity])).toEqual([
      ['Telnet exposed', 1, 'high'],
      ['SMBv1 enabled', 1, 'medium'],
    ]);
    const first = MisconfigGroupPageSchema.parse((await groups(token, '?page_size=1')).json());
    expect(first.total).toBe(3);
    expect(first.next).toContain('page=2');
    const items = MisconfigPageSchema.parse(
      (
        await get('customer', `/misconfigs/?title=${encodeURIComponent('Kerberoastable service account')}`)
      ).json(),
    );
    expect(items.results.map((m) => m.title)).toEqual(['Kerberoastable service account']);
    const smb = await ctx.app.inject({
      method: 'GET',
      url: `/api/v0/soc/misconfigs/?title=${encodeURIComponent('SMBv1 enabled')}`,
      headers: bearer(token),
    });
    expect(MisconfigPageSchema.parse(smb.json()).total).toBe(3);
  });

  it('keeps tenants apart and refuses unknown parameters', async () => {
    const theirs = MisconfigGroupPageSchema.parse((await groups(strangerToken)).json());
    expect(theirs.results).toEqual([
      expect.objectContaining({ title: 'SMBv1 enabled', total: 1, assets: 1, asset_sample: ['foreign-1'] }),
    ]);
    expect((await groups(token, '?ordering=title')).statusCode).toBe(400);
    expect((await groups(token, '?page_size=201')).statusCode).toBe(400);
  });
});
