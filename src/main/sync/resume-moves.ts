/**
 * Before a pass plans: the moves written ahead that a crash or a failure cut short (move-journal.ts),
 * finished on the service (placement-executor.ts `resumeMove`). Left to the planner, a restored
 * asset's file would match its synced row by neither bytes nor name and read as a deletion and a new
 * file, while the asset had come back live in the file's new folder, the colleague's binned bytes live
 * (test/integration/sync-binned-move.test.ts); a plain move filed anew but not yet renamed would read
 * as moved on both sides, and the user's rename be undone. Finished, the row is at the file's path, as the
 * uninterrupted move would have left it.
 *
 * An entry whose synced row is gone or another asset's by now (recorded after all, in a transaction the
 * crash did not reach) goes. Runs before the service's side is read: the pass then reads the moved
 * assets back (`touched`), so the plan never takes the finished move for a colleague's. Rejects when the
 * service cannot be reached; the entries wait for the next pass.
 */
import type { MoveAhead } from '../db/move-journal.js';
import type { PlacementExecutor } from './placement-executor.js';
import type { SyncedEntry } from './sync-types.js';
import type { UploadRoot } from './upload-executor.js';

export interface ResumeMovesDeps {
  /** The moves the journal still holds. */
  unfinished(rootId: string): MoveAhead[];
  syncedAt(rootId: string, relPath: string): SyncedEntry | undefined;
  placements: Pick<PlacementExecutor, 'resumeMove'>;
  /** Lets an entry go without a move. */
  dropped(rootId: string, from: string): void;
}

/** Finishes the root's interrupted moves; answers the assets moved (each read back by the pass). */
export async function resumeMoves(root: UploadRoot, deps: ResumeMovesDeps): Promise<string[]> {
  const moved: string[] = [];
  for (const move of deps.unfinished(root.id)) {
    const previous = deps.syncedAt(root.id, move.from);
    if (previous?.assetId !== move.assetId) {
      deps.dropped(root.id, move.from);
      continue;
    }
    if ((await deps.placements.resumeMove(root, move, previous)) === 'MOVED') moved.push(move.assetId);
  }
  return moved;
}
