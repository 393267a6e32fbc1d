import os from 'node:os'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'

const server = process.env.TROVE_DEV_SERVER ?? 'http://localhost:8080'

/** Mantine's input components and the hooks they share (login form, admin forms). */
const MANTINE_FORMS =
  /@mantine[\\/](core[\\/]esm[\\/]components[\\/](Input|InputBase|PasswordInput|TextInput|Checkbox|ActionIcon|Alert|CloseButton|Group|Paper)[\\/]|hooks[\\/]esm[\\/]use-(id|uncontrolled)[\\/])/

export default defineConfig({
  base: '/ui/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    sourcemap: false,
    chunkSizeWarningLimit: 400,
    // Every browser the console supports has module preloading: no polyfill in the entry.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // What the first page needs (React, the router, the query client, Mantine's core and
            // the route table) in one file: the automatic split cut it into ~20 small files, each
            // gzipped on its own, which cost ~7 KB on the login page.
            { name: 'start', tags: ['$initial'] },
            // The input pieces the sign-in form shares with every admin form, in one file.
            { name: 'forms', test: MANTINE_FORMS },
          ],
        },
      },
    },
  },
  server: {
    proxy: { '/ui/api': server, '/api': server },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    // A Mantine form rendered in jsdom takes seconds on a busy two-core machine: 5 s was too tight.
    testTimeout: 20_000,
    // jsdom keeps a core busy: Vitest's default (one worker fewer than the cores) leaves one of two
    // idle, and the suite then takes 1.6 times as long (368 s against 227 s on two cores).
    maxWorkers: Math.max(2, os.availableParallelism()),
  },
})
