/**
 * A root given another place in the service (a remap): the rows that describe what the root holds in
 * the service. With `leave`, every one of them goes, so the next pass is a first sync into the new place
 * (the local snapshot stays: it describes the disk). With `move` (the old place's folder moved along,
 * option ids and asset ids unchanged) they all stay true and only the place changes.
 * The one row never touched: local_files.
 */
import type { StateDb } from './open-state-db.js';

/** Tables whose rows of a root say what it holds in the service, or is doing there. */
const SERVICE_TABLES = ['synced', 'folders', 'uploads', 'held_deletes', 'remote_assets', 'remote_folders', 'remote_state', 'conflicts', 'landings', 'successors', 'moves_ahead'] as const;

export function rootPlaceRows(db: StateDb): (rootId: string, remotePath: string, carry: boolean) => void {
  const place = db.prepare('UPDATE roots SET remote_path = @remotePath WHERE id = @rootId');
  const forget = SERVICE_TABLES.map((table) => db.prepare(`DELETE FROM ${table} WHERE root_id = ?`));
  // The remap written ahead is finished by this record.
  const finished = db.prepare<[string]>('DELETE FROM remaps_ahead WHERE root_id = ?');
  return (rootId, remotePath, carry) => {
    place.run({ rootId, remotePath });
    finished.run(rootId);
    if (!carry) for (const statement of forget) statement.run(rootId);
  };
}
