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
    testTimeout: 30_000,
    hookTimeout: 180_000,
  },
});
