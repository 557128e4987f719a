import { defineProject } from 'vitest/config';

/** Browser tests: the built server on a free port, driven through Debian's Chromium. */
export default defineProject({
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['**/*.e2e.ts'],
    globalSetup: ['./global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // one browser at a time on a 2-core machine
    fileParallelism: false,
    // what a page shows after a request: 1 s (the default) is too short on a loaded 2-core machine
    expect: { poll: { timeout: 10_000 } },
  },
});
