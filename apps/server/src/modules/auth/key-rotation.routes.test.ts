import type { FastifyInstance } from 'fastify';
import { SignJWT, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import type { Config } from '../../core/config.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import type { BuiltUser } from '../../test/builders.ts';
import { BUILT_PASSWORD, buildCustomer } from '../../test/builders.ts';
import { keyId } from './auth.tokens.ts';

/**
 * Rotating JWT_SECRET (docs/operations.md): the instances restart with the new key as JWT_SECRET
 * and the old one as JWT_SECRET_PREVIOUS; tokens signed before keep working until they expire,
 * and once JWT_SECRET_PREVIOUS is removed they are refused.
 */
const OLD = new TextEncoder().encode('the-key-before-the-rotation-0123456789ab');
const NEW = new TextEncoder().encode('the-key-after-the-rotation-0123456789abc');

let ctx: TestContext;
let user: BuiltUser;
const apps: FastifyInstance[] = [];

/** Another instance over the same database, started with other keys (a restart after a rotation). */
async function instance(keys: Pick<Config, 'jwtSecret' | 'jwtPreviousSecret'>): Promise<FastifyInstance> {
  const app = await buildApp({
    config: { ...ctx.config, ...keys },
    database: ctx.database,
    auth: { failureFloorMs: 0, failureJitterMs: 0 },
  });
  await app.ready();
  apps.push(app);
  return app;
}

const whoAmI = (app: FastifyInstance, access: string) =>
  app.inject({ method: 'GET', url: '/api/v0/auth/user/', headers: bearer(access) });

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0, config: { jwtSecret: OLD } });
  user = await buildCustomer(ctx);
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await ctx.close();
});

describe('rotating the token signing key', () => {
  it('names the signing key in the kid header of new tokens', async () => {
    const access = await user.login();
    expect(decodeProtectedHeader(access).kid).toBe(keyId(OLD));
    expect(keyId(NEW)).not.toBe(keyId(OLD));
  });

  it('keeps a token signed before the rotation valid after it, and signs new ones with the new key', async () => {
    const before = await user.login();
    const rotated = await instance({ jwtSecret: NEW, jwtPreviousSecret: OLD });
    const res = await whoAmI(rotated, before);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ username: user.username });

    const signIn = await rotated.inject({
      method: 'POST',
      url: '/api/v0/auth/token/obtain/',
      payload: { username: user.username, password: BUILT_PASSWORD },
    });
    expect(signIn.statusCode).toBe(200);
    const after = signIn.json<{ access: string }>().access;
    expect(decodeProtectedHeader(after).kid).toBe(keyId(NEW));
    expect((await whoAmI(rotated, after)).statusCode).toBe(200);
    // an instance not yet restarted does not know the new key
    expect((await whoAmI(ctx.app, after)).statusCode).toBe(401);
  });

  it('refuses a token naming a key it does not have, even one signed with a key it has', async () => {
    const rotated = await instance({ jwtSecret: NEW, jwtPreviousSecret: OLD });
    const good = await user.login();
    const payload = JSON.parse(Buffer.from(good.split('.')[1]!, 'base64url').toString()) as Record<
      string,
      unknown
    >;
    for (const [kid, key] of [
      ['unknown-key-id', NEW],
      ['unknown-key-id', OLD],
      [keyId(new TextEncoder().encode('a-key-never-configured-0123456789abcdef')), OLD],
    ] as const) {
      const token = await new SignJWT(payload).setProtectedHeader({ alg: 'HS256', kid }).sign(key);
      expect((await whoAmI(rotated, token)).statusCode, kid).toBe(401);
    }
  });

  it('refuses a token signed with the old key once JWT_SECRET_PREVIOUS is removed', async () => {
    const before = await user.login();
    const rotated = await instance({ jwtSecret: NEW, jwtPreviousSecret: OLD });
    expect((await whoAmI(rotated, before)).statusCode).toBe(200);
    const done = await instance({ jwtSecret: NEW, jwtPreviousSecret: undefined });
    expect((await whoAmI(done, before)).statusCode).toBe(401);
  });
});
