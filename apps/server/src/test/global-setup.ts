import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

/**
 * Gives the run a directory (and an id) where the harness builds each demo data set once for all
 * test files, and one for the files' copies; afterwards removes both and the PostgreSQL template
 * databases built under the id.
 */
export default function setup(project: TestProject) {
  const id = `${process.pid}_${randomBytes(3).toString('hex')}`;
  const dir = mkdtempSync(path.join(tmpdir(), 'soc-templates-'));
  // the test files' own copies of PGlite data directories: in memory where there is a tmpfs
  const scratch = mkdtempSync(path.join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'soc-pglite-'));
  project.provide('socTemplateDir', dir);
  project.provide('socScratchDir', scratch);
  project.provide('socTemplateId', id);
  return async () => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) return;
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ datname: string }>(
        'SELECT datname FROM pg_database WHERE datname LIKE $1',
        [`soc_tmpl_${id}_%`],
      );
      for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    } finally {
      await client.end();
    }
  };
}
