import { defineProject } from 'vitest/config';

/** The server suite again, each test file on its own database of the PostgreSQL at TEST_DATABASE_URL. */
export default defineProject({
  test: {
    name: 'server-pg',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    globalSetup: ['src/test/global-setup.ts'],
    env: { TZ: 'UTC', TEST_DB_DRIVER: 'pg' },
    testTimeout: 30_000,
    hookTimeout: 180_000,
  },
});
