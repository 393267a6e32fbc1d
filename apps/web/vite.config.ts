import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'

const server = process.env.TROVE_DEV_SERVER ?? 'http://localhost:8080'

export default defineConfig({
  base: '/ui/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    sourcemap: false,
    chunkSizeWarningLimit: 400,
  },
  server: {
    proxy: { '/ui/api': server, '/api': server },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    css: false,
  },
})
