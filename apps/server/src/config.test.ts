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
