import { defineConfig } from 'vitest/config';

// Integration tests start real services on 127.0.0.1 and write real temp dirs; two forks fit two cores.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'sim/**/*.test.ts', 'bench/**/*.test.ts'],
    // The browser tests (test/e2e) load the built renderer: build it first when its sources changed.
    globalSetup: ['test/e2e/support/build-renderer.ts'],
    // Removes the temp directories each test file made with test/support/temp-dir.ts, after its last test.
    setupFiles: ['test/support/remove-temp-dirs.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
