/**
 * Vitest setup file (vitest.config.ts `setupFiles`): after a test file's last test, and after the
 * file's own afterAll hooks (hooks run as a stack, so this one runs last), removes the temp
 * directories its tests made with `tempDir`. Must never do more than that: it runs for every file.
 */
import { afterAll } from 'vitest';
import { removeTempDirs } from './temp-dir.js';

afterAll(() => {
  removeTempDirs();
});
