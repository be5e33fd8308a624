/**
 * The real Watcher: one chokidar watcher per root (one inotify watch per directory on Linux, a
 * recursive watch on macOS and Windows). Options as DESIGN.md §3 needs them: no initial events (the
 * scanner does the initial pass), symlinks not followed, and chokidar's `atomic` and `awaitWriteFinish`
 * off because event types are not trusted and stability is the StabilityGate's job. Ignored
 * directories are not even watched.
 */
import { watch, type FSWatcher } from 'chokidar';
import { resolve } from 'node:path';
import { HintBatcher } from './hint-batcher.js';
import { toRelPath } from './rel-path.js';
import { hintFor, type Watcher, type WatcherOptions } from './watcher.js';

export class ChokidarWatcher implements Watcher {
  private readonly root: string;
  private watcher: FSWatcher | undefined;
  private batcher: HintBatcher | undefined;

  constructor(private readonly options: WatcherOptions) {
    this.root = resolve(options.root);
  }

  async start(onHints: (relPaths: string[]) => void): Promise<void> {
    if (this.watcher !== undefined) throw new Error('the watcher is already started');
    const { rules, onError } = this.options;
    const batcher = new HintBatcher(this.options.clock, onHints, this.options.batch);
    this.batcher = batcher;
    const watcher = watch(this.root, {
      ignoreInitial: true,
      followSymlinks: false,
      atomic: false,
      awaitWriteFinish: false,
      persistent: true,
      // Unreadable folders are reported by the scanner; they need not fail the watcher.
      ignorePermissionErrors: true,
      ignored: (path, stats) => {
        const relPath = toRelPath(this.root, path);
        if (relPath === undefined || relPath === '') return false;
        return hintFor(this.root, path, stats?.isDirectory() ?? false, rules()) === undefined;
      },
    });
    this.watcher = watcher;
    watcher.on('all', (event, path) => {
      const relPath = hintFor(this.root, path, event === 'addDir' || event === 'unlinkDir', rules());
      if (relPath !== undefined) batcher.add(relPath);
    });
    watcher.on('error', (error) => onError?.(error instanceof Error ? error : new Error(String(error))));
    await new Promise<void>((ready) => watcher.once('ready', ready));
  }

  lastEventAt(): number | undefined {
    return this.batcher?.lastEventAt;
  }

  async close(): Promise<void> {
    this.batcher?.close();
    await this.watcher?.close();
  }
}
