import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

export default defineProject({
  // `@/…` is src/, as in tsconfig.json and vite.config.ts
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  define: {
    __BUILD_ID__: JSON.stringify('test'),
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    // files share a worker's modules (antd, React, the app are imported once, not per file);
    // setup.ts still runs before each file and resets storage, the auth store and the language
    isolate: false,
    // antd components are heavy in jsdom; user-event flows need more than the 5 s default
    testTimeout: 20_000,
  },
});
