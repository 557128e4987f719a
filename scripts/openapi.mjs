// The served OpenAPI document and the typed client's types, generated (never committed):
//   tmp/openapi.json                              the document as GET /api/v0/docs/json serves it
//   apps/server/src/test/generated/openapi.d.ts   openapi-typescript's types of it (git-ignored)
// `npm run build`, `npm run typecheck` and `npm test` run it first: the analyst API's client test
// (apps/server/src/modules/soc-api/soc-api.client.test.ts) type-checks against these types.
// `node scripts/openapi.mjs lint` then lints the document with Redocly (redocly.yaml), offline.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';

const DOCUMENT = 'tmp/openapi.json';
const TYPES = 'apps/server/src/test/generated/openapi.d.ts';
// no telemetry, no update check: the lint runs offline
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };

function run(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit', env });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')}: exit ${code}`)),
    );
  });
}

try {
  if (process.argv[2] === 'lint') {
    await run('npx', ['redocly', 'lint', DOCUMENT, '--config', 'redocly.yaml', '--format', 'stylish']);
  } else {
    mkdirSync('tmp', { recursive: true });
    await run('npx', ['tsx', 'apps/server/src/openapi/openapi.cli.ts', DOCUMENT]);
    await run('npx', ['openapi-typescript', DOCUMENT, '--output', TYPES]);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
