/**
 * Finds where a relPath is on disk. Names on disk may be spelled NFD (macOS HFS+, files copied from
 * one) while relPaths are NFC, so a non-ASCII segment is matched against its directory's listing; and
 * no directory on the way may be a symlink, so each one is lstat-ed rather than trusting the kernel to
 * walk the path. One PathLocator serves one batch of lookups and caches what it learned; it must not
 * outlive the batch (the disk moves on).
 */
import { basename, join } from 'node:path';
import type { DirEntry, FileStat, FileSystem } from './file-system.js';
import { errnoCode } from './local-error.js';
import { isAscii, nfc, relSegments } from './rel-path.js';

export type Located =
  /**
   * `absPath` is the path with the names as spelled on disk; `stat` is its lstat. `namesakes`: other
   * spellings of the last name in its folder (NFC and NFD side by side on a disk that keeps both).
   */
  | { kind: 'found'; absPath: string; stat: FileStat; namesakes: string[] }
  /** Nothing there; `absPath` is where it would be (existing directories spelled as on disk). */
  | { kind: 'missing'; absPath: string }
  /** A directory on the way is a symlink or not a directory: nothing below it belongs to the root. */
  | { kind: 'blocked'; at: string; what: 'symlink' | 'not-directory' }
  /** A directory on the way (or the entry) could not be read; `code` is the errno. */
  | { kind: 'unreadable'; at: string; code: string }
  /** Two names in one directory spell the same NFC name. */
  | { kind: 'clash'; at: string };

/** Every outcome of `locate` but `found`. */
export type Unlocated = Exclude<Located, { kind: 'found' }>;

/** `absPath` is the entry's path with the names as spelled on disk, its directories checked; nothing says it exists. */
export interface Named {
  kind: 'named';
  absPath: string;
}

export class PathLocator {
  private readonly listings = new Map<string, DirEntry[]>();
  private readonly directories = new Map<string, string>();

  /**
   * `exactNames`: each name must be in its directory's listing as spelled (NFC-compared), ASCII ones
   * too, so a case-insensitive disk's `Logo.png` does not answer for `logo.png`. A listing per
   * directory: for the few lookups that ask whether a path is still spelled so (a case-only rename).
   */
  constructor(
    private readonly fs: FileSystem,
    private readonly root: string,
    private readonly options: { exactNames?: boolean } = {},
  ) {
    this.directories.set('', root);
  }

  async locate(relPath: string): Promise<Located> {
    const segments = relSegments(relPath);
    if (segments.length === 0) return { kind: 'found', absPath: this.root, stat: await this.fs.stat(this.root), namesakes: [] };
    const named = await this.entry(segments);
    if (named.kind !== 'named') return named;
    let stat: FileStat | undefined;
    try {
      stat = await this.fs.lstatOrMissing(named.absPath);
    } catch (error) {
      return this.lstatFailed(error, segments, segments.length - 1, named.dirAbs);
    }
    if (stat === undefined) return { kind: 'missing', absPath: named.absPath };
    const spelled = basename(named.absPath);
    const namesakes = isAscii(spelled) ? [] : (this.listings.get(named.dirAbs) ?? []).filter((entry) => entry.name !== spelled && nfc(entry.name) === nfc(spelled)).map((entry) => entry.name);
    return { kind: 'found', absPath: named.absPath, stat, namesakes };
  }

  /**
   * Where a relPath's file is on disk, its directories checked as `locate` does and its last name
   * spelled as on disk, but the entry itself left unchecked: for a caller that opens it next without
   * following a final symlink and checks what it opened (the upload's part PUT: one fstat on the
   * descriptor it reads from instead of an lstat before it). A missing ASCII name is only found out by
   * that open; a non-ASCII one is matched against the listing and may come back `missing`.
   */
  async onDiskPath(relPath: string): Promise<Named | Unlocated> {
    const segments = relSegments(relPath);
    if (segments.length === 0) return { kind: 'named', absPath: this.root };
    const named = await this.entry(segments);
    return named.kind === 'named' ? { kind: 'named', absPath: named.absPath } : named;
  }

  /** The last segment's on-disk path and its (checked) directory; `segments` is not empty. */
  private async entry(segments: readonly string[]): Promise<(Named & { dirAbs: string }) | Unlocated> {
    const last = segments.length - 1;
    const parent = await this.directory(segments, last);
    if (parent.kind !== 'directory') return parent;
    const segment = segments[last] ?? '';
    const named = await this.diskName(parent.absPath, segment);
    if (typeof named === 'object') return { ...named, at: segments.join('/') };
    if (named === undefined) return { kind: 'missing', absPath: join(parent.absPath, segment) };
    return { kind: 'named', absPath: join(parent.absPath, named), dirAbs: parent.absPath };
  }

  /** The directory of the first `count` segments, each one on the way lstat-ed once per locator. */
  private async directory(segments: readonly string[], count: number): Promise<{ kind: 'directory'; absPath: string } | Unlocated> {
    let dirAbs = this.root;
    let prefix = '';
    for (let index = 0; index < count; index++) {
      const segment = segments[index] ?? '';
      prefix = prefix === '' ? segment : `${prefix}/${segment}`;
      const cached = this.directories.get(prefix);
      if (cached !== undefined) {
        dirAbs = cached;
        continue;
      }
      const named = await this.diskName(dirAbs, segment);
      if (typeof named === 'object') return { ...named, at: prefix };
      if (named === undefined) return { kind: 'missing', absPath: join(dirAbs, ...segments.slice(index)) };
      const absPath = join(dirAbs, named);
      let stat: FileStat | undefined;
      try {
        stat = await this.fs.lstatOrMissing(absPath);
      } catch (error) {
        return this.lstatFailed(error, segments, index, dirAbs);
      }
      if (stat === undefined) return { kind: 'missing', absPath: join(dirAbs, ...segments.slice(index)) };
      if (stat.kind === 'symlink') return { kind: 'blocked', at: prefix, what: 'symlink' };
      if (stat.kind !== 'directory') return { kind: 'blocked', at: prefix, what: 'not-directory' };
      this.directories.set(prefix, absPath);
      dirAbs = absPath;
    }
    return { kind: 'directory', absPath: dirAbs };
  }

  /** What an lstat of segment `index` (in `dirAbs`) failing means. */
  private lstatFailed(error: unknown, segments: readonly string[], index: number, dirAbs: string): Unlocated {
    const code = errnoCode(error) ?? 'EIO';
    const at = segments.slice(0, index + 1).join('/');
    if (code === 'ENOENT') return { kind: 'missing', absPath: join(dirAbs, ...segments.slice(index)) };
    if (code === 'ENOTDIR') return { kind: 'blocked', at, what: 'not-directory' };
    return { kind: 'unreadable', at, code };
  }

  /**
   * The on-disk spelling of `segment` in `dirAbs`: itself for ASCII (one spelling only), else the entry
   * spelled exactly so (a disk that keeps NFC and NFD side by side: the NFC one is the name itself, an
   * NFD `segment` is a report of the other spelling, tree-walk.ts), else, for an NFC `segment`, the single
   * entry that normalises to it. undefined when there is none. With `exactNames`, ASCII names are looked
   * up in the listing as well.
   */
  private async diskName(dirAbs: string, segment: string): Promise<string | undefined | { kind: 'clash' } | { kind: 'unreadable'; code: string }> {
    if (isAscii(segment) && this.options.exactNames !== true) return segment;
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
    if (listing.some((entry) => entry.name === segment)) return segment;
    if (nfc(segment) !== segment) return undefined;
    let found: string | undefined;
    for (const entry of listing) {
      if (nfc(entry.name) !== segment) continue;
      if (found !== undefined) return { kind: 'clash' };
      found = entry.name;
    }
    return found;
  }
}
