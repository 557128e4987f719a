import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // fault tests that need a real PostgreSQL server run in the server-pg project only
    exclude: ['src/**/*.pg.test.ts', '**/node_modules/**'],
    globalSetup: ['src/test/global-setup.ts'],
    env: { TZ: 'UTC' },
    // one worker process runs the files one after another (the default on 2 cores) and keeps
    // its modules, so the app is imported and PGlite compiled once rather than per file; each
    // file still gets its own database and app (figures in docs/testing.md)
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 180_000,
  },
});
