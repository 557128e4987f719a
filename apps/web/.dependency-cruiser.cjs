// The import graph of the web app (design §10.10), checked by `npm run lint:graph -w apps/web`:
// no cycles; shared/ depends on no feature and not on app/; features do not depend on app/;
// nothing imports main.tsx; a feature reaches another only through its front doors, index.ts
// and routes.ts (app/i18n also reads the features' catalogs, tests their test helpers); app
// code imports no test helper. ESLint holds the same front-door rule per file (eslint.config.js).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle makes the load order matter and the modules inseparable.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'shared-imports-no-feature',
      severity: 'error',
      comment: 'shared/ is below the features and the app: it knows neither.',
      from: { path: '^src/shared/' },
      to: { path: '^src/(features|app)/' },
    },
    {
      name: 'features-import-no-app',
      severity: 'error',
      comment: 'Features are below the app shell; the app wires them (routes, i18n).',
      from: { path: '^src/features/' },
      to: { path: '^src/app/' },
    },
    {
      name: 'nothing-imports-main',
      severity: 'error',
      comment: 'main.tsx is the entry point, not a module to reuse.',
      from: {},
      to: { path: '^src/main\\.tsx$' },
    },
    {
      name: 'feature-front-doors',
      severity: 'error',
      comment: 'Another feature is reached through its index.ts or routes.ts only.',
      from: { path: '^src/features/([^/]+)/', pathNot: '(^|/)test/|\\.test\\.tsx?$' },
      to: {
        path: '^src/features/([^/]+)/',
        pathNot: ['^src/features/$1/', '^src/features/[^/]+/(index|routes)\\.ts$'],
      },
    },
    {
      name: 'feature-front-doors-in-tests',
      severity: 'error',
      comment: 'Tests may also use another feature’s test helpers (features/<x>/test/).',
      from: { path: '^src/features/([^/]+)/.*((^|/)test/|\\.test\\.tsx?$)' },
      to: {
        path: '^src/features/([^/]+)/',
        pathNot: ['^src/features/$1/', '^src/features/[^/]+/((index|routes)\\.ts$|test/)'],
      },
    },
    {
      name: 'feature-front-doors-from-app',
      severity: 'error',
      comment: 'app/ and test/ reach a feature through its index.ts or routes.ts only.',
      from: { path: '^src/(app|test)/|^src/main\\.tsx$', pathNot: '^src/app/i18n/' },
      to: { path: '^src/features/', pathNot: '^src/features/[^/]+/(index|routes)\\.ts$' },
    },
    {
      name: 'catalogs-from-app-i18n',
      severity: 'error',
      comment: 'app/i18n reads the features’ catalogs (features/<x>/i18n/) and their front doors only.',
      from: { path: '^src/app/i18n/' },
      to: { path: '^src/features/', pathNot: '^src/features/[^/]+/((index|routes)\\.ts$|i18n/)' },
    },
    {
      name: 'no-test-helpers-in-app-code',
      severity: 'error',
      comment: 'Test helpers (test/, *.test.*) stay out of the application.',
      from: { pathNot: '(^|/)test/|\\.test\\.tsx?$' },
      to: { path: '(^|/)test/|\\.test\\.tsx?$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^src/.*\\.d\\.ts$' },
  },
};
