/**
 * Turns a root folder into observations (observations.ts): `scan` walks all of it, `rescan` looks at
 * the paths a watcher hinted. Streams to a sink (no giant arrays), hashes only what changed since the
 * previous snapshot, and hands files that may still be changing back as `pending` instead of hashing
 * them. It only observes: it never writes, never follows a symlink, never decides what a change means.
 *
 * What the engine may conclude: after `scan`, a path it knew that was not reported is gone unless it is
 * below a `not-synced` entry with `subtreeUnknown`. After `rescan`, the same holds within the subtree of
 * each requested path, and `gone` entries say so explicitly.
 */
import { resolve } from 'node:path';
import { DEFAULT_MAX_FOLDER_DEPTH, checkName } from './check-name.js';
import type { FileStat, FileSystem } from './file-system.js';
import type { IgnoreRules } from './ignore-rules.js';
import { LocalError, errnoCode } from './local-error.js';
import { PathLocator, type Located } from './locate-path.js';
import type { LocalObservation, PreviousLookup } from './observations.js';
import { baseName, joinRel, nfc, outermostPaths, parentRel, relSegments } from './rel-path.js';
import { TreeWalk, type ReadCheck, type SettleCheck, type WalkCounts } from './tree-walk.js';

/** Hinted paths looked up at once during a rescan. */
const LOCATE_WINDOW = 32;

export type { ReadCheck, SettleCheck } from './tree-walk.js';
export type ScanSummary = WalkCounts;
export type ObservationSink = (observation: LocalObservation) => void;

export interface LocalScannerOptions {
  fs: FileSystem;
  /** Files hashed at once (default 4: small files are latency-bound, big ones disk-bound). */
  hashConcurrency?: number;
  /** Directories listed at once (default 4). */
  dirConcurrency?: number;
  /**
   * Folder levels allowed below the root (default 64, the service's limit); a root that maps to
   * `/Brand/Logos` has two fewer.
   */
  maxFolderDepth?: number;
}

export interface ScanOptions {
  /** The root's ignore rules (loadIgnoreRules); reload them when `.assetsyncignore` is hinted. */
  rules: IgnoreRules;
  /** The local snapshot: a file whose size, mtime and inode match keeps its md5 without a read. */
  previous?: PreviousLookup;
  /**
   * Called for each file that would be hashed; false reports it `pending` instead (typically
   * `(path, sig) => gate.observe(path, sig) === 'stable'`). Without it every changed file is hashed.
   */
  isSettled?: SettleCheck;
  /** Which settled, changed files may be reported unread (md5 null); without it all are hashed. */
  mayLeaveUnread?: ReadCheck;
  signal?: AbortSignal;
  /**
   * A rescan's hinted paths count only as spelled on disk (a disk that ignores case: after `A` → `a`,
   * a hint for `A/x.txt` is gone, not the file at `a/x.txt` under its old name).
   */
  exactNames?: boolean;
}

export class LocalScanner {
  private readonly fs: FileSystem;
  private readonly hashConcurrency: number;
  private readonly dirConcurrency: number;
  private readonly maxFolderDepth: number;

  constructor(options: LocalScannerOptions) {
    this.fs = options.fs;
    this.hashConcurrency = options.hashConcurrency ?? 4;
    this.dirConcurrency = options.dirConcurrency ?? 4;
    this.maxFolderDepth = options.maxFolderDepth ?? DEFAULT_MAX_FOLDER_DEPTH;
  }

  /** Everything under `root`. Rejects with ROOT_UNREADABLE when the root itself cannot be listed. */
  async scan(root: string, sink: ObservationSink, options: ScanOptions): Promise<ScanSummary> {
    const rootPath = resolve(root);
    await this.assertRootDirectory(rootPath);
    const walk = this.newWalk(sink, options, false);
    walk.addRoot(rootPath);
    return walk.run();
  }

  /**
   * What is at each of `relPaths` now (a directory is walked whole), including `gone`. A path inside
   * another requested one is covered by it; '' means the whole root.
   */
  async rescan(root: string, relPaths: Iterable<string>, sink: ObservationSink, options: ScanOptions): Promise<ScanSummary> {
    const paths = outermostPaths(relPaths);
    if (paths[0] === '') return this.scan(root, sink, options);
    const rootPath = resolve(root);
    await this.assertRootDirectory(rootPath);
    const walk = this.newWalk(sink, options, true);
    const locator = new PathLocator(this.fs, rootPath, { exactNames: options.exactNames === true });
    // Looked up a window at a time (thousands of hinted paths after a big copy would otherwise wait
    // on one lstat after another), and handled in the given order.
    const located: Located[] = [];
    for (let start = 0; start < paths.length; start += LOCATE_WINDOW) {
      if (options.signal?.aborted === true) throw new LocalError('ABORTED', 'the scan was aborted');
      located.push(...(await Promise.all(paths.slice(start, start + LOCATE_WINDOW).map((relPath) => locator.locate(relPath)))));
    }
    for (const [index, relPath] of paths.entries()) {
      const found = located[index];
      if (found === undefined) continue;
      switch (found.kind) {
        case 'missing':
        case 'blocked':
          walk.reportGone(relPath);
          break;
        case 'unreadable':
          if (!options.rules.ignores(relPath, false)) walk.notSynced(relPath, 'UNREADABLE', `cannot read ${found.at}: ${found.code}`, true);
          break;
        case 'clash':
          if (!options.rules.ignores(relPath, false)) walk.notSynced(relPath, 'NAME_CLASH', `another name in the folder of ${found.at} is the same once Unicode-normalised`, true);
          break;
        case 'found':
          this.addLocated(walk, relPath, found, options.rules);
          break;
      }
    }
    return walk.run();
  }

  /**
   * A located path, with the other spellings of its name beside it (tree-walk.ts `reportClash`): the
   * composed one syncs and the others are reported, as a full scan does. A report of another spelling
   * whose namesakes are gone is the file itself again, under its NFC path.
   */
  private addLocated(walk: TreeWalk, relPath: string, found: Extract<Located, { kind: 'found' }>, rules: IgnoreRules): void {
    const spelling = baseName(relPath);
    const name = nfc(spelling);
    const dirRel = parentRel(relPath);
    if (found.namesakes.length === 0 && spelling === name) {
      this.addFound(walk, relPath, found.absPath, found.stat, rules);
      return;
    }
    if (found.namesakes.length === 0) {
      walk.reportGone(relPath);
      this.addFound(walk, joinRel(dirRel, name), found.absPath, found.stat, rules);
      return;
    }
    const spellings = [spelling, ...found.namesakes];
    const composed = spellings.find((candidate) => candidate === name);
    if (rules.ignores(joinRel(dirRel, name), found.stat.kind === 'directory')) return;
    if (composed === undefined) {
      // None can win: the NFC path is reported once (and this spelling's own report goes).
      if (spelling !== name) walk.reportGone(relPath);
      walk.reportClash(dirRel, name, spelling, { composed, first: spelling, count: spellings.length });
      return;
    }
    if (spelling === name) this.addFound(walk, relPath, found.absPath, found.stat, rules);
    for (const other of spellings) if (other !== name) walk.reportClash(dirRel, name, other, { composed, first: spelling, count: spellings.length }, other === spelling ? found.stat : undefined);
  }

  private addFound(walk: TreeWalk, relPath: string, absPath: string, stat: FileStat, rules: IgnoreRules): void {
    const isDirectory = stat.kind === 'directory';
    if (rules.ignores(relPath, isDirectory)) return;
    // A full scan never walks into a folder with a bad name; neither does a rescan of a path below one.
    const segments = relSegments(relPath);
    for (let depth = 0; depth < segments.length - 1; depth++) {
      const verdict = checkName(segments[depth] ?? '', depth, true, this.maxFolderDepth);
      if (verdict !== undefined) {
        walk.notSynced(relPath, verdict.reason, `a folder above it: ${verdict.detail}`, true);
        return;
      }
    }
    walk.addEntry(relPath, baseName(relPath), absPath, stat, segments.length - 1);
  }

  private newWalk(sink: ObservationSink, options: ScanOptions, reportVanished: boolean): TreeWalk {
    return new TreeWalk({
      fs: this.fs,
      rules: options.rules,
      previous: options.previous,
      isSettled: options.isSettled,
      mayLeaveUnread: options.mayLeaveUnread,
      maxFolderDepth: this.maxFolderDepth,
      dirConcurrency: this.dirConcurrency,
      hashConcurrency: this.hashConcurrency,
      sink,
      signal: options.signal,
      reportVanished,
    });
  }

  /** The root may itself be a symlink (a user's choice); it must lead to a directory. */
  private async assertRootDirectory(rootPath: string): Promise<void> {
    let stat: FileStat;
    try {
      stat = await this.fs.stat(rootPath);
    } catch (error) {
      throw new LocalError('ROOT_UNREADABLE', `cannot read the root: ${errnoCode(error) ?? String(error)}`, rootPath, { cause: error });
    }
    if (stat.kind !== 'directory') throw new LocalError('ROOT_UNREADABLE', 'the root is not a directory', rootPath);
  }
}
