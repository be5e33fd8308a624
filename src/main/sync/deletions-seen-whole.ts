/**
 * The plan's deletions on the service go only when the disk held still while the pass looked at it.
 * A scan that runs while a folder is being emptied sees part of the deletion: one file of twelve gone
 * would go through alone, under the mass-delete guard, and the other eleven be held a pass later. Such a
 * pass leaves its deletions to the next, which the watcher's events bring and which sees the whole
 * deletion, guard and all. A root whose files keep changing keeps its deletions waiting until it is
 * quiet: late, never lost. Without a watcher (`--once`), nothing changes under a pass's feet that a
 * later pass would see sooner, and the plan goes as it is. Pure; an output filter of the plan (plan-pass.ts).
 */
import type { Operation } from './sync-types.js';

/**
 * `lookedAt`: when the pass began to look at the disk; `lastEventAt`: when the root's watcher last
 * heard of a change (undefined: no watcher, or no event yet). Answers the operations to carry out and
 * how many deletions wait.
 */
export function deletionsSeenWhole(operations: readonly Operation[], lookedAt: number, lastEventAt: number | undefined): { operations: readonly Operation[]; waiting: number } {
  if (lastEventAt === undefined || lastEventAt < lookedAt) return { operations, waiting: 0 };
  const kept = operations.filter((op) => op.kind !== 'DELETE');
  return { operations: kept, waiting: operations.length - kept.length };
}
