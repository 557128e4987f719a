import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_MESSAGES } from '@soc/contracts';
import { PASSWORD_POLICY_MESSAGES } from '../../lib/passwords.ts';
import type { TestContext } from '../../test/harness.ts';
import { BUILT_PASSWORD, buildCustomer } from '../../test/builders.ts';
import { bearer, createTestContext } from '../../test/harness.ts';

let ctx: TestContext;
let access: string;
/** A login long enough to be tried as a password. */
const LOGIN = 'harborview';

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  access = await (await buildCustomer(ctx, [], { username: LOGIN })).login();
});
afterAll(async () => ctx?.close());

const change = (password: string, language = 'en') =>
  ctx.app.inject({
    method: 'PUT',
    url: '/api/v0/auth/password_change/',
    headers: { ...bearer(access), 'accept-language': language },
    payload: { old_password: BUILT_PASSWORD, password, confirmed_password: password },
  });

describe('PUT /auth/password_change/: password policy (issue 25)', () => {
  it('refuses 8 characters with the length message on the field', async () => {
    const res = await change('Gr4n!te8');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ password: [PASSWORD_MESSAGES.tooShort] });
  });

  it('refuses a guessable password with the strength message, in en and ru', async () => {
    const en = await change('Summer2024!');
    expect(en.statusCode).toBe(400);
    expect(en.json()).toEqual({ password: [PASSWORD_POLICY_MESSAGES.weak.en] });
    const ru = await change('Summer2024!', 'ru');
    expect(ru.json()).toEqual({ password: [PASSWORD_POLICY_MESSAGES.weak.ru] });
  });

  it('refuses the login as password, and passwords built on it', async () => {
    for (const password of [LOGIN, `${LOGIN}2026`, 'HarborView!1']) {
      const res = await change(password);
      expect(res.statusCode, password).toBe(400);
      expect(res.json()).toEqual({ password: [PASSWORD_POLICY_MESSAGES.personal.en] });
    }
  });

  it('refuses white space only and control characters', async () => {
    expect((await change(' '.repeat(12))).json()).toEqual({ password: [PASSWORD_POLICY_MESSAGES.blank.en] });
    expect((await change('Granite\u0000Orchid-4417')).json()).toEqual({
      password: [PASSWORD_POLICY_MESSAGES.control.en],
    });
    expect((await change('Granite\tOrchid-4417', 'ru')).json()).toEqual({
      password: [PASSWORD_POLICY_MESSAGES.control.ru],
    });
  });

  it('takes a strong password', async () => {
    const res = await change('Granite-Orchid-4417');
    expect(res.statusCode, res.body).toBe(200);
    await ctx.login(LOGIN, 'Granite-Orchid-4417');
  });
});
