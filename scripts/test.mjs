// `npm test`: type-check, lint, format check, build, then every Vitest project (contracts,
// server on PGlite and, with TEST_DATABASE_URL, on PostgreSQL, web, end-to-end in Chromium).
// Ends with one line: `Tests: N passed, N failed` (each check step counts as one test).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const results = { passed: 0, failed: 0, skipped: 0 };
const failedSteps = [];

function step(name, command, args) {
  console.log(`\n▶ ${name}`);
  const started = Date.now();
  const r = spawnSync(command, args, { stdio: 'inherit', env: process.env });
  const ok = r.status === 0;
  console.log(`${ok ? '✓' : '✗'} ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (ok) results.passed += 1;
  else {
    results.failed += 1;
    failedSteps.push(name);
  }
  return ok;
}

const tsProjects = ['.', 'packages/contracts', 'apps/server', 'apps/web', 'e2e'];
for (const project of tsProjects) step(`type-check ${project}`, 'npx', ['tsc', '-p', project, '--noEmit']);
step('lint', 'npx', ['eslint', '--max-warnings=0', '.']);
step('format', 'npx', ['prettier', '--check', '--log-level=warn', '.']);
const built = step('build', 'npm', ['run', 'build']);

mkdirSync('tmp', { recursive: true });
const report = 'tmp/vitest-report.json';
rmSync(report, { force: true });
const vitestArgs = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`];
// Without a build the browser tests cannot run; they are counted as failed, not skipped.
if (!built)
  vitestArgs.push('--project=contracts', '--project=server', '--project=server-pg', '--project=web');
console.log('\n▶ vitest');
spawnSync('npx', vitestArgs, { stdio: 'inherit', env: process.env });
if (existsSync(report)) {
  const json = JSON.parse(readFileSync(report, 'utf8'));
  results.passed += json.numPassedTests ?? 0;
  results.failed += json.numFailedTests ?? 0;
  results.skipped += (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
  for (const file of json.testResults ?? []) {
    if (file.status === 'failed' && !(file.assertionResults ?? []).some((a) => a.status === 'failed')) {
      results.failed += 1;
      failedSteps.push(`test file ${file.name}: ${String(file.message ?? '').split('\n')[0]}`);
    }
  }
} else {
  results.failed += 1;
  failedSteps.push('vitest (no report written)');
}
if (!built) {
  results.failed += 1;
  failedSteps.push('end-to-end tests (not run: the build failed)');
}

if (failedSteps.length) console.log(`\nFailed: ${failedSteps.join('; ')}`);
const skipped = results.skipped ? `, ${results.skipped} skipped` : '';
console.log(`\nTests: ${results.passed} passed, ${results.failed} failed${skipped}`);
process.exit(results.failed ? 1 : 0);
