// Derives the repository's compact ATT&CK data from MITRE's Enterprise STIX 2.1 bundle:
//   node scripts/attack-compact.mjs <enterprise-attack.json> [out.json] [--attack-version 18.1]
// Facts only (ids, names, tactic membership and order, sub-technique relations, platforms,
// revoked/deprecated flags, URLs), no description texts. The default output is the file the
// server reads when no bundle is configured; MITRE's notice (NOTICE.md) stays beside it.
// MITRE's bundle names its release in its x-mitre-collection object; for a bundle without one,
// --attack-version states it.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { tsImport } from 'tsx/esm/api';

const { values, positionals } = parseArgs({
  options: { 'attack-version': { type: 'string' } },
  allowPositionals: true,
});

const ROOT = path.resolve(import.meta.dirname, '..');
const ATTACK = path.join(ROOT, 'apps/server/src/integrations/attack');
const [bundlePath, outPath = path.join(ATTACK, 'data/enterprise-attack.compact.json')] = positionals;
if (!bundlePath) {
  console.error(
    'Usage: node scripts/attack-compact.mjs <enterprise-attack.json> [out.json] [--attack-version 18.1]',
  );
  process.exit(2);
}

const { parseAttackBundle } = await tsImport(path.join(ATTACK, 'attack.ts'), import.meta.url);
const { stringifyCompact, toCompact } = await tsImport(
  path.join(ATTACK, 'attack.compact.ts'),
  import.meta.url,
);

const data = parseAttackBundle(JSON.parse(await readFile(bundlePath, 'utf8')), bundlePath);
if (values['attack-version']) data.version = values['attack-version'];
if (!data.version) console.warn('The bundle names no ATT&CK release: pass --attack-version.');
const text = stringifyCompact(toCompact(data, path.basename(bundlePath)));
await writeFile(outPath, text);
const subs = data.techniques.filter((t) => t.isSubtechnique).length;
console.log(
  `ATT&CK ${data.version ?? '(no version)'}: ${data.tactics.length} tactics, ` +
    `${data.techniques.length - subs} techniques, ${subs} sub-techniques → ${path.relative(process.cwd(), outPath)} ` +
    `(${Math.round(Buffer.byteLength(text) / 1024)} KB)`,
);
