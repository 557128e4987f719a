import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminSystem, AdminUser, Branding, PortalConfig, UserInvited } from '@soc/contracts';
import { auditLog, serviceTokens, users } from '../../db/schema/index.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import type { BuiltSystem, BuiltUser } from '../../test/builders.ts';
import { buildAnalyst, buildCustomer, buildSystem, buildUser } from '../../test/builders.ts';
import { SCOPED_TOKEN_GLOBAL_WRITE } from '../../lib/token-scope.ts';
import { runAdminCommand } from './admin.commands.ts';

let ctx: TestContext;
const sessions: Record<string, string> = {};
const call = (
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  token: string,
  payload?: object,
) =>
  ctx.app.inject({ method, url: `/api/v0${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });
const admin = (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  call(method, `/admin${url}`, sessions.admin!, payload);
const cli = (...argv: string[]) => runAdminCommand(argv, { db: ctx.database.db, config: ctx.config });

/** Built accounts: a customer of `home`, an analyst and the administrator who calls the API. */
const accounts = {} as Record<'customer' | 'analyst' | 'admin', BuiltUser>;
let home: BuiltSystem;

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  home = await buildSystem(ctx);
  accounts.customer = await buildCustomer(ctx, [home.id]);
  accounts.analyst = await buildAnalyst(ctx);
  accounts.admin = await buildUser(ctx, { role: 'admin' });
  for (const [name, user] of Object.entries(accounts)) sessions[name] = await user.login();
});
afterAll(async () => ctx?.close());

describe('admin API', () => {
  it('is for administrators only: customers and analysts get 403, even with a wrong body', async () => {
    for (const who of ['customer', 'analyst']) {
      expect((await call('GET', '/admin/users/', sessions[who]!)).statusCode).toBe(403);
      expect((await call('POST', '/admin/systems/', sessions[who]!, { bad: 1 })).statusCode).toBe(403);
    }
  });

  it('refuses an administrator’s API token limited to systems: administration spans every system', async () => {
    const issue = async (systems?: number[]) => {
      const res = await admin('POST', '/service_tokens/', {
        name: 'admin probe',
        user_id: accounts.admin.id,
        systems,
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ token: string }>().token;
    };
    const limited = await call('GET', '/admin/users/', await issue([home.id]));
    expect(limited.statusCode).toBe(403);
    expect(limited.json<{ detail: string }>().detail).toBe(SCOPED_TOKEN_GLOBAL_WRITE.ru);
    expect((await call('GET', '/admin/users/', await issue())).statusCode).toBe(200);
  });

  it('creates a system with a contract, a service with SLA rows and a contact; the customer card shows them', async () => {
    const created = await admin('POST', '/systems/', { is_id: 'IS-0100', full_name: 'New plant' });
    expect(created.statusCode, created.body).toBe(201);
    const system = created.json<AdminSystem>();
    const dup = await admin('POST', '/systems/', { is_id: 'is-0100', full_name: 'Again' });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toHaveProperty('is_id');

    const withContract = await admin('POST', `/systems/${system.id}/contracts/`, {
      name: 'MDR 2027',
      number: 'C-2027-01',
      start_date: '2027-01-01',
    });
    expect(withContract.statusCode, withContract.body).toBe(201);
    const contractId = withContract.json<AdminSystem>().contracts[0]!.id;
    const withService = await admin('POST', `/systems/${system.id}/services/`, {
      name: 'Horizon',
      start_date: '2027-01-01',
      contract_id: contractId,
      contracted_eps: 2500,
      sla: [
        { category: 'critical', hours: 2 },
        { category: 'high', hours: 8, calendar: false },
      ],
    });
    expect(withService.statusCode, withService.body).toBe(201);
    const service = withService.json<AdminSystem>().services[0]!;
    expect(service.sla).toEqual([
      { category: 'critical', hours: 2, calendar: true },
      { category: 'high', hours: 8, calendar: false },
    ]);
    const replaced = await admin('PATCH', `/services/${service.id}/`, {
      sla: [{ category: 'low', hours: 72 }],
    });
    expect(replaced.json<AdminSystem>().services[0]!.sla).toEqual([
      { category: 'low', hours: 72, calendar: true },
    ]);
    const badSla = await admin('PATCH', `/services/${service.id}/`, {
      sla: [
        { category: 'low', hours: 1 },
        { category: 'low', hours: 2 },
      ],
    });
    expect(badSla.statusCode).toBe(400);

    const withContact = await admin('POST', `/systems/${system.id}/contacts/`, {
      first_name: 'Ivan',
      last_name: 'Petrov',
      email: 'ivan@plant.example',
      locale: 'en',
    });
    expect(withContact.statusCode, withContact.body).toBe(201);
    expect(withContact.json<AdminSystem>().contacts[0]).toMatchObject({
      email: 'ivan@plant.example',
      notify: true,
    });

    // a customer assigned to the system sees it with its service and contact
    const customer = accounts.customer;
    const current = (await admin('GET', `/users/${customer.id}/`)).json<AdminUser>();
    expect(current.systems).toEqual([home.id]);
    const assigned = await admin('PATCH', `/users/${customer.id}/`, {
      systems: [...current.systems, system.id],
    });
    expect(assigned.json<AdminUser>().systems).toEqual([home.id, system.id]);
    const card = await call('GET', `/soc/systems/${system.id}/`, sessions.customer!);
    expect(card.statusCode, card.body).toBe(200);
    expect(card.json()).toMatchObject({ is_id: 'IS-0100', services: [{ name: 'Horizon' }] });
  });

  it('invites a user who signs in with the one-time password; deactivation ends their session at once', async () => {
    const res = await admin('POST', '/users/', {
      username: 'newcustomer',
      email: 'new@customer.example',
      role: 'customer',
      systems: [],
    });
    expect(res.statusCode, res.body).toBe(201);
    const invited = res.json<UserInvited>();
    expect(invited.temporary_password.length).toBeGreaterThanOrEqual(12);
    const { access } = await ctx.login('newcustomer', invited.temporary_password);
    expect((await call('GET', '/auth/user/', access)).statusCode).toBe(200);
    const off = await admin('POST', `/users/${invited.id}/deactivate/`);
    expect(off.json<AdminUser>().is_active).toBe(false);
    expect((await call('GET', '/auth/user/', access)).statusCode).toBe(401);
    const again = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/auth/token/obtain/',
      payload: { username: 'newcustomer', password: invited.temporary_password },
    });
    expect(again.statusCode).toBe(401);
  });

  it('resets the second factor and refuses to deactivate oneself', async () => {
    const withMfa = await buildCustomer(ctx, [], { mfaPhone: '+79990001122' });
    await ctx.database.db
      .update(users)
      .set({ totpSecret: 'sealed', totpEnabledAt: new Date() })
      .where(eq(users.id, withMfa.id));
    const res = await admin('POST', `/users/${withMfa.id}/reset_mfa/`, { remove_phone: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<AdminUser>()).toMatchObject({ totp_enabled: false, mfa_phone: null });
    expect((await admin('POST', `/users/${accounts.admin.id}/deactivate/`)).statusCode).toBe(400);
  });

  it('overrides branding at run time; the portal config follows, null returns to the environment', async () => {
    const set = await admin('PUT', '/branding/', {
      portal_name: 'Acme SOC',
      primary_color: '#ff0000',
      hide_eps_widget: true,
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json<Branding>().overridden).toEqual(['portal_name', 'primary_color', 'hide_eps_widget']);
    const portal = (await ctx.app.inject('/api/v0/portal/config/')).json<PortalConfig>();
    expect(portal).toMatchObject({
      portal_name: 'Acme SOC',
      primary_color: '#ff0000',
      flags: { hide_eps_widget: true },
    });
    expect((await admin('PUT', '/branding/', { logo_url: 'https://evil.example/logo.png' })).statusCode).toBe(
      400,
    );
    await admin('PUT', '/branding/', { portal_name: null, primary_color: null, hide_eps_widget: null });
    expect((await ctx.app.inject('/api/v0/portal/config/')).json<PortalConfig>().portal_name).toBe(
      'SOC Portal',
    );
  });
});

describe('npm run admin', () => {
  it('creates a system, a service with SLA and a contact', async () => {
    const out = await cli('systems', 'create', '--is-id', 'IS-0200', '--name', 'CLI plant');
    expect(JSON.parse(out)).toMatchObject({ is_id: 'IS-0200', status: 'active' });
    const svc = JSON.parse(
      await cli(
        'services',
        'add',
        'IS-0200',
        '--name',
        'Vision',
        '--start',
        '2027-02-01',
        '--eps',
        '800',
        '--sla',
        'critical=1,high=4',
        '--business-hours',
      ),
    ) as AdminSystem;
    expect(svc.services[0]).toMatchObject({
      name: 'Vision',
      contracted_eps: 800,
      sla: [
        { category: 'critical', hours: 1, calendar: false },
        { category: 'high', hours: 4, calendar: false },
      ],
    });
    const contact = JSON.parse(
      await cli('contacts', 'add', 'IS-0200', '--first', 'Olga', '--last', 'Ivanova', '--locale', 'en'),
    ) as AdminSystem;
    expect(contact.contacts[0]).toMatchObject({ first_name: 'Olga', locale: 'en' });
    expect(await cli('systems', 'list', '--search', '0200')).toContain('IS-0200');
    const entries = await ctx.database.db.select().from(auditLog).where(eq(auditLog.action, 'system.create'));
    expect(entries.find((e) => e.ip === 'cli')).toMatchObject({ userId: null, objectId: String(svc.id) });
  });

  it('invites, assigns, deactivates and reactivates users', async () => {
    const out = await cli(
      'users',
      'invite',
      'cliuser',
      '--email',
      'cli@customer.example',
      '--systems',
      `${home.isId},IS-0200`,
    );
    const password = /One-time password \(shown once\): (\S+)/.exec(out)![1]!;
    const { access } = await ctx.login('cliuser', password);
    // the temporary password is changed first: nothing else answers until then
    const changed = await call('PUT', '/auth/password_change/', access, {
      old_password: password,
      password: 'Cli-user-own-passphrase-2026',
      confirmed_password: 'Cli-user-own-passphrase-2026',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    // the change ended the session: in again with the user's own password
    const own = (await ctx.login('cliuser', 'Cli-user-own-passphrase-2026')).access;
    const systemsSeen = (await call('GET', '/soc/systems/', own)).json<{ results: { is_id: string }[] }>();
    expect(systemsSeen.results.map((s) => s.is_id).sort()).toEqual(['IS-0200', home.isId].sort());
    expect(JSON.parse(await cli('users', 'assign', 'cliuser', '--systems', 'IS-0200'))).toMatchObject({
      systems: [expect.any(Number)],
    });
    expect(JSON.parse(await cli('users', 'deactivate', 'cliuser'))).toMatchObject({ is_active: false });
    expect((await call('GET', '/auth/user/', own)).statusCode).toBe(401);
    expect(JSON.parse(await cli('users', 'activate', 'cliuser'))).toMatchObject({ is_active: true });
    expect(await cli('users', 'list', '--search', 'cliuser')).toContain('cliuser');
  });

  it('issues a service token that works and revokes it', async () => {
    const out = await cli(
      'tokens',
      'create',
      '--name',
      'siem',
      '--user',
      accounts.analyst.username,
      '--systems',
      home.isId,
    );
    const token = /Token \(shown once\): (\S+)/.exec(out)![1]!;
    const { id } = JSON.parse(out.slice(0, out.lastIndexOf('\nToken'))) as { id: string };
    expect((await call('GET', '/soc/systems/', token)).json<{ total: number }>().total).toBe(1);
    expect(await cli('tokens', 'list')).toContain(id);
    expect(await cli('tokens', 'revoke', id)).toBe('Revoked.');
    expect((await call('GET', '/soc/systems/', token)).statusCode).toBe(401);
    const [row] = await ctx.database.db.select().from(serviceTokens).where(eq(serviceTokens.id, id));
    expect(row!.revokedAt).not.toBeNull();
  });

  it('sets and resets branding, and explains wrong input', async () => {
    expect(
      JSON.parse(await cli('branding', 'set', '--name', 'CLI SOC', '--hide-oidc', 'true')),
    ).toMatchObject({
      portal_name: 'CLI SOC',
      hide_oidc_buttons: true,
    });
    expect(JSON.parse(await cli('branding', 'reset'))).toMatchObject({
      portal_name: 'SOC Portal',
      overridden: [],
    });
    await expect(cli('branding', 'set', '--color', 'red')).rejects.toThrow();
    await expect(cli('users', 'frobnicate')).rejects.toThrow(/Unknown command/);
  });

  it('runs as a program against an embedded database (npm run admin)', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'soc-admin-cli-'));
    try {
      const entry = path.join(import.meta.dirname, 'admin.cli.ts');
      const run = (...args: string[]) =>
        spawnSync(process.execPath, ['--import', 'tsx', entry, ...args], {
          env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
          encoding: 'utf8',
          timeout: 120_000,
        });
      // one run: each opens and migrates a fresh embedded database, which takes seconds
      const wrong = run('systems', 'create', '--is-id', 'IS 0300', '--name', 'Plant');
      expect(wrong.status, wrong.stdout).toBe(1);
      expect(wrong.stderr).toContain('is_id: Letters, digits, dots, dashes and underscores.');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
