/**
 * Content-addressed file storage: every AssetFile's bytes live once, at blobs/ab/cd/<sha256>.
 * Completed uploads are renamed into place (never copied); a blob is removed only when no AssetFile
 * references it any more (the caller checks), together with the files derived from it (previews), so a
 * permanent delete leaves no copy of the bytes behind.
 *
 * `adopt` makes the new name durable before it resolves (the directory entries are fsynced), because
 * the caller records the blob in the database right after: a crash must not leave a row pointing at a
 * rename the disk never saw.
 */
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';

export interface BlobStore {
  pathOf(sha256: string): string;
  /** Moves a finished (synced) file into the store under its hash; drops it when the blob already exists. */
  adopt(file: string, sha256: string): Promise<void>;
  remove(sha256: string): void;
}

/** `derivedOf` names the files rendered from a blob (e.g. its preview), removed with it. */
export function createBlobStore(root: string, derivedOf: (sha256: string) => string[] = () => []): BlobStore {
  mkdirSync(root, { recursive: true });
  const pathOf = (sha256: string): string => {
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`not a sha256: ${sha256}`);
    return join(root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  };
  return {
    pathOf,
    async adopt(file, sha256) {
      const target = pathOf(sha256);
      if (existsSync(target)) {
        // Off the event loop: unlinking a large file takes a while.
        await rm(file, { force: true });
        return;
      }
      const created = mkdirSync(dirname(target), { recursive: true });
      renameSync(file, target);
      // The target's directory holds the new entry; directories created just now sit in their parents.
      const synced = [dirname(target)];
      if (created !== undefined) {
        for (let dir = dirname(target); relative(root, dir) !== '' && dir !== dirname(created); dir = dirname(dir)) synced.push(dirname(dir));
      }
      for (const dir of synced) await syncDirectory(dir);
    },
    remove(sha256) {
      rmSync(pathOf(sha256), { force: true });
      for (const file of derivedOf(sha256)) rmSync(file, { force: true });
    },
  };
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
