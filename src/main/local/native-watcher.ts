/**
 * A Watcher on `node:fs.watch` alone, for large roots. Why it exists: chokidar 6 starts by lstat-ing
 * every file of the tree at once (100,000 requests in flight for 100,000 files, ~500 MB peak RSS,
 * bench/local-scan.ts), to keep per-file state that hints do not need. Here: one watch per directory
 * on Linux (inotify is not recursive), set up with a few directory listings at a time and no per-file
 * state; one recursive watch on macOS and Windows, where the OS does the work.
 *
 * On Linux, directories appear and vanish: a 'rename' event in a directory marks it dirty, and a
 * debounced sweep re-lists dirty directories to watch new subdirectories (then hints them again, so a
 * rescan sees what was written before the watch was in place) and drop vanished ones. A directory
 * moved within the root is dropped under its old name and watched under its new one.
 * Never follows symlinks, never watches ignored directories. Restart it when the ignore rules change.
 */
import { watch, type FSWatcher } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { CancelTimer } from './clock.js';
import { HintBatcher } from './hint-batcher.js';
import { errnoCode } from './local-error.js';
import { toRelPath } from './rel-path.js';
import { hintFor, type Watcher, type WatcherOptions } from './watcher.js';

/** Directory listings in flight while setting up watches. */
const LISTING_CONCURRENCY = 4;

export interface NativeWatcherOptions extends WatcherOptions {
  /** One recursive OS watch instead of one per directory. Default: everywhere but Linux. */
  recursive?: boolean;
}

export class NativeWatcher implements Watcher {
  private readonly root: string;
  private readonly recursive: boolean;
  private readonly watches = new Map<string, FSWatcher>();
  private readonly dirty = new Set<string>();
  private readonly waiting: (() => void)[] = [];
  private listings = 0;
  private cancelSweep: CancelTimer | undefined;
  private sweeping = false;
  private batcher: HintBatcher | undefined;
  private closed = false;

  constructor(private readonly options: NativeWatcherOptions) {
    this.root = resolve(options.root);
    this.recursive = options.recursive ?? process.platform !== 'linux';
  }

  async start(onHints: (relPaths: string[]) => void): Promise<void> {
    if (this.batcher !== undefined) throw new Error('the watcher is already started');
    this.batcher = new HintBatcher(this.options.clock, onHints, this.options.batch);
    if (this.recursive) this.watchOne(this.root);
    else await this.watchTree(this.root);
  }

  lastEventAt(): number | undefined {
    return this.batcher?.lastEventAt;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.cancelSweep?.();
    this.batcher?.close();
    for (const watcher of this.watches.values()) watcher.close();
    this.watches.clear();
    this.dirty.clear();
  }

  /** How many OS watches are held (one per directory on Linux). */
  get watchCount(): number {
    return this.watches.size;
  }

  private watchOne(dir: string): void {
    if (this.closed || this.watches.has(dir)) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, { persistent: true, recursive: this.recursive, encoding: 'utf8' }, (event, name) => this.onEvent(dir, event, name));
    } catch (error) {
      if (errnoCode(error) !== 'ENOENT' && errnoCode(error) !== 'ENOTDIR') this.report(error, dir);
      return;
    }
    watcher.on('error', (error) => {
      this.unwatchTree(dir);
      this.report(error, dir);
    });
    this.watches.set(dir, watcher);
  }

  /**
   * Watches `dir` and every folder below it, each before it is listed (nothing created meanwhile is
   * missed). The folders still to list wait in one queue, a few listed at a time: a promise per folder
   * waiting its turn (10,000 at once at a million files) kept every listing's garbage alive into V8's
   * old generation, tens of MB for the watcher's set-up alone.
   */
  private async watchTree(dir: string): Promise<void> {
    const queue = [dir];
    const listing = new Set<Promise<void>>();
    const visit = async (next: string): Promise<void> => {
      this.watchOne(next);
      const children = await this.childDirectories(next);
      if (children !== undefined) queue.push(...children);
    };
    while (!this.closed && (queue.length > 0 || listing.size > 0)) {
      for (let next = queue.pop(); next !== undefined; next = listing.size < LISTING_CONCURRENCY ? queue.pop() : undefined) {
        const visiting: Promise<void> = visit(next).finally(() => listing.delete(visiting));
        listing.add(visiting);
      }
      if (listing.size > 0) await Promise.race(listing);
    }
  }

  private unwatchTree(dir: string): void {
    for (const [path, watcher] of this.watches) {
      if (path === dir || path.startsWith(`${dir}/`) || path.startsWith(`${dir}\\`)) {
        watcher.close();
        this.watches.delete(path);
      }
    }
  }

  /** Subdirectories that are not ignored (symlinks are not directories here); undefined when `dir` is gone. */
  private async childDirectories(dir: string): Promise<string[] | undefined> {
    while (this.listings >= LISTING_CONCURRENCY) await new Promise<void>((wake) => this.waiting.push(wake));
    this.listings++;
    try {
      const entries = await readdir(dir, { withFileTypes: true });
      const rules = this.options.rules();
      const children: string[] = [];
      for (const entry of entries) {
        if (!entry.isDirectory()) continue;
        const path = join(dir, entry.name);
        const relPath = toRelPath(this.root, path);
        if (relPath !== undefined && !rules.ignores(relPath, true)) children.push(path);
      }
      return children;
    } catch (error) {
      const code = errnoCode(error);
      if (code !== 'ENOENT' && code !== 'ENOTDIR' && code !== 'EACCES' && code !== 'EPERM') this.report(error, dir);
      return code === 'ENOENT' || code === 'ENOTDIR' ? undefined : [];
    } finally {
      this.listings--;
      this.waiting.shift()?.();
    }
  }

  private onEvent(dir: string, event: string, name: string | null): void {
    if (this.closed) return;
    const path = name === null ? dir : join(dir, name);
    const hint = hintFor(this.root, path, false, this.options.rules());
    if (hint !== undefined) this.batcher?.add(hint);
    if (this.recursive || event !== 'rename') return;
    this.dirty.add(dir);
    // The event of a watched directory that was itself deleted or moved carries its own name.
    if (name === basename(dir) && dir !== this.root) this.dirty.add(dirname(dir));
    this.cancelSweep ??= this.options.clock.setTimer(this.options.batch?.debounceMs ?? 200, () => void this.sweep());
  }

  private async sweep(): Promise<void> {
    this.cancelSweep = undefined;
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      for (let dir = this.takeDirty(); dir !== undefined && !this.closed; dir = this.takeDirty()) await this.reconcile(dir);
    } catch (error) {
      this.report(error, this.root);
    } finally {
      this.sweeping = false;
    }
  }

  private takeDirty(): string | undefined {
    const [first] = this.dirty;
    if (first !== undefined) this.dirty.delete(first);
    return first;
  }

  /** Brings the watches below `dir` in line with its listing. */
  private async reconcile(dir: string): Promise<void> {
    if (!this.watches.has(dir)) return;
    const children = await this.childDirectories(dir);
    if (children === undefined) {
      this.unwatchTree(dir);
      if (dir === this.root) this.batcher?.add('');
      return;
    }
    const present = new Set(children);
    for (const path of [...this.watches.keys()]) if (dirname(path) === dir && !present.has(path)) this.unwatchTree(path);
    for (const child of children) {
      if (this.watches.has(child)) continue;
      await this.watchTree(child);
      const relPath = toRelPath(this.root, child);
      if (relPath !== undefined) this.batcher?.add(relPath);
    }
  }

  private report(error: unknown, dir: string): void {
    const code = errnoCode(error);
    const message = code === 'ENOSPC' ? 'the inotify watch limit is reached (raise fs.inotify.max_user_watches)' : `cannot watch ${dir}: ${code ?? String(error)}`;
    this.options.onError?.(new Error(message, { cause: error }));
  }
}
