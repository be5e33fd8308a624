/**
 * Which files that outlived a binned asset (db/migrations/0008-successors.ts: they go up as new under
 * the binned asset's name) are done with it: their path syncs an asset again (their upload's, or one
 * that came down there) or their file is gone. Kept, a new file the user later wrote at that path
 * would go up under the binned asset's name. Pure; an output of the plan (plan-pass.ts), which the
 * pass lets go of.
 */
import type { PendingSignature, SyncedEntry } from './sync-types.js';

export interface SuccessorsLook {
  /** The paths of the files that outlived a binned asset. */
  outlived: Iterable<string>;
  local: ReadonlyMap<string, unknown>;
  unstable: ReadonlySet<string>;
  pending: ReadonlyMap<string, PendingSignature>;
  synced: ReadonlyMap<string, SyncedEntry>;
}

export function settledSuccessors(look: SuccessorsLook): string[] {
  const settled: string[] = [];
  for (const relPath of look.outlived) {
    const present = look.local.has(relPath) || look.unstable.has(relPath) || look.pending.has(relPath);
    if (look.synced.has(relPath) || !present) settled.push(relPath);
  }
  return settled;
}
