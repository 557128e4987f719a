// `node scripts/start-check.mjs`: runs `npm start` (on whichever Node runs this script) on a free
// port with a fresh data folder, waits until the portal answers /readyz and serves its page,
// then stops it. CI runs it on the machine's own Node after the suite ran on Node 24 (issue 31).
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const DEADLINE_MS = 300_000;

const freePort = () =>
  new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

const port = await freePort();
const dataDir = await mkdtemp(path.join(tmpdir(), 'soc-start-check-'));
const base = `http://127.0.0.1:${port}`;
const started = Date.now();
const child = spawn('npm', ['start'], {
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir },
  detached: true,
});
let output = '';
child.stdout.on('data', (chunk) => {
  output += chunk;
});
let exited = null;
child.on('exit', (code) => {
  exited = code;
});

async function check() {
  while (Date.now() - started < DEADLINE_MS) {
    if (exited !== null) throw new Error(`npm start exited with ${exited}:\n${output.slice(-4000)}`);
    try {
      const ready = await fetch(`${base}/readyz`);
      if (ready.ok) {
        const page = await fetch(`${base}/`);
        const html = await page.text();
        if (!page.ok || !html.includes('<div id="root">')) throw new Error(`GET / answered ${page.status}`);
        return;
      }
    } catch (err) {
      if (err instanceof Error && err.message.startsWith('GET /')) throw err;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`the portal did not become ready within ${DEADLINE_MS / 1000} s:\n${output.slice(-4000)}`);
}

try {
  await check();
  console.log(
    `npm start on Node ${process.version}: ready at ${base} after ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
} catch (err) {
  console.error(`npm start on Node ${process.version} failed: ${err.message}`);
  process.exitCode = 1;
} finally {
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    // already gone
  }
  await new Promise((resolve) => setTimeout(resolve, 2000));
  await rm(dataDir, { recursive: true, force: true });
}
