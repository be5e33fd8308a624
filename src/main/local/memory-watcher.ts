/**
 * The Watcher twin: hints from a MemoryFileSystem's change notifications (every change under the root,
 * through the same batching and ignore filter as the real one), plus `hint()` for tests that play the
 * OS. The simulation drops or delays hints around it to prove that hints are only hints.
 */
import { resolve } from 'node:path';
import { HintBatcher } from './hint-batcher.js';
import type { MemoryFileSystem } from './memory-file-system.js';
import { hintFor, type Watcher, type WatcherOptions } from './watcher.js';

export class MemoryWatcher implements Watcher {
  private readonly root: string;
  private batcher: HintBatcher | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly fs: MemoryFileSystem,
    private readonly options: WatcherOptions,
  ) {
    this.root = resolve(options.root);
  }

  async start(onHints: (relPaths: string[]) => void): Promise<void> {
    if (this.batcher !== undefined) throw new Error('the watcher is already started');
    this.batcher = new HintBatcher(this.options.clock, onHints, this.options.batch);
    this.unsubscribe = this.fs.onChange((path) => this.hintAbsolute(path));
  }

  /** A hint as if from the OS, for an absolute path. */
  hintAbsolute(absolutePath: string): void {
    const relPath = hintFor(this.root, absolutePath, false, this.options.rules());
    if (relPath !== undefined) this.batcher?.add(relPath);
  }

  /** Delivers pending hints now, without waiting for the debounce. */
  flush(): void {
    this.batcher?.flush();
  }

  lastEventAt(): number | undefined {
    return this.batcher?.lastEventAt;
  }

  async close(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.batcher?.close();
  }
}
