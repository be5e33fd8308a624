/**
 * The watcher edge: something that reports which relPaths under a root may have changed. Hints only
 * (DESIGN.md §3): batched, deduplicated, ignored paths dropped, event types thrown away, because the
 * scanner's rescan decides what is really there. '' means "the root itself: check it, rescan all".
 * `.assetsyncignore` is hinted although it is never synced, so the engine can reload the rules.
 * Start the watcher before the initial scan, so nothing that happens during the scan is missed.
 */
import type { Clock } from './clock.js';
import { IGNORE_FILE_NAME } from './default-ignores.js';
import type { HintBatchOptions } from './hint-batcher.js';
import type { IgnoreRules } from './ignore-rules.js';
import { toRelPath } from './rel-path.js';

export interface Watcher {
  /** Starts watching; resolves once watching is in place. Hints arrive in batches of relPaths. */
  start(onHints: (relPaths: string[]) => void): Promise<void>;
  /** Stops watching and releases every handle; no hint is delivered after it resolves. */
  close(): Promise<void>;
  /**
   * When the OS last reported a change under the root (clock ms), before any debounce; undefined
   * before the first. A pass that planned from a look older than this saw the disk mid-change.
   */
  lastEventAt(): number | undefined;
}

export interface WatcherOptions {
  /** Absolute path of the sync root. */
  root: string;
  /** The root's current rules (a function, so the engine can swap them when the ignore file changes). */
  rules: () => IgnoreRules;
  clock: Clock;
  batch?: HintBatchOptions;
  /** Errors that do not stop watching (a directory that cannot be watched, the watch limit…). */
  onError?: (error: Error) => void;
}

/** Whether the hint list includes the ignore file (reload the rules and rescan everything). */
export function touchesIgnoreFile(relPaths: readonly string[]): boolean {
  return relPaths.includes(IGNORE_FILE_NAME) || relPaths.includes('');
}

/**
 * The relPath to hint for an absolute path a watcher reported, or undefined to drop it (outside the
 * root, or ignored). `isDirectory` is only a guess from the event; when unsure, pass false: a wrong
 * true could drop a file under a directory-only rule, a wrong false only lets a hint through.
 */
export function hintFor(root: string, absolutePath: string, isDirectory: boolean, rules: IgnoreRules): string | undefined {
  const relPath = toRelPath(root, absolutePath);
  if (relPath === undefined) return undefined;
  if (relPath === '' || relPath === IGNORE_FILE_NAME) return relPath;
  return rules.ignores(relPath, isDirectory) ? undefined : relPath;
}
