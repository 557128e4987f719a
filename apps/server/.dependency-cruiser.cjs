/**
 * The server's layer order (docs/ARCHITECTURE.md "Layers"; design §10), checked by
 * `npm run lint:graph -w apps/server`. Each layer imports only the layers below it:
 *
 *   core/                       types every layer shares (Config, AuthContext, scope, auth cache); imports nothing of src
 *   db/                         schema, client, migrations, derived SQL; imports core
 *   lib/, jobs/, telemetry.ts   generic helpers, the job runner, tracing; import core, db
 *   integrations/, config.ts    the outside world (mail, SMS, storage, OIDC, Redis, ATT&CK, national
 *                               centre) and the environment's reader; import core, db, lib
 *   plugins/                    Fastify plugins (auth, errors, limits, metrics…); import the layers above
 *   modules/                    the feature modules and their shared contract, modules/app-module.ts
 *   app.ts                      the only composition root: makes the context, registers plugins and modules
 *   main.ts, *.cli.ts, demo/,   entry points and tools: the process, the command lines, the demo data,
 *   openapi/, telemetry-start.ts the OpenAPI document
 *
 * Test code (*.test.ts, test/, security/ — the security test suite) may import anything; app code
 * never imports it. Every import counts, type-only ones too, and no import cycle is allowed.
 */
const TESTS = String.raw`\.test\.ts$|^src/test/|^src/security/`;
/** A pattern of the paths of these layers. */
const layers = (...paths) => `^src/(${paths.join('|')})`;
const CORE = String.raw`core/`;
const DB = String.raw`db/`;
const LIB = String.raw`lib/|jobs/|telemetry\.ts$`;
const INTEGRATIONS = String.raw`integrations/|config\.ts$`;
const PLUGINS = String.raw`plugins/`;
const MODULES = String.raw`modules/`;

/** A rule that the files of `from` import nothing of src outside `allowed`. */
const onlyBelow = (name, comment, from, allowed) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from, pathNot: TESTS },
  to: { path: '^src/', pathNot: layers(...allowed) },
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import cycle: the files in it cannot be understood, loaded or tested one by one.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    onlyBelow('core-imports-nothing', 'core/ is the ground floor: it imports nothing of src.', layers(CORE), [
      CORE,
    ]),
    onlyBelow('db-imports-core', 'db/ imports only core/.', layers(DB), [CORE, DB]),
    onlyBelow('lib-imports-core-db', 'lib/, jobs/ and telemetry.ts import only core/ and db/.', layers(LIB), [
      CORE,
      DB,
      LIB,
    ]),
    onlyBelow(
      'integrations-import-core-db-lib',
      'integrations/ and config.ts import only core/, db/ and lib/.',
      layers(INTEGRATIONS),
      [CORE, DB, LIB, INTEGRATIONS],
    ),
    onlyBelow(
      'plugins-import-below',
      'plugins/ never import modules/, app.ts or the tools.',
      layers(PLUGINS),
      [CORE, DB, LIB, INTEGRATIONS, PLUGINS],
    ),
    {
      name: 'modules-import-below',
      comment:
        'modules/ never import app.ts, the entry points, the demo or the tools (a module command line, *.cli.ts, is an entry point).',
      severity: 'error',
      from: { path: layers(MODULES), pathNot: `${TESTS}|\\.cli\\.ts$` },
      to: { path: '^src/', pathNot: layers(CORE, DB, LIB, INTEGRATIONS, PLUGINS, MODULES) },
    },
    {
      name: 'app-from-entry-points',
      comment: 'app.ts, the composition root, is imported only by the entry points and tools.',
      severity: 'error',
      from: { path: '^src/', pathNot: `${TESTS}|^src/(main\\.ts|openapi/|demo/)|\\.cli\\.ts$` },
      to: { path: String.raw`^src/app\.ts$` },
    },
    {
      name: 'entry-points-imported-by-none',
      comment: 'main.ts, the command lines and telemetry-start.ts are started, never imported.',
      severity: 'error',
      from: { path: '^src/', pathNot: TESTS },
      to: { path: String.raw`^src/(main\.ts|telemetry-start\.ts)$|\.cli\.ts$` },
    },
    {
      name: 'demo-from-entry-points',
      comment: 'The demo data is loaded by main.ts and its command line, never by app code.',
      severity: 'error',
      from: { path: '^src/', pathNot: `${TESTS}|^src/(main\\.ts|demo/)` },
      to: { path: '^src/demo/' },
    },
    {
      name: 'no-test-code-in-app',
      comment: 'App code never imports tests, test helpers or the security test suite.',
      severity: 'error',
      from: { path: '^src/', pathNot: TESTS },
      to: { path: TESTS },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'src/test/generated/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
