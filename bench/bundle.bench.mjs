// Size of the JavaScript a browser loads before the first screen: the entry script and every
// module index.html preloads, gzipped (issue 2 target: < 350 KB for the shell).
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'apps/web/dist');
spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'ignore' });
const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const initial = [
  ...html.matchAll(/<(?:script[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="([^"]+\.js)"/g),
].map((m) => m[1]);
const size = (file) => {
  const buf = readFileSync(path.join(dist, file.replace(/^\//, '')));
  return { raw: buf.length, gz: gzipSync(buf, { level: 9 }).length };
};
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
let raw = 0;
let gz = 0;
console.log('| initial script | raw | gzip |');
console.log('|---|---|---|');
for (const file of initial) {
  const s = size(file);
  raw += s.raw;
  gz += s.gz;
  console.log(`| ${file} | ${kb(s.raw)} | ${kb(s.gz)} |`);
}
console.log(`| **initial total** | ${kb(raw)} | **${kb(gz)}** |`);
const all = readdirSync(path.join(dist, 'assets')).filter((f) => f.endsWith('.js'));
const lazy = all.map((f) => size(`assets/${f}`)).reduce((s, x) => s + x.gz, 0) - gz;
console.log(`| lazy chunks (${all.length - initial.length}) | | ${kb(lazy)} |`);
