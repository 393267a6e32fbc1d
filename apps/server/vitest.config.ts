import os from 'node:os'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'migrations/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Each test file builds its own app with its own data dir or database; files run in parallel.
    pool: 'forks',
    // Vitest's default for a run is one worker fewer than the cores: a single worker, one file at a
    // time, on a two-core machine. These files mostly wait (on package clients, on the servers and
    // databases they start), so two run at once there.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
  },
})
