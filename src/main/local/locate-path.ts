/**
 * Finds where a relPath is on disk. Names on disk may be spelled NFD (macOS HFS+, files copied from
 * one) while relPaths are NFC, so a non-ASCII segment is matched against its directory's listing; and
 * no directory on the way may be a symlink, so each one is lstat-ed rather than trusting the kernel to
 * walk the path. One PathLocator serves one batch of lookups and caches what it learned; it must not
 * outlive the batch (the disk moves on).
 */
import { join } from 'node:path';
import type { DirEntry, FileStat, FileSystem } from './file-system.js';
import { errnoCode } from './local-error.js';
import { isAscii, nfc, relSegments } from './rel-path.js';

export type Located =
  /** `absPath` is the path with the names as spelled on disk; `stat` is its lstat. */
  | { kind: 'found'; absPath: string; stat: FileStat }
  /** Nothing there; `absPath` is where it would be (existing directories spelled as on disk). */
  | { kind: 'missing'; absPath: string }
  /** A directory on the way is a symlink or not a directory: nothing below it belongs to the root. */
  | { kind: 'blocked'; at: string; what: 'symlink' | 'not-directory' }
  /** A directory on the way (or the entry) could not be read; `code` is the errno. */
  | { kind: 'unreadable'; at: string; code: string }
  /** Two names in one directory spell the same NFC name. */
  | { kind: 'clash'; at: string };

export class PathLocator {
  private readonly listings = new Map<string, DirEntry[]>();
  private readonly directories = new Map<string, string>();

  constructor(
    private readonly fs: FileSystem,
    private readonly root: string,
  ) {
    this.directories.set('', root);
  }

  async locate(relPath: string): Promise<Located> {
    const segments = relSegments(relPath);
    let dirAbs = this.root;
    let prefix = '';
    for (const [index, segment] of segments.entries()) {
      prefix = prefix === '' ? segment : `${prefix}/${segment}`;
      const last = index === segments.length - 1;
      const cached = last ? undefined : this.directories.get(prefix);
      if (cached !== undefined) {
        dirAbs = cached;
        continue;
      }
      const named = await this.diskName(dirAbs, segment);
      if (typeof named === 'object') return { ...named, at: prefix };
      if (named === undefined) return { kind: 'missing', absPath: join(dirAbs, ...segments.slice(index)) };
      const absPath = join(dirAbs, named);
      let stat: FileStat;
      try {
        stat = await this.fs.lstat(absPath);
      } catch (error) {
        const code = errnoCode(error) ?? 'EIO';
        if (code === 'ENOENT') return { kind: 'missing', absPath: join(dirAbs, ...segments.slice(index)) };
        if (code === 'ENOTDIR') return { kind: 'blocked', at: prefix, what: 'not-directory' };
        return { kind: 'unreadable', at: prefix, code };
      }
      if (last) return { kind: 'found', absPath, stat };
      if (stat.kind === 'symlink') return { kind: 'blocked', at: prefix, what: 'symlink' };
      if (stat.kind !== 'directory') return { kind: 'blocked', at: prefix, what: 'not-directory' };
      this.directories.set(prefix, absPath);
      dirAbs = absPath;
    }
    return { kind: 'found', absPath: this.root, stat: await this.fs.stat(this.root) };
  }

  /**
   * The on-disk spelling of the NFC `segment` in `dirAbs`: itself for ASCII (one spelling only), else
   * the single listing entry that normalises to it. undefined when there is none.
   */
  private async diskName(dirAbs: string, segment: string): Promise<string | undefined | { kind: 'clash' } | { kind: 'unreadable'; code: string }> {
    if (isAscii(segment)) return segment;
    let listing = this.listings.get(dirAbs);
    if (listing === undefined) {
      try {
        listing = await this.fs.readdir(dirAbs);
      } catch (error) {
        const code = errnoCode(error) ?? 'EIO';
        if (code === 'ENOENT') return undefined;
        return { kind: 'unreadable', code };
      }
      this.listings.set(dirAbs, listing);
    }
    let found: string | undefined;
    for (const entry of listing) {
      if (nfc(entry.name) !== segment) continue;
      if (found !== undefined) return { kind: 'clash' };
      found = entry.name;
    }
    return found;
  }
}
