/**
 * How many file descriptors of this process are open on `path`, for tests that must prove a handle
 * was closed. Reads /proc/self/fd, so it is Linux only: elsewhere it answers 0 and such checks prove
 * nothing (the tests still run).
 */
import { existsSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';

export function openHandlesOn(path: string): number {
  if (!existsSync('/proc/self/fd')) return 0;
  const target = realpathSync(path);
  let count = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) === target) count++;
    } catch {
      // Closed between the listing and the read.
    }
  }
  return count;
}
