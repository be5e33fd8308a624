import { defineConfig } from 'vitest/config';

// Integration tests start real services on 127.0.0.1 and write real temp dirs; two forks fit two cores.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
