import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MitreMatrix, RuleCoverage } from '@soc/contracts';
import { runAdminCommand } from '../../modules/admin/index.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import { buildAnalyst, buildCustomer } from '../../test/builders.ts';
import {
  CompactAttackSchema,
  fromCompact,
  repositoryCompactPath,
  stringifyCompact,
  toCompact,
} from './attack.compact.ts';
import { clearAttackCache, loadAttack, parseAttackBundle, withoutCitations } from './attack.ts';

const ROOT = path.resolve(import.meta.dirname, '../../../../..');

/** A small hand-made Enterprise bundle: two tactics, a technique with a sub-technique, flags. */
function fixtureBundle(version: string | null = '9.9') {
  const ref = (id: string, kind = 'techniques') => [
    {
      source_name: 'mitre-attack',
      external_id: id,
      url: `https://attack.mitre.org/${kind}/${id.replace('.', '/')}`,
    },
  ];
  return {
    type: 'bundle',
    objects: [
      ...(version
        ? [{ type: 'x-mitre-collection', id: 'c', name: 'Enterprise ATT&CK', x_mitre_version: version }]
        : []),
      { type: 'x-mitre-matrix', id: 'm', tactic_refs: ['tb', 'ta'], x_mitre_version: '1.0' },
      {
        type: 'x-mitre-tactic',
        id: 'ta',
        name: 'A',
        x_mitre_shortname: 'a',
        external_references: ref('TA1', 'tactics'),
      },
      {
        type: 'x-mitre-tactic',
        id: 'tb',
        name: 'B',
        x_mitre_shortname: 'b',
        external_references: ref('TA2', 'tactics'),
      },
      { type: 'malware', id: 'x', name: 'ignored' },
      {
        type: 'attack-pattern',
        id: 'p1',
        name: 'Parent',
        description: 'Long text of MITRE.',
        x_mitre_platforms: ['Windows', 'Linux'],
        external_references: ref('T0001'),
        kill_chain_phases: [
          { kill_chain_name: 'mitre-attack', phase_name: 'a' },
          { kill_chain_name: 'mitre-attack', phase_name: 'b' },
          { kill_chain_name: 'other', phase_name: 'zzz' },
        ],
      },
      {
        type: 'attack-pattern',
        id: 'p2',
        name: 'Child',
        x_mitre_is_subtechnique: true,
        x_mitre_platforms: ['Windows'],
        external_references: ref('T0001.001'),
        kill_chain_phases: [{ kill_chain_name: 'mitre-attack', phase_name: 'a' }],
      },
      { type: 'attack-pattern', id: 'p3', name: 'Old', revoked: true, external_references: ref('T0002') },
      {
        type: 'attack-pattern',
        id: 'p4',
        name: 'Dep',
        x_mitre_deprecated: true,
        external_references: ref('T0003'),
      },
      { type: 'relationship', relationship_type: 'subtechnique-of', source_ref: 'p2', target_ref: 'p1' },
    ],
  };
}

/** The facts of loaded data, for comparing two sources (descriptions aside). */
const facts = (data: ReturnType<typeof parseAttackBundle>) => ({
  version: data.version,
  tactics: data.tactics.map(({ description: _d, ...t }) => t),
  techniques: data.techniques.map(({ description: _d, ...t }) => t),
});

describe('MITRE ATT&CK loader', () => {
  it('reads the repository’s compact file without a bundle: tactics in matrix order, techniques, flags', async () => {
    const data = await loadAttack({ dataDir: '' });
    expect(data.available).toBe(true);
    expect(data.origin).toBe('compact');
    expect(data.source).toBe(repositoryCompactPath());
    expect(data.version).toMatch(/^\d+\.\d+$/);
    expect(data.tactics.map((t) => t.shortName)).toEqual([
      'reconnaissance',
      'resource-development',
      'initial-access',
      'execution',
      'persistence',
      'privilege-escalation',
      'defense-evasion',
      'credential-access',
      'discovery',
      'lateral-movement',
      'collection',
      'command-and-control',
      'exfiltration',
      'impact',
    ]);
    expect(data.tactics[0]).toMatchObject({ id: 'TA0043', name: 'Reconnaissance' });
    const live = data.techniques.filter((t) => !t.isSubtechnique && !t.isRevoked && !t.isDeprecated);
    expect(live.length).toBeGreaterThanOrEqual(190);
    const t1059 = data.byId.get('T1059')!;
    expect(t1059).toMatchObject({
      name: 'Command and Scripting Interpreter',
      url: 'https://attack.mitre.org/techniques/T1059',
      tactics: ['execution'],
      isSubtechnique: false,
    });
    expect(t1059.subTechniques).toContain('T1059.001');
    expect(data.byId.get('T1059.001')).toMatchObject({
      isSubtechnique: true,
      parentId: 'T1059',
      name: 'PowerShell',
    });
    expect(data.techniques.some((t) => t.isRevoked)).toBe(true);
    expect(data.techniques.some((t) => t.isDeprecated)).toBe(true);
    // facts only: no description texts in the repository
    expect(data.techniques.every((t) => t.description === '')).toBe(true);
    expect(readFileSync(repositoryCompactPath()!, 'utf8')).not.toContain('"description"');
    // read once, then kept
    expect(await loadAttack({ dataDir: '' })).toBe(data);
  });

  it('a configured bundle that is missing falls back to the compact file', async () => {
    const data = await loadAttack({ attackStixPath: '/nonexistent/enterprise-attack.json', dataDir: '' });
    expect(data.origin).toBe('compact');
    expect(data.byId.get('T1110')?.name).toBe('Brute Force');
  });

  it('compact data keeps every fact of the bundle and reads back the same', () => {
    const data = parseAttackBundle(fixtureBundle());
    const text = stringifyCompact(toCompact(data, 'fixture.json'));
    const compact = CompactAttackSchema.parse(JSON.parse(text));
    expect(compact.techniques.some((t) => 'description' in t)).toBe(false);
    const back = fromCompact(JSON.parse(text), 'fixture');
    expect(facts(back)).toEqual(facts(data));
    expect(back.byId.get('T0001')).toMatchObject({
      subTechniques: ['T0001.001'],
      platforms: ['Windows', 'Linux'],
    });
    // one entry a line, so that a new release reads as a diff
    expect(text.split('\n').filter((l) => /"id":"T\d/.test(l)).length).toBe(4);
    // an import into the database keeps the descriptions
    expect(fromCompact(toCompact(data, 'x', true), 'db', 'import').byId.get('T0001')?.description).toBe(
      'Long text of MITRE.',
    );
    expect(() => fromCompact({ format: 'other' }, 'x')).toThrow();
  });

  it('scripts/attack-compact.mjs derives the compact file from a bundle', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'attack-compact-'));
    const bundle = path.join(dir, 'bundle.json');
    const out = path.join(dir, 'out.json');
    writeFileSync(bundle, JSON.stringify(fixtureBundle(null)));
    const run = spawnSync(
      process.execPath,
      [path.join(ROOT, 'scripts/attack-compact.mjs'), bundle, out, '--attack-version', '9.8'],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('ATT&CK 9.8: 2 tactics, 3 techniques, 1 sub-techniques');
    const written = readFileSync(out, 'utf8');
    expect(written).toBe(
      stringifyCompact(toCompact({ ...parseAttackBundle(fixtureBundle('9.8')) }, 'bundle.json')),
    );
  }, 60_000);

  it('parses a hand-made bundle and ignores other object types', () => {
    const ref = (id: string, kind = 'techniques') => [
      { source_name: 'mitre-attack', external_id: id, url: `https://attack.mitre.org/${kind}/${id}` },
    ];
    expect(parseAttackBundle(fixtureBundle('18.1')).version).toBe('18.1');
    const data = parseAttackBundle({
      type: 'bundle',
      objects: [
        { type: 'x-mitre-collection', id: 'c', x_mitre_version: '9.9' },
        // the matrix object's own version is not the ATT&CK release
        { type: 'x-mitre-matrix', id: 'm', tactic_refs: ['tb', 'ta'], x_mitre_version: '1.0' },
        {
          type: 'x-mitre-tactic',
          id: 'ta',
          name: 'A',
          x_mitre_shortname: 'a',
          external_references: ref('TA1', 'tactics'),
        },
        {
          type: 'x-mitre-tactic',
          id: 'tb',
          name: 'B',
          x_mitre_shortname: 'b',
          external_references: ref('TA2', 'tactics'),
        },
        { type: 'malware', id: 'x', name: 'ignored' },
        {
          type: 'attack-pattern',
          id: 'p1',
          name: 'Parent',
          external_references: ref('T0001'),
          kill_chain_phases: [
            { kill_chain_name: 'mitre-attack', phase_name: 'a' },
            { kill_chain_name: 'mitre-attack', phase_name: 'b' },
            { kill_chain_name: 'other', phase_name: 'zzz' },
          ],
        },
        {
          type: 'attack-pattern',
          id: 'p2',
          name: 'Child',
          x_mitre_is_subtechnique: true,
          external_references: ref('T0001.001'),
          kill_chain_phases: [{ kill_chain_name: 'mitre-attack', phase_name: 'a' }],
        },
        { type: 'attack-pattern', id: 'p3', name: 'Old', revoked: true, external_references: ref('T0002') },
        {
          type: 'attack-pattern',
          id: 'p4',
          name: 'Dep',
          x_mitre_deprecated: true,
          external_references: ref('T0003'),
        },
        { type: 'relationship', relationship_type: 'subtechnique-of', source_ref: 'p2', target_ref: 'p1' },
      ],
    });
    expect(data.version).toBe('9.9');
    expect(data.tactics.map((t) => t.id)).toEqual(['TA2', 'TA1']);
    expect(data.byId.get('T0001')).toMatchObject({ tactics: ['b', 'a'], subTechniques: ['T0001.001'] });
    expect(data.byId.get('T0001.001')).toMatchObject({ parentId: 'T0001', isSubtechnique: true });
    expect(data.byId.get('T0002')?.isRevoked).toBe(true);
    expect(data.byId.get('T0003')?.isDeprecated).toBe(true);
    expect(() => parseAttackBundle({ nope: 1 })).toThrow();
  });

  it('drops citation markers from a description, keeping the sentences around them', () => {
    expect(
      withoutCitations(
        'Guess passwords.(Citation: TrendMicro Pawn Storm Dec 2020) Then log in (Citation: A)(Citation: Microsoft (2020) Guide).\n\nSee [T1078](https://attack.mitre.org/techniques/T1078). (Citation: B)',
      ),
    ).toBe('Guess passwords. Then log in.\n\nSee [T1078](https://attack.mitre.org/techniques/T1078).');
  });

  it('answers with no data when there is no bundle, no download and no compact file', async () => {
    clearAttackCache();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'attack-'));
    const none = await loadAttack({ dataDir, attackDownloadUrl: '', attackCompactPath: null });
    expect(none.available).toBe(false);
    expect(none.techniques).toEqual([]);
    const missing = await loadAttack({
      attackStixPath: path.join(dataDir, 'missing.json'),
      dataDir,
      attackCompactPath: null,
    });
    expect(missing.available).toBe(false);
    // without network the compact file still names every technique
    const offline = await loadAttack({ dataDir, attackDownloadUrl: '' });
    expect(offline.origin).toBe('compact');
  });
});

describe('GET /soc/mitre_matrix/', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ incidents: 0 });
  });
  afterAll(() => ctx.close());

  it('serves the tactics and techniques with MITRE’s notice, to signed-in users only', async () => {
    const access = await (await buildCustomer(ctx)).login();
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/soc/mitre_matrix/',
      headers: bearer(access),
    });
    expect(res.statusCode).toBe(200);
    const m = res.json<MitreMatrix>();
    expect(m.available).toBe(true);
    expect(m.tactics).toHaveLength(14);
    expect(m.tactics[2]).toEqual({
      id: 'TA0001',
      name: 'Initial Access',
      short_name: 'initial-access',
      is_hidden: false,
    });
    expect(
      m.techniques.filter((t) => !t.is_subtechnique && !t.is_revoked && !t.is_deprecated).length,
    ).toBeGreaterThanOrEqual(190);
    expect(m.techniques.find((t) => t.technique_id === 'T1110')).toMatchObject({
      name: 'Brute Force',
      tactics: ['credential-access'],
    });
    expect(m.notice).toContain('The MITRE Corporation');
    const anon = await ctx.app.inject({ method: 'GET', url: '/api/v0/soc/mitre_matrix/' });
    expect(anon.statusCode).toBe(401);
  });

  it('`attack import` loads a bundle into the database: every instance serves its version next', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'attack-import-'));
    const file = path.join(dir, 'enterprise-attack-9.9.json');
    writeFileSync(file, JSON.stringify(fixtureBundle('9.9')));
    const run = (argv: string[]) => runAdminCommand(argv, { db: ctx.database.db, config: ctx.config });
    expect(await run(['attack', 'show'])).toContain('No bundle imported');
    const printed = JSON.parse(await run(['attack', 'import', file])) as Record<string, unknown>;
    expect(printed).toMatchObject({ version: '9.9', tactics: 2, techniques: 3, sub_techniques: 1 });
    expect(JSON.parse(await run(['attack', 'show']))).toMatchObject({
      version: '9.9',
      source: 'enterprise-attack-9.9.json',
    });

    const access = await (await buildAnalyst(ctx)).login();
    const m = (
      await ctx.app.inject({ method: 'GET', url: '/api/v0/soc/mitre_matrix/', headers: bearer(access) })
    ).json<MitreMatrix>();
    expect(m.version).toBe('9.9');
    expect(m.tactics.map((t) => t.short_name)).toEqual(['b', 'a']);
    expect(m.techniques.find((t) => t.technique_id === 'T0001')).toMatchObject({
      description: 'Long text of MITRE.',
      sub_techniques: ['T0001.001'],
    });
    const coverage = (
      await ctx.app.inject({ method: 'GET', url: '/api/v0/soc/rules/coverage/', headers: bearer(access) })
    ).json<RuleCoverage>();
    expect(coverage.attack_version).toBe('9.9');
    expect(coverage.techniques.map((t) => t.technique_id)).toEqual(['T0001', 'T0001.001']);

    const broken = path.join(dir, 'broken.json');
    writeFileSync(broken, '{"nope": 1}');
    await expect(run(['attack', 'import', broken])).rejects.toThrow(/not a STIX bundle/);
    await expect(run(['attack', 'import', path.join(dir, 'missing.json')])).rejects.toThrow(/Cannot read/);
  });
});
