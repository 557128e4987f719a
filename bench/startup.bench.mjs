// Cold start of `npm start` with an existing build and database: time from launching the
// command to the server's "listening" line, median of several runs (issue 2 target: < 3 s).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const RUNS = 5;
const root = path.resolve(import.meta.dirname, '..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'soc-bench-start-'));
const env = { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn', DATABASE_URL: '' };

function startOnce() {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('npm', ['start', '--silent'], { cwd: root, env, detached: true });
    let out = '';
    const onData = (d) => {
      out += d.toString();
      if (out.includes('SOC portal listening on')) {
        const ms = performance.now() - started;
        process.kill(-child.pid, 'SIGTERM');
        child.once('exit', () => resolve(ms));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (d) => (out += d.toString()));
    child.once('exit', (code) => {
      if (!out.includes('SOC portal listening on'))
        reject(new Error(`npm start exited with ${code}:\n${out}`));
    });
  });
}

spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
// First start: creates the database and loads the demo data (not measured as cold start).
const firstStart = await startOnce();
const times = [];
for (let i = 0; i < RUNS; i++) times.push(await startOnce());
rmSync(dataDir, { recursive: true, force: true });
times.sort((a, b) => a - b);
const f = (ms) => `${(ms / 1000).toFixed(2)} s`;
console.log('| measure | value |');
console.log('|---|---|');
console.log(`| first start (empty database, 5,000 demo incidents) | ${f(firstStart)} |`);
console.log(
  `| cold start to listening, existing build and data (median of ${RUNS}) | ${f(times[Math.floor(RUNS / 2)])} |`,
);
console.log(`| cold start, min / max | ${f(times[0])} / ${f(times[RUNS - 1])} |`);
