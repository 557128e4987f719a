import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

/** Secrets come only from the environment or from files with owner-only access (SECURITY.md). */
describe('the token signing secret', () => {
  let dataDir: string;
  const nodeEnv = process.env.NODE_ENV;
  const decode = (key: Uint8Array) => new TextDecoder().decode(key);

  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'soc-config-'));
  });
  afterEach(() => {
    process.env.NODE_ENV = nodeEnv;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is JWT_SECRET when set, and nothing is written', () => {
    const secret = 'a-secret-from-the-environment-0123456789';
    const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: secret });
    expect(decode(config.jwtSecret)).toBe(secret);
    expect(() => statSync(path.join(dataDir, 'jwt-secret'))).toThrow();
  });

  it('refuses a JWT_SECRET shorter than 32 characters', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'short' })).toThrow(/JWT_SECRET/);
  });

  it('is generated once into the data folder, readable by its owner only, and kept across restarts', () => {
    const first = loadConfig({ DATA_DIR: dataDir });
    const file = path.join(dataDir, 'jwt-secret');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim().length).toBeGreaterThanOrEqual(64);
    const second = loadConfig({ DATA_DIR: dataDir });
    expect(decode(second.jwtSecret)).toBe(decode(first.jwtSecret));
    // another installation gets another key
    const otherDir = mkdtempSync(path.join(tmpdir(), 'soc-config-'));
    try {
      expect(decode(loadConfig({ DATA_DIR: otherDir }).jwtSecret)).not.toBe(decode(first.jwtSecret));
    } finally {
      rmSync(otherDir, { recursive: true, force: true });
    }
  });

  it('takes JWT_SECRET_PREVIOUS beside a different JWT_SECRET only (a rotation)', () => {
    const secret = 'the-new-key-from-the-environment-0123456789';
    const previous = 'the-old-key-from-the-environment-0123456789';
    const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: secret, JWT_SECRET_PREVIOUS: previous });
    expect(decode(config.jwtSecret)).toBe(secret);
    expect(decode(config.jwtPreviousSecret!)).toBe(previous);
    expect(loadConfig({ DATA_DIR: dataDir, JWT_SECRET: secret }).jwtPreviousSecret).toBeUndefined();
    expect(() => loadConfig({ DATA_DIR: dataDir, JWT_SECRET_PREVIOUS: previous })).toThrow(
      /JWT_SECRET_PREVIOUS needs JWT_SECRET/,
    );
    expect(() => loadConfig({ DATA_DIR: dataDir, JWT_SECRET: secret, JWT_SECRET_PREVIOUS: secret })).toThrow(
      /must differ/,
    );
    expect(() => loadConfig({ DATA_DIR: dataDir, JWT_SECRET: secret, JWT_SECRET_PREVIOUS: 'short' })).toThrow(
      /JWT_SECRET_PREVIOUS/,
    );
  });

  it('must be set for a production deployment on PostgreSQL (instances share it)', () => {
    process.env.NODE_ENV = 'production';
    expect(() =>
      loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/x' }),
    ).toThrow(/JWT_SECRET .* is required/);
  });
});

describe('DATABASE_WORK_MEM', () => {
  const secret = 'x'.repeat(40);
  it('is 32MB by default, may be emptied for the server’s setting, and must be a size PostgreSQL takes', () => {
    expect(loadConfig({ JWT_SECRET: secret }).databaseWorkMem).toBe('32MB');
    expect(loadConfig({ JWT_SECRET: secret, DATABASE_WORK_MEM: '' }).databaseWorkMem).toBeUndefined();
    expect(loadConfig({ JWT_SECRET: secret, DATABASE_WORK_MEM: '128MB' }).databaseWorkMem).toBe('128MB');
    for (const bad of ['32', '1kB', '9999999GB', "32MB'; --"])
      expect(() => loadConfig({ JWT_SECRET: secret, DATABASE_WORK_MEM: bad }), bad).toThrow(
        /DATABASE_WORK_MEM/,
      );
  });
});

describe('the rate limits and the storage quota (issue 25)', () => {
  it('have defaults, are read from the environment, and 0 lifts a limit', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'soc-config-'));
    try {
      const defaults = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(40) });
      expect(defaults.routeLimits.windowSeconds).toBe(60);
      expect(defaults.routeLimits.buckets.export).toEqual({ perUser: 5, perSystem: 15 });
      // issue 37: the IOC feed, the Navigator layers, webhook test events
      expect(defaults.routeLimits.buckets.feed).toEqual({ perUser: 30, perSystem: 60 });
      expect(defaults.routeLimits.buckets.layer).toEqual({ perUser: 10, perSystem: 30 });
      expect(defaults.routeLimits.buckets.webhook_test).toEqual({ perUser: 5, perSystem: 20 });
      expect(defaults.webhooks).toMatchObject({ queueMaxPerEndpoint: 500, queueMaxPerSystem: 2000 });
      expect(
        loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(40), WEBHOOK_QUEUE_MAX_PER_ENDPOINT: '50' })
          .webhooks.queueMaxPerEndpoint,
      ).toBe(50);
      expect(defaults.storageQuotaBytesPerSystem).toBe(20 * 1024 ** 3);
      const set = loadConfig({
        DATA_DIR: dataDir,
        JWT_SECRET: 'x'.repeat(40),
        RATE_LIMIT_WINDOW_SECONDS: '120',
        RATE_LIMIT_PDF_PER_USER: '0',
        RATE_LIMIT_PDF_PER_SYSTEM: '7',
        RATE_LIMIT_WEBHOOK_TEST_PER_USER: '2',
        STORAGE_QUOTA_BYTES_PER_SYSTEM: '1048576',
      });
      expect(set.routeLimits.windowSeconds).toBe(120);
      expect(set.routeLimits.buckets.pdf).toEqual({ perUser: 0, perSystem: 7 });
      expect(set.routeLimits.buckets.webhook_test).toEqual({ perUser: 2, perSystem: 20 });
      expect(set.storageQuotaBytesPerSystem).toBe(1048576);
      expect(() => loadConfig({ DATA_DIR: dataDir, RATE_LIMIT_COMMENT_PER_USER: '-1' })).toThrow(
        /RATE_LIMIT_COMMENT_PER_USER/,
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** Whose X-Forwarded-For gives the client address (README.md, "TRUST_PROXY"). */
describe('TRUST_PROXY', () => {
  const trust = (value?: string) =>
    loadConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'soc-trust-')), TRUST_PROXY: value }).trustProxy;

  it('takes false, true, a hop count or a list of addresses and CIDR ranges', () => {
    expect(trust(undefined)).toBe(false);
    expect(trust('false')).toBe(false);
    expect(trust('true')).toBe(true);
    expect(trust('1')).toBe(1);
    expect(trust('2')).toBe(2);
    expect(trust('172.28.0.10')).toEqual(['172.28.0.10']);
    expect(trust('10.0.0.5, 10.0.1.0/24,::1,loopback')).toEqual([
      '10.0.0.5',
      '10.0.1.0/24',
      '::1',
      'loopback',
    ]);
  });

  it('refuses anything else', () => {
    for (const value of ['yes please', '10.0.0.256', '10.0.0.0/33', 'proxy.internal', '1.5'])
      expect(() => trust(value), value).toThrow(/TRUST_PROXY/);
  });

  it('believes only the hops it names: the client behind a counted proxy, never a forged one', async () => {
    const { default: Fastify } = await import('fastify');
    const { fastifyTrustProxy } = await import('./config.ts');
    const ipBehind = async (tp: ReturnType<typeof trust>, xff: string) => {
      const app = Fastify({ trustProxy: fastifyTrustProxy(tp) });
      app.get('/', async (request) => request.ip);
      const res = await app.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-for': xff } });
      await app.close();
      return res.body;
    };
    // inject's peer is 127.0.0.1; the proxy replaced the header with its own peer, 198.51.100.7
    expect(await ipBehind(1, '198.51.100.7')).toBe('198.51.100.7');
    expect(await ipBehind(['127.0.0.1'], '198.51.100.7')).toBe('198.51.100.7');
    // a header appended to a forged one: one hop believed, the forged entry never
    expect(await ipBehind(1, '6.6.6.6, 198.51.100.7')).toBe('198.51.100.7');
    expect(await ipBehind(['127.0.0.1'], '6.6.6.6, 198.51.100.7')).toBe('198.51.100.7');
    expect(await ipBehind(false, '198.51.100.7')).toBe('127.0.0.1');
  });
});
