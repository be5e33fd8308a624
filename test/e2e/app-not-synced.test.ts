/**
 * A file the app cannot read: listed under "Not synced" with its reason in plain words and the fix,
 * then fixed and retried from the window, and in the service after that. The tests run as root, who
 * reads a mode-000 file anyway, so the app gets a file system that answers EACCES for that one file
 * until the test "fixes" it (the engine's file system is an injected interface).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NodeFileSystem } from '../../src/main/local/node-file-system.js';
import type { ReadHandle } from '../../src/main/local/file-system.js';
import { browserSuite } from './support/browser-suite.js';
import { capture } from './support/capture.js';
import { remotePaths } from './support/headless-harness.js';

/** A real file system that refuses to open `locked.psd` while `locked` is true, as chmod 000 would. */
class LockingFileSystem extends NodeFileSystem {
  locked = true;

  override async openRead(path: string): Promise<ReadHandle> {
    if (this.locked && path.endsWith('locked.psd')) throw Object.assign(new Error(`EACCES: permission denied, open '${path}'`), { code: 'EACCES', errno: -13, syscall: 'open', path });
    return super.openRead(path);
  }
}

const fs = new LockingFileSystem();

const suite = browserSuite({ harness: { deps: { fs } } });

describe('a file that cannot be read', { timeout: 180_000 }, () => {
  it('is listed with its reason and fix, and syncs once fixed and retried', async () => {
    const h = suite.harness();
    writeFileSync(join(h.folder, 'locked.psd'), 'layers');
    writeFileSync(join(h.folder, 'fine.txt'), 'readable');
    const page = await h.open(suite.browser(), 'not-synced');
    const item = page.getByRole('listitem').filter({ hasText: 'locked.psd' });
    await item.waitFor({ timeout: 45_000 });
    await expect(item.innerText()).resolves.toMatch(/Check its sharing or permissions, then Retry\./);
    await capture(page, 'app-not-synced', 'not synced');
    await expect.poll(async () => (await remotePaths(h)), { timeout: 30_000 }).toEqual(['/fine.txt']);

    fs.locked = false;
    await item.getByRole('button', { name: /^Retry/ }).click();
    await page.getByRole('heading', { name: 'Every file syncs' }).waitFor({ timeout: 45_000 });
    await expect.poll(async () => (await remotePaths(h)), { timeout: 30_000 }).toEqual(['/fine.txt', '/locked.psd']);
    await page.close();
  });
});
