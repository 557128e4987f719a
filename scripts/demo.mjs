// `npm run demo -- --incidents N [--systems N] [--users N] [--seed S] [--reset] [--sigma DIR]`
import { spawn, spawnSync } from 'node:child_process';
import { SERVER_OUTPUT, SERVER_SOURCES, isStale } from './freshness.mjs';

if (isStale(SERVER_OUTPUT, SERVER_SOURCES)) {
  const built = spawnSync('npm', ['run', 'build', '-w', 'apps/server'], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const child = spawn(
  process.execPath,
  ['--enable-source-maps', 'apps/server/dist/demo-cli.js', ...process.argv.slice(2)],
  {
    stdio: 'inherit',
  },
);
child.on('exit', (code) => process.exit(code ?? 1));
