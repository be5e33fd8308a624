/**
 * Waits for a condition a test cannot await directly (a watcher's hint, a background pass, a child
 * process's output): polls `probe` until it answers a value, or fails saying what it waited for and,
 * with `context`, what it saw. The one polling helper of the tests; none writes its own loop.
 * `false` and `undefined` both mean "not yet", so a boolean condition works as it is; the answer is
 * the probe's first other value. Must never swallow an error the probe throws: that fails the wait.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export interface UntilOptions {
  /** How long to wait before failing (wall clock). Default 60 s: a bound for a failing test, not a timing claim. */
  timeoutMs?: number;
  /** What to add to the failure message (the child's stderr, the last state seen). */
  context?: () => string;
  /** The pause between probes. Default 20 ms. */
  intervalMs?: number;
}

export async function until<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, options: UntilOptions = {}): Promise<T> {
  const { timeoutMs = 60_000, context, intervalMs = 20 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${context === undefined ? '' : `: ${context()}`}`);
    await sleep(intervalMs);
  }
}
