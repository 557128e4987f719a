// Bundles the server (and the demo CLI) into dist/ with esbuild: one file each, workspace code
// inlined, npm packages left external. A bundle starts faster than a tree of modules.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).filter(
  (name) => !name.startsWith('@soc/'),
);

await build({
  entryPoints: {
    main: 'src/main.ts',
    'demo-cli': 'src/demo/cli.ts',
    'admin-cli': 'src/modules/admin/admin.cli.ts',
    // `node --import ./dist/telemetry.js ./dist/main.js`: traces when OTEL_EXPORTER_OTLP_ENDPOINT is set
    telemetry: 'src/telemetry-start.ts',
  },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external,
  logLevel: 'warning',
});
