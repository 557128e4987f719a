import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The rules of docs/operations.md ("Migrations"): a migration after the released baseline only
 * expands the schema, so that the previous release's server still runs on it during an upgrade
 * and after a roll back; and Squawk's lint (scripts/migration-lint.mjs) refuses what would lock a
 * big table, such as an index built without CONCURRENTLY.
 */
const root = path.resolve(import.meta.dirname, '../../../..');
const migrations = path.join(root, 'apps/server/drizzle');
const unsafe = path.join(import.meta.dirname, 'fixtures/migrations-unsafe');
const baseline = (
  JSON.parse(readFileSync(path.join(root, 'scripts/migration-baseline.json'), 'utf8')) as { last: number }
).last;

/** The statements of a migration that contract the schema: drop, rename or retype a table, column or type. */
function contractions(sql: string): string[] {
  const code = sql.replace(/--[^\n]*/g, ' ').replace(/\/\*[\s\S]*?\*\//g, ' ');
  const rules = [
    /\bDROP\s+(TABLE|COLUMN|TYPE|SCHEMA|VIEW|MATERIALIZED\s+VIEW)\b/i,
    /\bALTER\s+TABLE\b[^;]*\bDROP\s+(?!CONSTRAINT|DEFAULT|NOT\s+NULL)\w+/i,
    /\bRENAME\b/i,
    /\bALTER\s+TYPE\b/i,
    /\bALTER\s+COLUMN\s+("[^"]+"|\w+)\s+(SET\s+DATA\s+)?TYPE\b/i,
  ];
  return code
    .split(/;|-->\s*statement-breakpoint/)
    .map((statement) => statement.replace(/\s+/g, ' ').trim())
    .filter((statement) => statement && rules.some((rule) => rule.test(statement)));
}

const after = (folder: string) =>
  readdirSync(folder)
    .filter((name) => /^\d{4}_.*\.sql$/.test(name) && Number(name.slice(0, 4)) > baseline)
    .map((name) => ({ name, sql: readFileSync(path.join(folder, name), 'utf8') }));

const lint = (folder?: string) =>
  spawnSync(process.execPath, [path.join(root, 'scripts/migration-lint.mjs'), ...(folder ? [folder] : [])], {
    encoding: 'utf8',
  });

describe('migrations after the released baseline', () => {
  it('only expand the schema: no DROP, RENAME or change of type', () => {
    for (const { name, sql } of after(migrations)) expect(contractions(sql), name).toEqual([]);
  });

  it('would be caught contracting it', () => {
    const found = after(unsafe).flatMap(({ sql }) => contractions(sql));
    expect(found).toEqual([
      'ALTER TABLE "incidents" DROP COLUMN "title"',
      'ALTER TABLE "comments" RENAME TO "notes"',
      'ALTER TABLE "users" ALTER COLUMN "email" SET DATA TYPE varchar(200)',
    ]);
    expect(contractions('ALTER TABLE "t" ADD COLUMN "c" text; CREATE INDEX "i" ON "t" ("c")')).toEqual([]);
  });

  it('pass the migration lint, and the released ones are unchanged', () => {
    const result = lint();
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('fail the migration lint with an index built without CONCURRENTLY, or a dropped column', () => {
    const result = lint(unsafe);
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/0044_big_index\.sql.*require-concurrent-index-creation/);
    expect(result.stdout).toMatch(/0045_contract\.sql.*ban-drop-column/);
  });
});
