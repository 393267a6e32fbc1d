import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'migrations/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Each test file builds its own app with its own data dir or database; files run in parallel.
    pool: 'forks',
  },
})
