/**
 * Moves of a synced file's asset on the service written ahead, when one move takes more than one call
 * (placement-executor.ts): a restoring move (`restore` = 1) brings a binned asset back, files it where
 * the file went and may rename it; a plain one files it elsewhere and renames it. Any call may be the
 * last before a crash or a lost connection, and between the first and the move's record the service
 * and the state disagree in a way a plan misreads: a restored asset's file matches its synced row by
 * neither bytes (the row holds the binned bytes by then) nor name, and reads as a deletion (which only
 * unfiles the asset from the folder it left) and a new file, leaving the colleague's binned bytes
 * live; a plain move's file, filed anew but not yet renamed, reads as a move on both sides, where the
 * service's place wins and the user's rename is undone. A row here says where the file went until the move's record, which removes it in the same
 * transaction; the next pass finishes the move before it plans (resume-moves.ts). `from_path`: the
 * synced row the move replaces; the rest is the file at `to_path` as the move saw it.
 */
export default /* sql */ `
CREATE TABLE moves_ahead (
  root_id    TEXT NOT NULL REFERENCES roots(id) ON DELETE CASCADE,
  from_path  TEXT NOT NULL,
  to_path    TEXT NOT NULL,
  asset_id   TEXT NOT NULL,
  restore    INTEGER NOT NULL,
  size       INTEGER NOT NULL,
  mtime_ms   REAL NOT NULL,
  ino        INTEGER NOT NULL,
  dev        INTEGER NOT NULL,
  md5        TEXT NOT NULL,
  PRIMARY KEY (root_id, from_path)
) WITHOUT ROWID;
`;
