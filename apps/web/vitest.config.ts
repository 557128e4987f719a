import { defineProject } from 'vitest/config';

export default defineProject({
  define: {
    __BUILD_ID__: JSON.stringify('test'),
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    // antd components are heavy in jsdom; user-event flows need more than the 5 s default
    testTimeout: 20_000,
  },
});
