import { defineProject } from 'vitest/config';

/** The server suite again, each test file on its own database of the PostgreSQL at TEST_DATABASE_URL. */
export default defineProject({
  test: {
    name: 'server-pg',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    globalSetup: ['src/test/global-setup.ts'],
    env: { TZ: 'UTC', TEST_DB_DRIVER: 'pg' },
    // one worker process runs the files one after another (the default on 2 cores) and keeps
    // its modules, so the app is imported and PGlite compiled once rather than per file; each
    // file still gets its own database and app (figures in docs/testing.md)
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 180_000,
  },
});
