import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestContext } from '../test/harness.ts';
import { bearer, createTestContext } from '../test/harness.ts';
import { buildCustomer, buildIncident, buildSystem, issueTypeReference } from '../test/builders.ts';

let ctx: TestContext;
let customer: string;
let closedKey: number;
let resolution: number;

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  const system = await buildSystem(ctx);
  customer = await (await buildCustomer(ctx, [system.id])).login();
  closedKey = (await buildIncident(ctx, system.id, { status: 'closed' })).key;
  resolution = (await issueTypeReference(ctx, 'incident')).resolutions[0]!.id;
});
afterAll(async () => {
  await ctx.close();
});

type Call = { method: 'GET' | 'POST'; url: string; payload?: object; token?: string };

/** `call` as a client asking for `language` (an Accept-Language header, or none). */
const ask = (call: Call, acceptLanguage?: string) =>
  ctx.app.inject({
    method: call.method,
    url: call.url,
    payload: call.payload,
    headers: {
      ...(call.token ? bearer(call.token) : {}),
      ...(acceptLanguage ? { 'accept-language': acceptLanguage } : {}),
    },
  });

const signIn: Call = {
  method: 'POST',
  url: '/api/v0/auth/token/obtain/',
  payload: { username: 'nobody-at-all', password: 'wrong password 1' },
};

describe('server messages in the caller’s language (issue 28)', () => {
  it('answers a failed sign-in in English or Russian', async () => {
    const en = await ask(signIn, 'en-GB,en;q=0.9');
    expect(en.statusCode).toBe(401);
    expect(en.json()).toEqual({ detail: 'No active account found with the given credentials' });
    const ru = await ask(signIn, 'ru-RU,ru;q=0.9,en;q=0.8');
    expect(ru.json()).toEqual({ detail: 'Не найдена активная учётная запись с указанными данными' });
    // no header: the portal's default language
    expect((await ask(signIn)).json()).toEqual({
      detail: 'Не найдена активная учётная запись с указанными данными',
    });
  });

  it('follows the q-values of Accept-Language and skips languages it does not speak', async () => {
    const res = await ask(signIn, 'de;q=1, ru;q=0.5, en;q=0.7');
    expect(res.json()).toEqual({ detail: 'No active account found with the given credentials' });
    const ru = await ask(signIn, 'fr, en;q=0.2, ru-RU;q=0.4');
    expect(ru.json<{ detail: string }>().detail).toMatch(/^Не найдена/);
  });

  it('answers a 404 in the caller’s language', async () => {
    const call: Call = { method: 'GET', url: '/api/v0/soc/incs/99999999/', token: customer };
    const en = await ask(call, 'en');
    expect(en.statusCode).toBe(404);
    expect(en.json()).toEqual({ detail: 'Not found.' });
    expect((await ask(call, 'ru')).json()).toEqual({ detail: 'Не найдено.' });
  });

  it('answers a 403 in the caller’s language', async () => {
    const call: Call = { method: 'GET', url: '/api/v0/admin/users/', token: customer };
    const en = await ask(call, 'en');
    expect(en.statusCode).toBe(403);
    expect(en.json()).toEqual({ detail: 'You do not have permission to perform this action.' });
    expect((await ask(call, 'ru')).json()).toEqual({
      detail: 'У вас недостаточно прав для выполнения данного действия.',
    });
  });

  it('answers a validation 400 in the caller’s language', async () => {
    const call: Call = { method: 'GET', url: '/api/v0/audit/?page=0&colour=red', token: customer };
    const en = await ask(call, 'en');
    expect(en.statusCode).toBe(400);
    expect(en.json()).toEqual({
      colour: ['Unknown parameter.'],
      page: ['Too small: expected number to be >=1'],
    });
    const ru = await ask(call, 'ru');
    expect(ru.json()).toEqual({
      colour: ['Неизвестный параметр.'],
      page: [expect.stringMatching(/^Слишком маленькое значение/)],
    });
  });

  it('answers an action error (closing a closed incident) in the caller’s language', async () => {
    const call: Call = {
      method: 'POST',
      url: `/api/v0/soc/incs/${closedKey}/close/`,
      payload: { comment: 'Done', resolution_name: resolution },
      token: customer,
    };
    const en = await ask(call, 'en');
    expect(en.statusCode).toBe(400);
    expect(en.json()).toEqual({
      non_field_errors: ['Action "close" is not available for this incident (status: Closed).'],
    });
    const ru = await ask(call, 'ru');
    expect(ru.json<{ non_field_errors: string[] }>().non_field_errors[0]).toMatch(
      /^Действие «close» недоступно/,
    );
  });

  it('lets the `language` parameter override Accept-Language', async () => {
    const call: Call = { method: 'GET', url: '/api/v0/audit/?colour=red&language=en', token: customer };
    expect((await ask(call, 'ru')).json()).toEqual({ colour: ['Unknown parameter.'] });
    const ru: Call = { ...call, url: '/api/v0/audit/?colour=red&language=ru' };
    expect((await ask(ru, 'en')).json()).toEqual({ colour: ['Неизвестный параметр.'] });
  });
});
