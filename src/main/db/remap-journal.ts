/**
 * Remaps written ahead (migration 0011): a root's folder on its way to the root's new place in the
 * service, from before the call that moves it until the root's remap record (root-place-rows.ts),
 * which removes the row in the same transaction.
 */
import type { StateDb } from './open-state-db.js';
import { isRemapChoice, type RemapChoice } from '../../shared/sync/remap-choice.js';

export interface RemapAhead {
  /** The root's new place. */
  to: string;
  choice: RemapChoice;
}

export function remapJournal(db: StateDb) {
  const put = db.prepare('INSERT OR REPLACE INTO remaps_ahead (root_id, to_path, choice) VALUES (?, ?, ?)');
  const one = db.prepare<[string], { to_path: string; choice: string }>('SELECT to_path, choice FROM remaps_ahead WHERE root_id = ?');
  const remove = db.prepare<[string]>('DELETE FROM remaps_ahead WHERE root_id = ?');
  return {
    /** Written before the remap's first call to the service. */
    ahead: (rootId: string, remap: RemapAhead) => void put.run(rootId, remap.to, remap.choice),
    /** The root's unfinished remap, if any. */
    pending(rootId: string): RemapAhead | undefined {
      const row = one.get(rootId);
      return row === undefined || !isRemapChoice(row.choice) ? undefined : { to: row.to_path, choice: row.choice };
    },
    /** The remap did not change the service (refused before its call): nothing to finish. */
    dropped: (rootId: string) => void remove.run(rootId),
  };
}

export type RemapJournal = ReturnType<typeof remapJournal>;
