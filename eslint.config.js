import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// On Node 20 one AsyncLocalStorage.run/enterWith (or an enabled createHook) turns on a hook for every
// promise of the process from then on: it cost a third of the CPU of a plain GET (issue 17). Pass what a
// request needs explicitly instead (see server/platform/warnings.ts).
const NO_PROMISE_HOOKS = {
  name: 'node:async_hooks',
  importNames: ['AsyncLocalStorage', 'createHook'],
  message: 'No AsyncLocalStorage or async hook in the service or main process: pass per-request state explicitly (issue 17).',
};

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'release/', 'coverage/', 'docs/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    // Plain Node scripts (CI summary, start, native build helpers).
    files: ['scripts/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  {
    // shared/ runs in every process, including the sandboxed renderer: no Node, no Electron.
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['node:*', 'fs', 'path', 'os', 'crypto', 'child_process', 'net', 'http', 'https', 'electron', 'better-sqlite3', 'pg', 'kysely', 'fastify'], message: 'shared/ must stay free of Node and Electron.' },
          { group: ['**/main/**', '**/server/**', '**/renderer/**', '**/preload/**'], message: 'shared/ imports nothing from the processes.' },
        ],
      }],
    },
  },
  {
    files: ['main/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['**/renderer/**'], message: 'main/ never imports renderer/.' }],
        paths: [NO_PROMISE_HOOKS],
      }],
    },
  },
  {
    // The service runs in its own process and inside the desktop's main process (embedded).
    files: ['server/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [NO_PROMISE_HOOKS] }] },
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['node:*', 'electron', 'better-sqlite3', '**/main/**', '**/server/**'], message: 'The renderer talks only to the typed bridge.' },
        ],
      }],
    },
  },
);
