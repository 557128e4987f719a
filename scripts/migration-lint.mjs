// `npm run lint:migrations` (a step of `npm test`): Squawk, the PostgreSQL migration linter, over
// the migrations newer than the baseline, with the rules of .squawk.toml (docs/operations.md,
// "Migrations"). The migrations up to the baseline shipped before the linter and are not linted;
// instead each must keep the SHA-256 recorded below: an applied migration is never run again, so
// an edit of one would change new installations only.
//
//   node scripts/migration-lint.mjs [folder]   (default apps/server/drizzle)
//
// Exits 1 on any finding or changed baseline file. Squawk's binary comes from the npm registry
// (squawk-cli's optional dependency for the platform); nothing is downloaded at run time.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const folder = path.resolve(process.argv[2] ?? path.join(root, 'apps/server/drizzle'));
const baseline = JSON.parse(readFileSync(path.join(import.meta.dirname, 'migration-baseline.json'), 'utf8'));

const files = readdirSync(folder)
  .filter((name) => /^\d{4}_.*\.sql$/.test(name))
  .sort();
const changed = [];
const toLint = [];
for (const name of files) {
  const number = Number(name.slice(0, 4));
  if (number > baseline.last) {
    toLint.push(path.join(folder, name));
    continue;
  }
  const sum = createHash('sha256')
    .update(readFileSync(path.join(folder, name)))
    .digest('hex');
  if (baseline.sha256[name] !== sum) changed.push(name);
}

if (changed.length) {
  console.error(
    `Migrations up to ${String(baseline.last).padStart(4, '0')} were released and must not change ` +
      `(write a new migration instead): ${changed.join(', ')}`,
  );
}
let linted = true;
if (toLint.length) {
  const result = spawnSync(
    path.join(root, 'node_modules/.bin/squawk'),
    ['--config', path.join(root, '.squawk.toml'), '--reporter', 'gcc', ...toLint],
    { stdio: 'inherit' },
  );
  linted = result.status === 0;
  if (result.error) console.error(result.error.message);
}
console.log(
  `migration lint: ${toLint.length} migration(s) after ${String(baseline.last).padStart(4, '0')} linted` +
    `${linted ? '' : ' with findings'}, ${changed.length} released one(s) changed`,
);
process.exit(linted && !changed.length ? 0 : 1);
