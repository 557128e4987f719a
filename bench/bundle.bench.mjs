// Size of the JavaScript a browser loads before the first screen (the entry, its preloads and
// the interface language's pack), gzipped. Issue 14 target: under 300 KB; the bench fails above.
// Builds the web app first; `node scripts/bundle-size.mjs` measures an existing build.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const build = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'ignore' });
if (build.status !== 0) {
  console.error('the web build failed: run `npm run build -w apps/web` to see why');
  process.exit(1);
}
const measured = spawnSync(process.execPath, [path.join(root, 'scripts/bundle-size.mjs')], {
  stdio: 'inherit',
});
process.exit(measured.status ?? 1);
