// SQL injection scan (issue 15): Debian's sqlmap against the production build on 127.0.0.1, with
// a bearer token, on several list endpoints and their filters (GET parameters), level 2 risk 1,
// every target bounded in time. The report (the token redacted) goes to
// bench/results/sqlmap-latest.txt; the script fails if sqlmap reports an injectable parameter, or
// if a target could not be scanned to its end. Uses the soak's database (faults_soak).
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

process.env.BENCH_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/faults_soak';
const { ROOT, ensureDataSet, signIn, startServer } = await import('../support.mjs');

const SQLMAP = process.env.SQLMAP ?? '/usr/bin/sqlmap';
const TARGET_TIMEOUT_S = Number(process.env.SQLMAP_TARGET_TIMEOUT_SECONDS ?? 180);

const data = ensureDataSet({ incidents: 20_000, systems: 10, users: 50 });
const server = await startServer({ ACCESS_TOKEN_TTL_SECONDS: '3600' });
const report = [];
const say = (line) => {
  console.log(line);
  report.push(line);
};
let failed = false;
const work = mkdtempSync(path.join(tmpdir(), 'soc-sqlmap-'));
try {
  const token = await signIn(server.url, 'analyst');
  const list = await fetch(`${server.url}/api/v0/soc/incs/?limit=1`, {
    headers: { authorization: `Bearer ${token}` },
  }).then((r) => r.json());
  const key = list.results[0].key;
  const day = 86_400_000;
  const now = Date.now();
  /** The lists and the filters scanned (every GET parameter of each URL is tested). */
  const targets = [
    `/api/v0/soc/incs/?limit=40&offset=0&ordering=-created&status__in=work_in_progress&priority__in=high&search=phishing&created__gte=${now - 30 * day}`,
    `/api/v0/soc/incs/analytics/?created__gte=${now - 30 * day}&created__lte=${now}&system__in=1&priority__in=critical`,
    `/api/v0/soc/alerts/?ordering=-severity&incident__in=${key}&search=lsass&page=1`,
    `/api/v0/soc/incs/${key}/comments/?search=log&page=1&page_size=10`,
    '/api/v0/cmdb/assets/?search=srv&ordering=name&page=1&os__in=Windows',
  ];
  say(`sqlmap ${SQLMAP} on ${server.url} (${data.count} incidents), ${new Date().toISOString()}`);
  say(
    `options: --batch --level=2 --risk=1 --time-sec=2 --timeout=10 --retries=1, ${TARGET_TIMEOUT_S} s per target`,
  );
  for (const target of targets) {
    const url = `${server.url}${target}`;
    // a preflight: the target answers 200 with this token (otherwise sqlmap would test nothing)
    const pre = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    await pre.arrayBuffer();
    say('');
    say(`=== ${target} (preflight ${pre.status})`);
    if (pre.status !== 200) {
      say('FAIL: the target does not answer 200; nothing would be tested');
      failed = true;
      continue;
    }
    const args = [
      '-u',
      url,
      '--headers',
      `Authorization: Bearer ${token}`,
      '--batch',
      '--level=2',
      '--risk=1',
      '--time-sec=2',
      '--timeout=10',
      '--retries=1',
      '--flush-session',
      '--disable-coloring',
      '--output-dir',
      work,
    ];
    const started = performance.now();
    const { code, out, timedOut } = await new Promise((resolve) => {
      const child = spawn(SQLMAP, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let text = '';
      child.stdout.on('data', (d) => (text += d));
      child.stderr.on('data', (d) => (text += d));
      let expired = false;
      const timer = setTimeout(() => {
        expired = true;
        child.kill('SIGTERM');
      }, TARGET_TIMEOUT_S * 1000);
      child.on('exit', (c) => {
        clearTimeout(timer);
        resolve({ code: c, out: text, timedOut: expired });
      });
    });
    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    const clean = out.split(token).join('[token]');
    // the lines that carry the verdicts (the whole log is long): what was tested and found
    const verdicts = clean
      .split(/\r?\n|\r/)
      .filter((l) =>
        /testing '|parameter '.*' (is|does not|might)|injectable|identified the following|all tested parameters|\[CRITICAL\]|\[ERROR\]|\[WARNING\] (GET|Cookie|User-Agent|Referer|heuristic)/.test(
          l,
        ),
      )
      .filter((l) => !/^\[\d\d:\d\d:\d\d\] \[INFO\] testing '/.test(l));
    for (const l of verdicts) say(l.trim());
    const injectable =
      /identified the following injection point|\bis vulnerable\b|parameter '[^']+' is '[^']+' injectable/.test(
        clean,
      );
    const completed = /all tested parameters do not appear to be injectable/.test(clean);
    say(`--- exit ${code}, ${seconds} s${timedOut ? ', TIMED OUT' : ''}`);
    if (injectable) {
      say('FAIL: sqlmap reports an injectable parameter');
      failed = true;
    } else if (!completed) {
      say('FAIL: sqlmap did not finish the scan of this target');
      failed = true;
    } else say('ok: no parameter injectable');
  }
  say('');
  say(failed ? 'FAIL' : 'PASS: no injectable parameter in any target');
} finally {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}
const out = path.join(ROOT, 'bench', 'results');
mkdirSync(out, { recursive: true });
writeFileSync(path.join(out, 'sqlmap-latest.txt'), `${report.join('\n')}\n`);
process.exit(failed ? 1 : 0);
