import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { SIGMA_IMPORT_LIMITS } from '@soc/contracts';
import { sigmaYaml } from '../../test/sigma-fixtures.ts';
import { decodeRuleFile, parseSigmaRule } from './rules.sigma.ts';
import { ruleFilesOf, unzipRuleFiles } from './rules.sigma-files.ts';

const ID = '5b0f6a1e-2222-4bbb-8bbb-000000000001';
const enc = (text: string) => new TextEncoder().encode(text);
const errorOf = (text: string) => {
  const parsed = parseSigmaRule(text);
  if (parsed.kind !== 'error') throw new Error(`expected an error, got ${parsed.kind}`);
  return parsed.message;
};

describe('Sigma rule → catalogue fields', () => {
  it('maps id, title, level, status, tags, logsource, references, author, dates and false positives', () => {
    const parsed = parseSigmaRule(
      sigmaYaml({
        id: ID,
        title: 'Encoded PowerShell',
        tags: [
          'attack.execution',
          'attack.stealth',
          'attack.t1059.001',
          'attack.t1027',
          'attack.s0002',
          'cve.2021-44228',
        ],
      }),
      // ATT&CK puts T1027 under stealth only, T1059.001 under execution only
      (id) => ({ 'T1059.001': ['execution'], T1027: ['stealth', 'defense-impairment'] })[id],
    );
    expect(parsed.kind).toBe('rule');
    if (parsed.kind !== 'rule') return;
    const r = parsed.rule;
    expect(r).toMatchObject({
      ruleId: ID,
      title: 'Encoded PowerShell',
      description: 'Detects encoded powershell in a test.',
      severity: 'High',
      confidence: 'Medium',
      status: 'test',
      mitreCov: { execution: ['T1059.001'], stealth: ['T1027'] },
      tactics: ['execution', 'stealth'],
      techniques: ['T1027', 'T1059', 'T1059.001'],
      platforms: ['Windows'],
      links: [{ title: 'example.com', url: `https://example.com/${ID}` }],
      sensorTuples: [{ sensor: 'windows', sensor_module: '', sensor_type: 'process_creation' }],
      author: 'Test Author, Second Author',
      authoredOn: '2024-01-02',
      modifiedOn: '2025-03-04',
      falsePositives: ['Administrators'],
    });
    expect(r.yaml).toContain('condition: selection');
  });

  it('puts every technique under every tagged tactic without ATT&CK data, under its own tactics without tactic tags', () => {
    const noData = parseSigmaRule(
      sigmaYaml({ id: ID, title: 'X', tags: ['attack.execution', 'attack.persistence', 'attack.t1053.005'] }),
    );
    expect(noData.kind === 'rule' && noData.rule.mitreCov).toEqual({
      execution: ['T1053.005'],
      persistence: ['T1053.005'],
    });
    const untagged = parseSigmaRule(sigmaYaml({ id: ID, title: 'X', tags: ['attack.t1053.005'] }), () => [
      'persistence',
    ]);
    expect(untagged.kind === 'rule' && untagged.rule.mitreCov).toEqual({ persistence: ['T1053.005'] });
  });

  it('maps status to confidence and level to severity', () => {
    const of = (status: string, level: string) => {
      const p = parseSigmaRule(sigmaYaml({ id: ID, title: 'X', status, level }));
      return p.kind === 'rule' ? [p.rule.confidence, p.rule.severity] : p.kind;
    };
    expect(of('stable', 'critical')).toEqual(['High', 'Critical']);
    expect(of('test', 'medium')).toEqual(['Medium', 'Medium']);
    expect(of('experimental', 'low')).toEqual(['Low', 'Low']);
  });

  it('skips deprecated, unsupported, informational, level-less, correlation rules and collections with a reason', () => {
    const reason = (text: string) => {
      const p = parseSigmaRule(text);
      return p.kind === 'skip' ? [p.reason, p.ruleId] : p.kind;
    };
    expect(reason(sigmaYaml({ id: ID, title: 'X', status: 'deprecated' }))).toEqual(['deprecated', ID]);
    expect(reason(sigmaYaml({ id: ID, title: 'X', status: 'unsupported' }))).toEqual(['unsupported', ID]);
    expect(reason(sigmaYaml({ id: ID, title: 'X', level: 'informational' }))).toEqual(['informational', ID]);
    expect(reason(sigmaYaml({ id: ID, title: 'X' }).replace(/^level: .*$/m, ''))).toEqual([
      'unsupported',
      ID,
    ]);
    expect(reason(`title: Many failures\nid: ${ID}\ncorrelation:\n  type: event_count\n`)).toEqual([
      'not_a_rule',
      ID,
    ]);
    expect(reason(`${sigmaYaml({ id: ID, title: 'X' })}---\nlogsource:\n  product: linux\n`)).toEqual([
      'unsupported',
      ID,
    ]);
  });

  it('refuses invalid YAML, a missing id or title, unknown tags and other malformed fields with a clear message', () => {
    expect(errorOf('title: [unclosed\nid: x\n').en).toMatch(/^Not valid YAML: /);
    expect(errorOf('title: a\ntitle: b\n').en).toMatch(/^Not valid YAML: /);
    expect(errorOf('- just\n- a list\n').en).toBe(
      'Not a Sigma rule: the document is not a mapping of fields.',
    );
    expect(errorOf(sigmaYaml({ id: ID, title: 'X' }).replace(/^id: .*$/m, '')).en).toBe(
      'The rule has no id.',
    );
    expect(errorOf(sigmaYaml({ id: ID, title: 'X' }).replace(/^title: .*$/m, '')).en).toBe(
      'The rule has no title.',
    );
    const unknown = errorOf(
      sigmaYaml({ id: ID, title: 'X', tags: ['attack.t1059', 'attack.not-a-tactic', 'foo.bar'] }),
    );
    expect(unknown.en).toBe('Unknown tags: attack.not-a-tactic, foo.bar.');
    expect(unknown.ru).toBe('Неизвестные теги: attack.not-a-tactic, foo.bar.');
    expect(errorOf(sigmaYaml({ id: ID, title: 'X', level: 'severe' })).en).toBe(
      "The rule's level is not valid.",
    );
    expect(errorOf(sigmaYaml({ id: ID, title: 'X', status: 'draft' })).en).toBe(
      "The rule's status is not valid.",
    );
    expect(errorOf(sigmaYaml({ id: 'a b', title: 'X' })).en).toBe("The rule's id is not valid.");
    expect(errorOf(sigmaYaml({ id: ID, title: 'X' }).replace(/^detection:/m, 'detectionx:')).en).toBe(
      'The rule has no detection.',
    );
    // an alias bomb stays small: expanding it is refused
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x]',
      ...Array.from(
        { length: 9 },
        (_, i) =>
          `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}]`,
      ),
    ];
    expect(parseSigmaRule(`title: X\nid: ${ID}\n${bomb.join('\n')}\n`).kind).toBe('error');
  });

  it('refuses a file over 1 MB and bytes that are not UTF-8', () => {
    const big = decodeRuleFile(new Uint8Array(10_000_000).fill(0x20));
    expect('error' in big && big.error.en).toBe('The file is larger than 1 MB.');
    const latin = decodeRuleFile(new Uint8Array([0x74, 0xe9, 0x74]));
    expect('error' in latin && latin.error.en).toBe('The file is not UTF-8 text.');
  });
});

describe('Sigma archives', () => {
  const rule = (n: number) =>
    enc(sigmaYaml({ id: `${ID.slice(0, -2)}${String(n).padStart(2, '0')}`, title: `R${n}` }));

  it('reads the YAML entries of a zip and passes over the rest', () => {
    const zip = zipSync({
      'a/one.yml': rule(1),
      'b/two.yaml': rule(2),
      'README.md': enc('x'),
      'c/': new Uint8Array(),
    });
    const read = ruleFilesOf('rules.zip', zip);
    expect(read.failures).toEqual([]);
    expect(read.files.map((f) => f.name)).toEqual(['rules.zip/a/one.yml', 'rules.zip/b/two.yaml']);
    expect(new TextDecoder().decode(read.files[0]!.bytes)).toContain('title: R1');
  });

  it('stops an entry at the per-file limit and a zip bomb at its total, refusing the whole archive', () => {
    const limits = { ...SIGMA_IMPORT_LIMITS, fileBytes: 100_000, unzippedBytes: 1_000_000, files: 20 };
    const big = zipSync(
      { 'ok.yml': rule(1), 'huge.yml': new Uint8Array(5_000_000).fill(0x20) },
      { level: 9 },
    );
    expect(big.length).toBeLessThan(50_000);
    const one = unzipRuleFiles('big.zip', big, limits);
    expect(one.files.map((f) => f.name)).toEqual(['big.zip/ok.yml']);
    expect(one.failures.map((f) => [f.file, f.message.en])).toEqual([
      ['big.zip/huge.yml', 'The file is larger than 100 KB.'],
    ]);

    const entries: Record<string, Uint8Array> = { 'first.yml': rule(1) };
    const chunk = new Uint8Array(90_000).fill(0x20);
    for (let i = 0; i < 15; i++) entries[`pad${i}.yml`] = chunk;
    const bomb = unzipRuleFiles('bomb.zip', zipSync(entries, { level: 9 }), limits);
    expect(bomb.files).toEqual([]);
    expect(bomb.failures.map((f) => [f.file, f.message.en])).toEqual([
      ['bomb.zip', 'The archive expands to more than 1 MB; nothing of it was imported.'],
    ]);

    const many: Record<string, Uint8Array> = {};
    for (let i = 0; i < 25; i++) many[`r${i}.yml`] = rule(1);
    expect(unzipRuleFiles('many.zip', zipSync(many), limits).failures.map((f) => f.message.en)).toEqual([
      'The archive holds more than 20 files; nothing of it was imported.',
    ]);
  });

  it('refuses a file that is not a zip or whose data is corrupt', () => {
    expect(ruleFilesOf('fake.zip', enc('not a zip')).failures[0]!.message.en).toMatch(
      /^Not a readable zip archive: /,
    );
    const zip = zipSync({ 'one.yml': new Uint8Array(50_000).fill(0x41) });
    const corrupt = zip.slice();
    corrupt.fill(0xff, 40, 60);
    const read = ruleFilesOf('corrupt.zip', corrupt);
    expect(read.files).toEqual([]);
    expect(read.failures.length).toBe(1);
    expect(ruleFilesOf('notes.txt', enc('x')).failures[0]!.message.en).toBe(
      'Neither a YAML file (.yml, .yaml) nor a zip archive.',
    );
  });
});
