import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rules } from '../db/schema/index.ts';
import type { TestContext } from '../test/harness.ts';
import { createTestContext } from '../test/harness.ts';
import { writeSigmaFolder } from '../test/sigma-fixtures.ts';
import { DETECTION_RULES } from './catalog.ts';
import { Rng } from './rng.ts';
import { generateDemoRules } from './rules.ts';

// the public SigmaHQ rules in SIGMA_RULES_DIR (`npm test` sets it when it finds them, see
// scripts/data-paths.mjs); without them a few rules of our own
const SIGMA_RULES = process.env.SIGMA_RULES_DIR;
const NOW = new Date('2026-11-20T12:00:00Z');
let ctx: TestContext;
const tmp = mkdtempSync(path.join(tmpdir(), 'demo-sigma-'));
const shared = SIGMA_RULES !== undefined && existsSync(SIGMA_RULES);
const folder = shared ? SIGMA_RULES : path.join(tmp, 'rules');

beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
  if (!shared) writeSigmaFolder(folder);
}, 120_000);
afterAll(async () => {
  await ctx?.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** The catalogue built anew from the seed (the empty template holds the generated one). */
async function build(sigma: boolean) {
  const db = ctx.database.db;
  await db.execute(sql`DELETE FROM rules`);
  const count = await generateDemoRules(db, {
    rng: new Rng(7),
    now: NOW,
    count: shared ? 300 : 15,
    ...(sigma ? { sigma: { folder } } : {}),
  });
  const rows = await db.select().from(rules).orderBy(asc(rules.ruleId));
  return { count, rows };
}

describe('npm run demo -- --sigma DIR', () => {
  it('builds the catalogue from a deterministic choice of Sigma rules beside the incidents’ detections', async () => {
    const first = await build(true);
    const sigmaRows = first.rows.filter((r) => r.source === 'sigma');
    expect(first.count).toBe(first.rows.length);
    // the detection names the demo incidents carry are kept
    expect(
      first.rows
        .filter((r) => r.source === null)
        .map((r) => r.name)
        .sort(),
    ).toEqual([...DETECTION_RULES].sort());
    if (shared) {
      expect(sigmaRows.length).toBeGreaterThan(250);
      expect(sigmaRows.length).toBeLessThanOrEqual(290);
    } else expect(sigmaRows.length).toBe(3);
    expect(sigmaRows.every((r) => r.sourceYaml && r.availableForServices.length >= 1)).toBe(true);
    expect(new Set(sigmaRows.map((r) => r.created.toISOString())).size).toBeGreaterThan(1);
    if (shared) expect(new Set(sigmaRows.flatMap((r) => r.tactics)).size).toBeGreaterThan(8);

    const again = await build(true);
    expect(again.rows.map((r) => [r.ruleId, r.availableForServices, r.created.toISOString()])).toEqual(
      first.rows.map((r) => [r.ruleId, r.availableForServices, r.created.toISOString()]),
    );
  }, 120_000);

  it('keeps the generated rules without it', async () => {
    const { rows } = await build(false);
    expect(rows.length).toBe(shared ? 300 : 15);
    expect(await ctx.database.db.$count(rules, eq(rules.source, 'sigma'))).toBe(0);
  });
});
