import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** A `no-restricted-imports` pattern: a path to a module's folder (`prefix`), then not index.ts. */
const moduleInternals = (prefix) => ({
  regex: `(${prefix})(?!index\\.ts$)`,
  message: 'Import another module through its index.ts (STYLE 10); export what it needs there.',
});

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'apps/server/drizzle/**', 'coverage/**'],
  },
  js.configs.recommended,
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Fastify plugins and handlers are async by contract, awaiting or not
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    files: ['apps/web/**/*.tsx', 'apps/web/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // shared code of the web app must not depend on features or the app shell; the catalogs
    // that gather each feature's texts live in app/i18n
    files: ['apps/web/src/shared/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/features/**', '**/app/**'] }],
    },
  },
  {
    // modules talk through their index.ts (STYLE 10): nothing outside a module's folder imports
    // its other files (app, plugins, lib, jobs, demo, the other modules, and their tests); a
    // module's own tests import its files freely
    files: ['apps/server/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [moduleInternals(String.raw`(^|/)modules/[^/]+/`)] }],
    },
  },
  {
    // within a module's folder, `../other/…` is another module too
    files: ['apps/server/src/modules/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [moduleInternals(String.raw`(^|/)modules/[^/]+/|^\.\./[^./][^/]*/`)] },
      ],
    },
  },
  {
    // the contracts package is shared by server and web: it imports neither
    files: ['packages/contracts/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['@soc/server*', '@soc/web*', '**/apps/**'] }],
    },
  },
);
