/**
 * The scanner's engine room: walks directories and hashes files with bounded concurrency, streaming
 * each observation to a sink as soon as it is known. No per-file promise on the listing path (one
 * readdirStats per directory), one reused 1 MiB buffer per hashing slot, and directory listing pauses
 * while the hash backlog is long, so memory stays flat for 100,000 files. Decides what each entry is
 * (observations.ts); never follows a symlink, never reads a file whose identity matches the previous
 * snapshot, never reports a hash for content that changed while it was read.
 */
import { sep } from 'node:path';
import { checkName } from './check-name.js';
import { sameSignature, type FileStat, type FileSystem, type StatEntry } from './file-system.js';
import { HASH_READ_BYTES, checkFile, hashFile, type CheckOutcome, type HashOutcome } from './hash-file.js';
import type { IgnoreRules } from './ignore-rules.js';
import { LocalError, errnoCode } from './local-error.js';
import type { FileSignature, LocalObservation, NotSyncedReason, PreviousLookup } from './observations.js';
import { baseName, isAscii, joinRel, nfc } from './rel-path.js';

/** Records an observation of a file that would be hashed and says whether it has settled. */
export type SettleCheck = (relPath: string, signature: FileSignature) => boolean;

/**
 * Whether a settled file that would be hashed may be reported unread (md5 null) instead: its content
 * is not needed to decide anything yet. It is still opened, to confirm it is readable and unchanged.
 */
export type ReadCheck = (relPath: string, signature: FileSignature) => boolean;

export interface WalkSettings {
  fs: FileSystem;
  rules: IgnoreRules;
  previous: PreviousLookup | undefined;
  isSettled: SettleCheck | undefined;
  /** Without it every changed file is hashed. */
  mayLeaveUnread: ReadCheck | undefined;
  maxFolderDepth: number;
  dirConcurrency: number;
  hashConcurrency: number;
  sink: (observation: LocalObservation) => void;
  signal: AbortSignal | undefined;
  /** Rescans report a file that vanished mid-walk as gone; a full scan just leaves it out. */
  reportVanished: boolean;
}

export interface WalkCounts {
  files: number;
  pending: number;
  directories: number;
  notSynced: number;
  gone: number;
  hashedFiles: number;
  hashedBytes: number;
  /** Files reported without their content read (`mayLeaveUnread`). */
  unreadFiles: number;
}

interface PendingDir {
  relPath: string;
  absPath: string;
  /** Segments in relPath: the folder depth of its entries. */
  depth: number;
  /** Reported once listed, so a folder that cannot be listed is reported only as not synced. */
  stat: FileStat | undefined;
}

interface PendingHash {
  relPath: string;
  absPath: string;
  stat: FileStat;
  depth: number;
  /** Open and check only: the content is not needed yet. */
  unread: boolean;
}

/** Listing stops while this many files wait to be hashed. */
const HASH_BACKLOG = 512;

/**
 * Checks of unread files in flight (open, fstat, close: no bytes read, only thread-pool round trips),
 * where hashes are held to `hashConcurrency`. Four at a time, checking 5,000 new files took about
 * 0.5 s before their uploads could begin.
 */
const CHECKS_IN_FLIGHT = 16;

export function childPath(dirAbs: string, name: string): string {
  return dirAbs.endsWith(sep) ? `${dirAbs}${name}` : `${dirAbs}${sep}${name}`;
}

export class TreeWalk {
  readonly counts: WalkCounts = { files: 0, pending: 0, directories: 0, notSynced: 0, gone: 0, hashedFiles: 0, hashedBytes: 0, unreadFiles: 0 };
  private readonly dirs: PendingDir[] = [];
  private readonly hashes: PendingHash[] = [];
  private readonly buffers: Uint8Array[] = [];
  private dirsActive = 0;
  private hashesActive = 0;
  private checksActive = 0;
  private failure: { error: unknown } | undefined;
  private settle: { resolve: () => void; reject: (error: unknown) => void } | undefined;

  constructor(private readonly settings: WalkSettings) {}

  /** Queues the root: its listing failing fails the walk. */
  addRoot(absPath: string): void {
    this.dirs.push({ relPath: '', absPath, depth: 0, stat: undefined });
  }

  /** Classifies one entry whose ignore rules were checked: reports it, queues it to walk or hash. */
  addEntry(relPath: string, name: string, absPath: string, stat: FileStat, depth: number): void {
    const isDirectory = stat.kind === 'directory';
    const verdict = checkName(name, depth, isDirectory, this.settings.maxFolderDepth);
    if (verdict !== undefined) {
      this.notSynced(relPath, verdict.reason, verdict.detail, isDirectory, undefined, isDirectory);
      return;
    }
    switch (stat.kind) {
      case 'symlink':
        this.notSynced(relPath, 'SYMLINK', 'symbolic links are not followed', false);
        break;
      case 'other':
        this.notSynced(relPath, 'SPECIAL_FILE', 'not a regular file (FIFO, socket or device)', false);
        break;
      case 'directory':
        this.dirs.push({ relPath, absPath, depth: depth + 1, stat });
        break;
      case 'file':
        this.file({ relPath, absPath, stat, depth });
        break;
    }
  }

  reportGone(relPath: string): void {
    this.emit({ kind: 'gone', relPath });
  }

  /** Reports a path that is there but does not sync; `isFolder` when it is a folder. */
  notSynced(relPath: string, reason: NotSyncedReason, detail: string, subtreeUnknown: boolean, file?: FileStat, isFolder = false): void {
    this.emit({
      kind: 'not-synced',
      relPath,
      reason,
      detail,
      subtreeUnknown,
      ...(isFolder ? { isFolder } : {}),
      ...(file === undefined ? {} : { file: { size: file.size, mtimeMs: file.mtimeMs, ino: file.ino, dev: file.dev } }),
    });
  }

  run(): Promise<WalkCounts> {
    return new Promise<void>((resolve, reject) => {
      this.settle = { resolve, reject };
      this.pump();
    }).then(() => this.counts);
  }

  private pump(): void {
    if (this.failure === undefined && this.settings.signal?.aborted === true) this.fail(new LocalError('ABORTED', 'the scan was aborted'));
    if (this.failure === undefined) {
      for (let next = this.hashes.at(-1); next !== undefined; next = this.hashes.at(-1)) {
        if (next.unread ? this.checksActive >= CHECKS_IN_FLIGHT : this.hashesActive >= this.settings.hashConcurrency) break;
        this.startHash(this.hashes.pop());
      }
      while (this.dirsActive < this.settings.dirConcurrency && this.dirs.length > 0 && this.hashes.length < HASH_BACKLOG) this.startListing(this.dirs.pop());
    }
    if (this.dirsActive > 0 || this.hashesActive > 0 || this.checksActive > 0) return;
    if (this.failure !== undefined) this.settle?.reject(this.failure.error);
    else if (this.dirs.length === 0 && this.hashes.length === 0) this.settle?.resolve();
  }

  private fail(error: unknown): void {
    this.failure ??= { error };
  }

  private startListing(dir: PendingDir | undefined): void {
    if (dir === undefined) return;
    this.dirsActive++;
    void this.settings.fs.readdirStats(dir.absPath).then(
      (entries) => this.finish(() => this.onListing(dir, entries), 'dir'),
      (error: unknown) => this.finish(() => this.onListingError(dir, error), 'dir'),
    );
  }

  private startHash(item: PendingHash | undefined): void {
    if (item === undefined) return;
    if (item.unread) {
      this.checksActive++;
      void checkFile(this.settings.fs, item.absPath, item.stat).then(
        (outcome) => this.finish(() => this.onHashed(item, outcome), 'check'),
        (error: unknown) => this.finish(() => this.fail(error), 'check'),
      );
      return;
    }
    this.hashesActive++;
    const buffer = this.buffers.pop() ?? new Uint8Array(HASH_READ_BYTES);
    void hashFile(this.settings.fs, item.absPath, item.stat, buffer).then(
      (outcome) => {
        this.buffers.push(buffer);
        this.finish(() => this.onHashed(item, outcome), 'hash');
      },
      (error: unknown) => this.finish(() => this.fail(error), 'hash'),
    );
  }

  /** Runs a completion step; a throwing sink fails the walk instead of escaping as an unhandled rejection. */
  private finish(step: () => void, slot: 'dir' | 'hash' | 'check'): void {
    if (slot === 'dir') this.dirsActive--;
    else if (slot === 'hash') this.hashesActive--;
    else this.checksActive--;
    try {
      if (this.failure === undefined) step();
    } catch (error) {
      this.fail(error);
    }
    this.pump();
  }

  private onListingError(dir: PendingDir, error: unknown): void {
    const code = errnoCode(error) ?? 'EIO';
    if (dir.relPath === '') {
      this.fail(new LocalError('ROOT_UNREADABLE', `cannot list the root: ${code}`, dir.absPath, { cause: error }));
    } else if (code !== 'ENOENT') {
      this.notSynced(dir.relPath, 'UNREADABLE', `cannot list the folder: ${code}`, true, undefined, true);
    } else if (this.settings.reportVanished) {
      this.reportGone(dir.relPath);
    }
  }

  private onListing(dir: PendingDir, entries: StatEntry[]): void {
    const { stat } = dir;
    if (stat !== undefined) this.emit({ kind: 'directory', relPath: dir.relPath, mtimeMs: stat.mtimeMs, ino: stat.ino, dev: stat.dev });
    const clashes = findClashes(entries);
    const { rules } = this.settings;
    for (const entry of entries) {
      const name = nfc(entry.name);
      const relPath = joinRel(dir.relPath, name);
      if (entry.error !== undefined) {
        if (entry.error === 'ENOENT' || rules.ignoresEntry(relPath, false)) continue;
        this.notSynced(relPath, 'UNREADABLE', `cannot read its attributes: ${entry.error}`, true);
        continue;
      }
      const isDirectory = entry.stat.kind === 'directory';
      if (rules.ignoresEntry(relPath, isDirectory)) continue;
      const clash = clashes?.get(name);
      if (clash !== undefined && clash.composed !== entry.name) {
        this.reportClash(dir.relPath, name, entry.name, clash, entry.stat);
        continue;
      }
      this.addEntry(relPath, name, childPath(dir.absPath, entry.name), entry.stat, dir.depth);
    }
  }

  /**
   * One spelling of a name spelled several ways in one folder (DESIGN.md §3: paths are compared NFC;
   * the service stores names NFC, so the spellings are one name there). The composed (NFC) spelling is
   * the name itself and syncs; every other spelling is reported at its own path, never dropped
   * silently, and marked subtree-unknown: it may be what was synced at the NFC path before, so nothing
   * there may be read as deleted on its account. With no composed spelling none can win: the NFC path is
   * reported once. A decomposed spelling's file is reported with its signature (`stat`, when known): a
   * synced file renamed to it is still there, so it waits, never a deletion (local-scanner-memory.test.ts).
   */
  reportClash(dirRel: string, name: string, spelling: string, clash: Clash, stat?: FileStat): void {
    if (clash.composed === undefined) {
      if (clash.first === spelling) this.notSynced(joinRel(dirRel, name), 'NAME_CLASH', `${clash.count} names in this folder are the same once Unicode-normalised (none of them composed, NFC); rename all but one`, true, undefined, stat?.kind === 'directory');
      return;
    }
    this.notSynced(joinRel(dirRel, spelling), 'NAME_CLASH', `the same name as "${name}" in this folder once Unicode-normalised, but spelled another way (decomposed, as files from a Mac are); the service holds one name for both, so only the composed one syncs: rename or remove this one`, true, stat?.kind === 'file' ? stat : undefined, stat?.kind === 'directory');
  }

  private file(item: Omit<PendingHash, 'unread'>): void {
    const { relPath, stat } = item;
    const previous = this.settings.previous?.(relPath);
    const unchanged = previous !== undefined && sameSignature(previous, stat);
    if (unchanged && previous.md5 !== null) {
      this.emit({ kind: 'file', relPath, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino, dev: stat.dev, md5: previous.md5 });
      return;
    }
    const mayLeaveUnread = this.settings.mayLeaveUnread?.(relPath, stat) ?? false;
    // An unread file stays unread, unchanged, while that is still allowed; otherwise it is read now.
    if (unchanged && mayLeaveUnread) {
      this.emit({ kind: 'file', relPath, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino, dev: stat.dev, md5: null });
    } else if (this.settings.isSettled === undefined || this.settings.isSettled(relPath, stat)) {
      this.hashes.push({ ...item, unread: mayLeaveUnread });
    } else {
      this.pending(relPath, stat);
    }
  }

  private onHashed(item: PendingHash, outcome: HashOutcome | CheckOutcome): void {
    const { relPath } = item;
    const { isSettled } = this.settings;
    switch (outcome.kind) {
      case 'readable': {
        const { stat } = outcome;
        this.counts.unreadFiles++;
        this.emit({ kind: 'file', relPath, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino, dev: stat.dev, md5: null });
        break;
      }
      case 'hashed': {
        const { stat } = outcome;
        this.counts.hashedFiles++;
        this.counts.hashedBytes += stat.size;
        this.emit({ kind: 'file', relPath, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino, dev: stat.dev, md5: outcome.md5 });
        break;
      }
      case 'changed':
        // Replaced or written to since it was listed: the settle check has to see the new identity.
        isSettled?.(relPath, outcome.stat);
        this.pending(relPath, outcome.stat);
        break;
      case 'not-a-file':
        this.addEntry(relPath, baseName(relPath), item.absPath, outcome.stat, item.depth);
        break;
      case 'failed':
        if (outcome.code === 'ELOOP') this.notSynced(relPath, 'SYMLINK', 'symbolic links are not followed', false);
        else if (outcome.code !== 'ENOENT') this.notSynced(relPath, 'UNREADABLE', `cannot read the file: ${outcome.code}`, false, item.stat);
        else if (this.settings.reportVanished) this.reportGone(relPath);
        break;
    }
  }

  private pending(relPath: string, stat: FileStat): void {
    this.emit({ kind: 'pending', relPath, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino, dev: stat.dev });
  }

  private emit(observation: LocalObservation): void {
    switch (observation.kind) {
      case 'file':
        this.counts.files++;
        break;
      case 'pending':
        this.counts.pending++;
        break;
      case 'directory':
        this.counts.directories++;
        break;
      case 'not-synced':
        this.counts.notSynced++;
        break;
      case 'gone':
        this.counts.gone++;
        break;
    }
    this.settings.sink(observation);
  }
}

/** A name spelled more than one way in one folder: its composed (NFC) spelling if one is on disk. */
export interface Clash {
  composed: string | undefined;
  /** The first spelling listed (reports the clash when none is composed). */
  first: string;
  count: number;
}

/**
 * NFC names spelled more than one way in one listing (only possible with non-ASCII names), with their
 * spellings; undefined when there are none (the usual case, checked cheaply).
 */
function findClashes(entries: StatEntry[]): Map<string, Clash> | undefined {
  let seen: Map<string, Clash> | undefined;
  for (const entry of entries) {
    if (isAscii(entry.name)) continue;
    const name = entry.name.normalize('NFC');
    seen ??= new Map();
    const known = seen.get(name);
    const composed = entry.name === name ? entry.name : undefined;
    if (known === undefined) seen.set(name, { composed, first: entry.name, count: 1 });
    else seen.set(name, { composed: known.composed ?? composed, first: known.first, count: known.count + 1 });
  }
  if (seen === undefined) return undefined;
  const clashes = new Map([...seen].filter(([, clash]) => clash.count > 1));
  return clashes.size > 0 ? clashes : undefined;
}
