import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Sigma rule files for tests (written here; no rule of the public repository is copied). */
export interface SigmaFixture {
  id: string;
  title: string;
  status?: string;
  level?: string;
  tags?: string[];
  logsource?: Record<string, string>;
  extra?: string;
}

export function sigmaYaml(f: SigmaFixture): string {
  const lines = [
    `title: ${f.title}`,
    `id: ${f.id}`,
    `status: ${f.status ?? 'test'}`,
    `description: Detects ${f.title.toLowerCase()} in a test.`,
    'references:',
    `    - https://example.com/${f.id}`,
    'author: Test Author, Second Author',
    'date: 2024-01-02',
    'modified: 2025/03/04',
    'tags:',
    ...(f.tags ?? ['attack.execution', 'attack.t1059.001']).map((t) => `    - ${t}`),
    'logsource:',
    ...Object.entries(f.logsource ?? { product: 'windows', category: 'process_creation' }).map(
      ([k, v]) => `    ${k}: ${v}`,
    ),
    'detection:',
    '    selection:',
    "        Image|endswith: '\\powershell.exe'",
    '    condition: selection',
    'falsepositives:',
    '    - Administrators',
    `level: ${f.level ?? 'high'}`,
  ];
  return `${lines.join('\n')}\n${f.extra ?? ''}`;
}

/** A few rules of every outcome: three imported, one informational, one deprecated. */
export const SMALL_SET: SigmaFixture[] = [
  { id: '0f0e6a1e-1111-4aaa-8aaa-000000000001', title: 'Fixture Encoded PowerShell' },
  {
    id: '0f0e6a1e-1111-4aaa-8aaa-000000000002',
    title: 'Fixture Cron Change',
    status: 'stable',
    level: 'medium',
    tags: ['attack.persistence', 'attack.t1053.003'],
    logsource: { product: 'linux', service: 'auditd' },
  },
  {
    id: '0f0e6a1e-1111-4aaa-8aaa-000000000003',
    title: 'Fixture Cloud Key Created',
    status: 'experimental',
    level: 'critical',
    tags: ['attack.credential-access', 'attack.t1552', 'car.2013-05-009'],
    logsource: { product: 'aws', service: 'cloudtrail' },
  },
  { id: '0f0e6a1e-1111-4aaa-8aaa-000000000004', title: 'Fixture Enrichment', level: 'informational' },
  { id: '0f0e6a1e-1111-4aaa-8aaa-000000000005', title: 'Fixture Old', status: 'deprecated' },
];

/** Writes rule files into `dir` (a sub-folder for some, as the public repository has). */
export function writeSigmaFolder(dir: string, fixtures: SigmaFixture[] = SMALL_SET): void {
  mkdirSync(join(dir, 'windows'), { recursive: true });
  fixtures.forEach((f, i) =>
    writeFileSync(join(dir, i % 2 ? 'windows' : '.', `rule_${i}.yml`), sigmaYaml(f)),
  );
  writeFileSync(join(dir, 'README.md'), 'Not a rule.\n');
}
