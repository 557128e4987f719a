// `npm run admin -- <command> [options]` (`npm run admin -- help` lists the commands)
import { spawn, spawnSync } from 'node:child_process';
import { SERVER_OUTPUT, SERVER_SOURCES, isStale } from './freshness.mjs';

const ADMIN_OUTPUT = 'apps/server/dist/admin-cli.js';
if (isStale(SERVER_OUTPUT, SERVER_SOURCES) || isStale(ADMIN_OUTPUT, SERVER_SOURCES)) {
  const built = spawnSync('npm', ['run', 'build', '-w', 'apps/server'], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const child = spawn(process.execPath, ['--enable-source-maps', ADMIN_OUTPUT, ...process.argv.slice(2)], {
  stdio: 'inherit',
});
child.on('exit', (code) => process.exit(code ?? 1));
