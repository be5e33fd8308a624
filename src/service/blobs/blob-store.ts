/**
 * Content-addressed storage: every AssetFile's bytes live once, in the database when small and kept
 * there by the upload that brought them (inline-blobs.ts), otherwise at blobs/ab/<sha256> (256
 * directories; blob-layout.ts settles the layout at start and moves stores of the earlier blobs/ab/cd/
 * layout over). Completed uploads are renamed into place (never copied); a blob is removed only when no
 * AssetFile references it any more (the caller checks), together with the files derived from it
 * (previews), so a permanent delete leaves no copy of the bytes behind.
 *
 * `adopt` makes the new name durable before it resolves, because the caller records the blob in the
 * database right after: a crash must not leave a row pointing at a rename the disk never saw. So the
 * blob's directory is fsynced after the rename, and each directory's own entry in the root is made
 * durable (the root fsynced) the first time this process uses it, whether it was created now or found
 * (an earlier process may have died between its mkdir and the sync). A blob found already in place
 * (the same bytes again) gets its directory synced too, for the same reason. Syncs of one directory
 * are shared between concurrent adopts (directory-syncs.ts).
 */
import { existsSync, renameSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { makePrivateDir, makePrivateDirAsync } from '../data-dir/private-files.js';
import { blobPath, settleBlobLayout } from './blob-layout.js';
import { DirectorySyncs } from './directory-syncs.js';
import type { InlineBlobs } from './inline-blobs.js';

/** Where a blob's bytes are: in the database, or in a file of the store. */
export type BlobSource = { bytes: Buffer } | { path: string };

export interface BlobStore {
  /** The path a blob's file has (or would have) in the store. */
  pathOf(sha256: string): string;
  /** The blob's bytes when kept inline, else the path of its file (missing if the blob is). */
  source(sha256: string): BlobSource;
  /**
   * As `source`, for a caller that read the blob's inline bytes already (`inlineBytes`, null when the
   * blob has none: its file then), joined to the row that references them.
   */
  sourceRead(sha256: string, inlineBytes: Buffer | null): BlobSource;
  has(sha256: string): boolean;
  /** Moves a finished (synced) file into the store under its hash; drops it when the blob already exists. */
  adopt(file: string, sha256: string): Promise<void>;
  /**
   * Keeps a small blob's bytes in the database (up to INLINE_BLOB_BYTES). Synchronous: call it inside
   * the transaction that records the AssetFile referencing them, so both commit or neither does.
   */
  keepInline(sha256: string, bytes: Buffer): void;
  /** Removes the blob, wherever it is, and the files derived from it. */
  remove(sha256: string): void;
}

/**
 * Opens the store at `root`, making it when missing and settling its layout first (blocking; throws a
 * `BlobLayoutError` when the store cannot be used as found). `derivedOf` names the files rendered from a
 * blob (e.g. its preview), removed with it; `inline` holds the small blobs (without it, none can be kept).
 */
export function createBlobStore(root: string, derivedOf: (sha256: string) => string[] = () => [], syncs = new DirectorySyncs(), inline?: InlineBlobs): BlobStore {
  const created = makePrivateDir(root);
  if (created !== undefined) {
    // Once, at start: the directories made just now sit in their parents.
    for (let dir = root; dir !== dirname(created); dir = dirname(dir)) syncs.syncNow(dirname(dir));
  }
  settleBlobLayout(root, (dir) => {
    syncs.syncNow(dir);
  });
  const pathOf = (sha256: string): string => blobPath(root, sha256);
  /** Directories (root/ab) that exist with their entry in the root durable (this process saw to it). */
  const durable = new Set<string>();
  const preparing = new Map<string, Promise<void>>();

  /** Makes `dir` (root/ab) exist, durably; the first call per directory does the work. */
  const prepare = (dir: string): Promise<void> => {
    if (durable.has(dir)) return Promise.resolve();
    let pending = preparing.get(dir);
    if (pending === undefined) {
      pending = (async () => {
        // On the thread pool: allocating a directory's inode can take the kernel a good part of a millisecond.
        await makePrivateDirAsync(dir);
        await syncs.sync(root);
        durable.add(dir);
      })().finally(() => preparing.delete(dir));
      preparing.set(dir, pending);
    }
    return pending;
  };

  return {
    pathOf,
    source(sha256) {
      const bytes = inline?.get(sha256);
      return bytes === undefined ? { path: pathOf(sha256) } : { bytes };
    },
    sourceRead: (sha256, inlineBytes) => (inlineBytes === null ? { path: pathOf(sha256) } : { bytes: inlineBytes }),
    has: (sha256) => inline?.has(sha256) === true || existsSync(pathOf(sha256)),
    keepInline(sha256, bytes) {
      if (inline === undefined) throw new Error('this blob store keeps no blobs inline');
      inline.put(sha256, bytes);
    },
    async adopt(file, sha256) {
      const target = pathOf(sha256);
      const dir = dirname(target);
      if (existsSync(target)) {
        // Off the event loop: unlinking a large file takes a while.
        await Promise.all([rm(file, { force: true }), prepare(dir).then(() => syncs.sync(dir))]);
        return;
      }
      await prepare(dir);
      renameSync(file, target);
      await syncs.sync(dir);
    },
    remove(sha256) {
      inline?.remove(sha256);
      rmSync(pathOf(sha256), { force: true });
      for (const file of derivedOf(sha256)) rmSync(file, { force: true });
    },
  };
}
