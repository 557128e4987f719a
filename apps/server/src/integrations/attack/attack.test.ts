import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MitreMatrix } from '@soc/contracts';
import { testConfig } from '../../config.ts';
import type { TestContext } from '../../test/harness.ts';
import { bearer, createTestContext } from '../../test/harness.ts';
import { buildCustomer } from '../../test/builders.ts';
import { clearAttackCache, loadAttack, parseAttackBundle, withoutCitations } from './attack.ts';

const BUNDLE = testConfig().attackStixPath!;

describe('MITRE ATT&CK loader', () => {
  it('reads the Enterprise bundle: tactics in matrix order, techniques, sub-techniques, flags', async () => {
    expect(existsSync(BUNDLE), `ATT&CK bundle at ${BUNDLE}`).toBe(true);
    const data = await loadAttack({ attackStixPath: BUNDLE, dataDir: '' });
    expect(data.available).toBe(true);
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
    // read once, then kept
    expect(await loadAttack({ attackStixPath: BUNDLE, dataDir: '' })).toBe(data);
  });

  it('parses a hand-made bundle and ignores other object types', () => {
    const ref = (id: string, kind = 'techniques') => [
      { source_name: 'mitre-attack', external_id: id, url: `https://attack.mitre.org/${kind}/${id}` },
    ];
    const data = parseAttackBundle({
      type: 'bundle',
      objects: [
        { type: 'x-mitre-matrix', id: 'm', tactic_refs: ['tb', 'ta'], x_mitre_version: '9.9' },
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

  it('answers with no data when there is no bundle and no download', async () => {
    clearAttackCache();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'attack-'));
    const none = await loadAttack({ dataDir, attackDownloadUrl: '' });
    expect(none.available).toBe(false);
    expect(none.techniques).toEqual([]);
    const missing = await loadAttack({ attackStixPath: path.join(dataDir, 'missing.json'), dataDir });
    expect(missing.available).toBe(false);
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
});
