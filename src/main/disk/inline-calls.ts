/**
 * Runs small file-system calls (lstat, open, fstat, close, reads of a few KiB) on the event loop with
 * node:fs's *Sync functions while that is safe and fast, and on libuv's thread pool otherwise.
 *
 * Why: a pooled call costs far more than the syscall it makes. It wakes a pool thread, and the
 * answer wakes the event loop again; measured here, open + fstat + read + close of a 4 KiB file took
 * 35 µs of CPU pooled and 11 µs inline. An initial sync makes seven such calls per small file (lstat
 * in the walk, open/fstat/close in the scan's check, open/read/close for the PUT); inline, the
 * engine's CPU per 4 KiB file fell by about a third (bench/sync-engine.ts).
 *
 * When not: a call runs inline only
 * - in a directory on a local disk (disk-locality.ts): on a network share one call can take seconds,
 *   or hang while the server is away, and inline that would freeze the whole app;
 * - while this turn of the event loop has spent less than `sliceMs` inline, so a walk of 100,000 files
 *   still lets sockets, timers and the UI's requests in every few milliseconds;
 * - unless calls were slow lately (a cold disk spinning up, a USB stick): three inline calls over
 *   5 ms within a second send every call to the pool for `coolDownMs`. One is not enough: on a busy
 *   machine the scheduler alone stretches a few calls in 100,000 past 3 ms (measured here: 4 of
 *   210,000, none past 4.1 ms), while a disk that has to seek is slow on every call.
 * Calls on a descriptor opened inline skip the disk check (its directory was checked at the open).
 * The sync functions throw the same errors (code, errno, syscall, path) as the pooled ones report.
 */
import { statfs } from 'node:fs';
import { dirname } from 'node:path';
import { isLocalDisk, needsStatfs } from './disk-locality.js';

export interface InlineCallsOptions {
  /** Inline time allowed per turn of the event loop, in ms (default 2). */
  sliceMs?: number;
  /** An inline call at least this slow (ms) counts as slow (default 5). */
  slowCallMs?: number;
  /** This many slow calls within `slowWindowMs` send calls to the pool for `coolDownMs` (default 3 in 1 s). */
  slowCalls?: number;
  slowWindowMs?: number;
  /** How long calls stay pooled after slow ones, in ms (default 30 s). */
  coolDownMs?: number;
  /** Whether files in `dir` (absolute) are on a local disk; default: statfs or the path (disk-locality.ts). */
  isLocalDirectory?: (dir: string) => Promise<boolean>;
  /** Monotonic milliseconds (default performance.now). */
  now?: () => number;
  /** Runs `callback` after this turn's I/O (default setImmediate); ends the turn's slice. */
  afterTurn?: (callback: () => void) => void;
}

/**
 * Directories whose disk is remembered, and for how long: past either the memory starts afresh (a
 * lookup is one statfs), so a share mounted over a folder later is seen within a minute.
 */
const REMEMBERED_DIRECTORIES = 4096;
const REMEMBERED_MS = 60_000;

/** Looks `dir` up the platform's way. */
function lookUpDisk(dir: string): Promise<boolean> {
  const { platform } = process;
  if (!needsStatfs(platform)) return Promise.resolve(isLocalDisk({ platform, dir, systemDrive: process.env.SystemDrive }));
  return new Promise((resolve) => {
    statfs(dir, (error, stats) => resolve(isLocalDisk({ platform, dir, statfsType: error === null ? stats.type : undefined })));
  });
}

export class InlineCalls {
  private readonly sliceMs: number;
  private readonly slowCallMs: number;
  private readonly slowCalls: number;
  private readonly slowWindowMs: number;
  private readonly coolDownMs: number;
  private readonly isLocalDirectory: (dir: string) => Promise<boolean>;
  private readonly now: () => number;
  private readonly afterTurn: (callback: () => void) => void;
  private readonly disks = new Map<string, boolean | Promise<boolean>>();
  private disksSince = -Infinity;
  /** Inline ms spent in this turn of the event loop. */
  private spent = 0;
  private turnEnding = false;
  private pooledUntil = -Infinity;
  /** When the recent slow calls started, oldest first. */
  private slowSince: number[] = [];

  constructor(options: InlineCallsOptions = {}) {
    this.sliceMs = options.sliceMs ?? 2;
    this.slowCallMs = options.slowCallMs ?? 5;
    this.slowCalls = options.slowCalls ?? 3;
    this.slowWindowMs = options.slowWindowMs ?? 1000;
    this.coolDownMs = options.coolDownMs ?? 30_000;
    this.isLocalDirectory = options.isLocalDirectory ?? lookUpDisk;
    this.now = options.now ?? (() => performance.now());
    this.afterTurn = options.afterTurn ?? ((callback) => setImmediate(callback));
  }

  /** A call on `path` (absolute): inline when its directory is on a local disk and the slice allows. */
  async onPath<T>(path: string, inline: () => T, pooled: () => Promise<T>): Promise<T> {
    return (await this.isLocal(dirname(path))) ? this.onOpened(inline, pooled) : pooled();
  }

  /** A call on a descriptor opened inline: inline when the slice allows. */
  async onOpened<T>(inline: () => T, pooled: () => Promise<T>): Promise<T> {
    const ran = this.tryInline(inline);
    return ran === undefined ? pooled() : ran.value;
  }

  /**
   * Whether files in `dir` are on a local disk: answered at once when known, looked up once otherwise.
   * Callers that make many calls in one directory ask once, then use `tryInline` per call.
   */
  isLocal(dir: string): boolean | Promise<boolean> {
    const now = this.now();
    if (now - this.disksSince >= REMEMBERED_MS || this.disks.size >= REMEMBERED_DIRECTORIES) {
      this.disks.clear();
      this.disksSince = now;
    }
    const known = this.disks.get(dir);
    if (known !== undefined) return known;
    const lookup = this.isLocalDirectory(dir).then(
      (local) => {
        this.disks.set(dir, local);
        return local;
      },
      () => {
        // Not knowing is not local; the next call looks again.
        this.disks.delete(dir);
        return false;
      },
    );
    this.disks.set(dir, lookup);
    return lookup;
  }

  /**
   * For a caller that checked its directory with `isLocal`: runs `inline` and answers `{ value }`, or
   * answers undefined when the call should go to the pool now. What `inline` throws is thrown.
   */
  tryInline<T>(inline: () => T): { value: T } | undefined {
    return this.open() ? { value: this.run(inline) } : undefined;
  }

  /** Whether a call may run inline now: slice left in this turn, and no slow call lately. */
  private open(): boolean {
    return this.spent < this.sliceMs && this.now() >= this.pooledUntil;
  }

  private run<T>(inline: () => T): T {
    if (!this.turnEnding) {
      this.turnEnding = true;
      this.afterTurn(() => {
        this.turnEnding = false;
        this.spent = 0;
      });
    }
    const started = this.now();
    try {
      return inline();
    } finally {
      const took = this.now() - started;
      this.spent += took;
      if (took >= this.slowCallMs) this.slow(started, took);
    }
  }

  private slow(started: number, took: number): void {
    this.slowSince = [...this.slowSince.filter((at) => at > started - this.slowWindowMs), started];
    if (this.slowSince.length < this.slowCalls) return;
    this.slowSince = [];
    this.pooledUntil = started + took + this.coolDownMs;
  }
}
