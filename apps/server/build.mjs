// Bundles the server (and the demo CLI) into dist/ with esbuild: one file each, workspace code
// inlined, npm packages left external. A bundle starts faster than a tree of modules.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = JSON.parse(readFileSync(path.join(here, 'package.json'), 'utf8'));
const external = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).filter(
  (name) => !name.startsWith('@soc/'),
);

export const ENTRY_POINTS = {
  main: 'src/main.ts',
  'demo-cli': 'src/demo/cli.ts',
  'admin-cli': 'src/modules/admin/admin.cli.ts',
  // `node --import ./dist/telemetry.js ./dist/main.js`: traces when OTEL_EXPORTER_OTLP_ENDPOINT is set
  telemetry: 'src/telemetry-start.ts',
  // the worker thread that parses Sigma YAML off the event loop (rules.yaml-reader.ts loads it
  // from beside the bundle that imports rules), built with every other entry
  'sigma-yaml-worker': 'src/modules/rules/rules.yaml-worker.ts',
};
const ALWAYS = ['sigma-yaml-worker'];

/** Builds `entries` (names of ENTRY_POINTS) into `outdir` (deployment.test.ts builds the admin CLI alone). */
export async function buildServer(outdir = path.join(here, 'dist'), entries = Object.keys(ENTRY_POINTS)) {
  await build({
    entryPoints: Object.fromEntries(
      [...new Set([...entries, ...ALWAYS])].map((name) => [name, path.join(here, ENTRY_POINTS[name])]),
    ),
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    external,
    logLevel: 'warning',
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildServer();
