import { defineConfig } from 'vitest/config';

const projects = ['packages/contracts', 'apps/server', 'apps/web', 'e2e'];
// The server suite runs a second time on a real PostgreSQL when one is configured (DESIGN §6).
if (process.env.TEST_DATABASE_URL) projects.push('apps/server/vitest.pg.config.ts');

export default defineConfig({
  test: {
    projects,
  },
});
