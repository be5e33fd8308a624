/**
 * The download journal (write-ahead): a verified download is recorded here before its temp file is
 * renamed to its final path, and the row goes in the transaction that records the landed file in the
 * snapshots. So a crash between the rename and that record never leaves a file the engine knows
 * nothing of (moved by the user before the engine runs again, such a file would upload as a second
 * asset). After a restart each row says whether the rename happened (its temp file is gone) and, if
 * so, what landed where, as the lost record would have said.
 */
export default /* sql */ `
CREATE TABLE landings (
  root_id    TEXT NOT NULL REFERENCES roots(id) ON DELETE CASCADE,
  rel_path   TEXT NOT NULL,
  asset_id   TEXT NOT NULL,
  temp_path  TEXT NOT NULL,               -- the verified temp file renamed to rel_path
  size       INTEGER NOT NULL,            -- the file as it landed (a rename keeps all of these)
  mtime_ms   REAL NOT NULL,
  ino        INTEGER NOT NULL,
  dev        INTEGER NOT NULL,
  md5        TEXT NOT NULL,
  PRIMARY KEY (root_id, rel_path)
) WITHOUT ROWID;
`;
