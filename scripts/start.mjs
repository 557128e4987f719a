// `npm start`: builds what is out of date, then runs the server (embedded database unless
// DATABASE_URL is set), which loads demo data into an empty database and prints the logins.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ATTACK_STIX_PATH } from './data-paths.mjs';
import { SERVER_OUTPUT, SERVER_SOURCES, WEB_OUTPUT, WEB_SOURCES, isStale } from './freshness.mjs';

const run = (args) => {
  const result = spawnSync('npm', args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

if (isStale(WEB_OUTPUT, WEB_SOURCES)) {
  console.log('Building the web app…');
  run(['run', 'build', '-w', 'apps/web']);
}
if (isStale(SERVER_OUTPUT, SERVER_SOURCES)) {
  console.log('Building the server…');
  run(['run', 'build', '-w', 'apps/server']);
}

// MITRE ATT&CK data (docs/design.md §2): ATTACK_STIX_PATH, else the bundle beside the repository
const defaults = ATTACK_STIX_PATH === undefined ? {} : { ATTACK_STIX_PATH };

// traces (when OTEL_EXPORTER_OTLP_ENDPOINT is set) start before the server's modules load
const telemetry = [
  '--import',
  pathToFileURL(path.resolve(import.meta.dirname, '../apps/server/dist/telemetry.js')).href,
];
const child = spawn(
  process.execPath,
  ['--enable-source-maps', ...telemetry, SERVER_OUTPUT, ...process.argv.slice(2)],
  {
    stdio: 'inherit',
    env: { NODE_ENV: 'production', ...defaults, ...process.env },
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
