import { defineConfig } from 'vitest/config';

// One runner for every tier (unit, HTTP, sync, browser end-to-end), so CI reads one report.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: more workers only thrash; files that start servers and browsers dominate.
    pool: 'forks',
    maxWorkers: 2,
    reporters: process.env.CI ? ['default', ['json', { outputFile: '.vitest-report.json' }]] : ['default'],
  },
});
