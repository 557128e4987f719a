// Stays on the demo accounts: the outbox routes answer only while the demo data set (alice) is loaded.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, testConfig } from '../../config.ts';
import { users } from '../../db/schema/index.ts';
import type { TestContext } from '../../test/harness.ts';
import { createTestContext } from '../../test/harness.ts';

const JSON_URL = '/api/v0/dev/sms_outbox/';
const PAGE_URL = '/dev/sms-outbox';

/** The answers of both outbox paths to an anonymous caller. */
async function outboxStatuses(ctx: TestContext): Promise<number[]> {
  const json = await ctx.app.inject({ method: 'GET', url: JSON_URL });
  const page = await ctx.app.inject({ method: 'GET', url: PAGE_URL });
  return [json.statusCode, page.statusCode];
}

/** The SMS settings that the environment `env` gives (on the embedded database). */
function smsFromEnv(env: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'soc-sms-outbox-'));
  try {
    return loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(40), ...env }).sms;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('SMS_OUTBOX setting', () => {
  it('is on by default with the embedded database and no gateway', () => {
    expect(smsFromEnv({}).outbox).toBe(true);
  });

  it('is off with DEMO_DATA=false, even when SMS_OUTBOX asks for it', () => {
    expect(smsFromEnv({ DEMO_DATA: 'false' }).outbox).toBe(false);
    expect(smsFromEnv({ DEMO_DATA: 'false', SMS_OUTBOX: 'true' }).outbox).toBe(false);
  });

  it('is off with an SMS gateway, even when SMS_OUTBOX asks for it', () => {
    expect(smsFromEnv({ SMS_GATEWAY_URL: 'https://sms.example/send', SMS_OUTBOX: 'true' }).outbox).toBe(
      false,
    );
  });
});

describe('embedded SMS outbox routes', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ incidents: 0 });
  });
  afterAll(() => ctx.close());

  it('answer while the demo data set is loaded and no gateway is configured', async () => {
    expect(await outboxStatuses(ctx)).toEqual([200, 200]);
  });

  it('answer 404 once a demo account is gone, and again 200 when it is back', async () => {
    await ctx.database.db.update(users).set({ username: 'alice-renamed' }).where(eq(users.username, 'alice'));
    try {
      expect(await outboxStatuses(ctx)).toEqual([404, 404]);
    } finally {
      await ctx.database.db
        .update(users)
        .set({ username: 'alice' })
        .where(eq(users.username, 'alice-renamed'));
    }
    expect(await outboxStatuses(ctx)).toEqual([200, 200]);
  });

  it.each([
    ['DEMO_DATA=false', { DEMO_DATA: 'false' }],
    ['SMS_GATEWAY_URL', { SMS_GATEWAY_URL: 'https://sms.example/send' }],
  ])('answer 404 with %s although the demo accounts are present', async (_name, env) => {
    const other = await createTestContext({
      incidents: 0,
      config: { sms: { ...testConfig().sms, ...smsFromEnv(env) } },
    });
    try {
      expect(await outboxStatuses(other)).toEqual([404, 404]);
      const spec = (await other.app.inject({ method: 'GET', url: '/api/v0/docs/json' })).json<{
        paths: object;
      }>();
      expect(Object.keys(spec.paths)).not.toContain(JSON_URL);
    } finally {
      await other.close();
    }
  });
});
