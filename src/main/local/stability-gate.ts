/**
 * Decides when a file is ready to upload: once its size, mtime and inode were the same in two
 * observations at least `stableMs` apart, or at first sight when its mtime is older than `stableMs`
 * plus MTIME_SLACK_MS. A copy in progress keeps changing and stays out; a safe-save's temp file is
 * renamed away before it settles, and the final name starts settling afresh (new inode).
 * Pure apart from the clock: the engine feeds it observations (usually through the scanner's
 * `isSettled` option) and asks which paths to look at again and when. It never touches the disk.
 * A copy that stalls for longer than `stableMs` looks finished: raise `stableMs` for slow networks.
 */
import type { Clock } from './clock.js';
import { sameSignature } from './file-system.js';
import type { FileSignature } from './observations.js';
import { isSameOrInside } from './rel-path.js';

export const DEFAULT_STABLE_MS = 1500;

/**
 * How much older than `stableMs` an mtime must be for a file to count as stable at first sight. Every
 * write sets the mtime to the time of writing, so a file last written long ago is not being written
 * now; tools that keep a copy's original time (cp -p, rsync, Finder) set it only once the bytes are
 * in. The slack covers coarse mtimes (FAT keeps even seconds) and a file server's clock a little
 * behind ours. Without this rule a folder that already holds 10,000 files was scanned twice, and its
 * first upload waited `stableMs`, before anything could start.
 */
export const MTIME_SLACK_MS = 2000;

export type Stability = 'stable' | 'settling';

interface Settling {
  signature: FileSignature;
  /** When this signature was first seen. */
  since: number;
}

export class StabilityGate {
  private readonly settling = new Map<string, Settling>();
  private readonly stableMs: number;
  /** How long the first due path may wait for others (a quarter of `stableMs`, at most 100 ms). */
  private readonly groupMs: number;

  constructor(
    private readonly clock: Pick<Clock, 'now'>,
    options: { stableMs?: number } = {},
  ) {
    this.stableMs = options.stableMs ?? DEFAULT_STABLE_MS;
    this.groupMs = Math.min(this.stableMs / 4, 100);
  }

  /**
   * Records that `relPath` has `signature` now. 'stable' when the same signature was first seen at
   * least `stableMs` ago, or its mtime is old (the path is then forgotten: the snapshot holds it from
   * here on).
   */
  observe(relPath: string, signature: FileSignature): Stability {
    const now = this.clock.now();
    if (now - signature.mtimeMs >= this.stableMs + MTIME_SLACK_MS) {
      this.settling.delete(relPath);
      return 'stable';
    }
    const known = this.settling.get(relPath);
    if (known === undefined || !sameSignature(known.signature, signature)) {
      this.settling.set(relPath, { signature: { size: signature.size, mtimeMs: signature.mtimeMs, ino: signature.ino }, since: now });
      return 'settling';
    }
    if (now - known.since < this.stableMs) return 'settling';
    this.settling.delete(relPath);
    return 'stable';
  }

  /** The scanner's `isSettled` option. */
  readonly isSettled = (relPath: string, signature: FileSignature): boolean => this.observe(relPath, signature) === 'stable';

  /** Paths that have had time to settle: rescan them, and `observe` will say whether they did. */
  due(): string[] {
    const now = this.clock.now();
    const due: string[] = [];
    for (const [relPath, entry] of this.settling) if (now - entry.since >= this.stableMs) due.push(relPath);
    return due.sort();
  }

  /**
   * When to look again (epoch ms), or undefined when nothing is settling: when the first path is due,
   * or a little later when others fall due within `groupMs` of it. Files one scan saw milliseconds
   * apart then settle in one pass and go up in one batch job, where checking at the first one's time
   * left the rest a pass of their own (a job, a listing) each.
   */
  nextCheckAt(): number | undefined {
    let first = Infinity;
    for (const entry of this.settling.values()) first = Math.min(first, entry.since + this.stableMs);
    if (first === Infinity) return undefined;
    let next = first;
    for (const entry of this.settling.values()) {
      const at = entry.since + this.stableMs;
      if (at <= first + this.groupMs) next = Math.max(next, at);
    }
    return next;
  }

  /** Whether `relPath` is waiting to settle (for "waiting for N files to finish copying"). */
  isSettling(relPath: string): boolean {
    return this.settling.has(relPath);
  }

  get settlingCount(): number {
    return this.settling.size;
  }

  /** Drops `relPath` and everything below it (it is gone, or ignored now). */
  forget(relPath: string): void {
    this.settling.delete(relPath);
    for (const path of this.settling.keys()) if (isSameOrInside(relPath, path)) this.settling.delete(path);
  }
}
