/**
 * Temp directories for tests. `tempDir(prefix)` makes a fresh directory under the OS temp dir and
 * registers it; test/support/remove-temp-dirs.ts (a vitest setup file, so every test file has it)
 * removes every registered directory after the file's last test and last hook, so a test never
 * cleans up its own. The one way tests make a temp directory: none calls `mkdtempSync` itself.
 * Must never remove what it did not make; outside vitest (bench scripts) nothing is removed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/** A new empty directory `<tmp>/<prefix>XXXXXX`, removed after the test file's last test. */
export function tempDir(prefix = 'asset-sync-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Removes every directory `tempDir` made so far (the setup file's afterAll). */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
