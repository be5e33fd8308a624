/**
 * New files may be recorded before their content is read (md5 NULL): the scanner leaves a new large
 * file unread when no decision needs its bytes, and its upload's completion supplies the MD5. SQLite
 * cannot relax a NOT NULL in place, so both tables that hold a local file's md5 are rebuilt, rows kept.
 */
export default /* sql */ `
CREATE TABLE local_files_new (
  root_id   TEXT NOT NULL REFERENCES roots(id) ON DELETE CASCADE,
  rel_path  TEXT NOT NULL,
  size      INTEGER NOT NULL,
  mtime_ms  REAL NOT NULL,
  ino       INTEGER NOT NULL,
  dev       INTEGER NOT NULL,
  md5       TEXT,                         -- NULL: not read yet
  PRIMARY KEY (root_id, rel_path)
) WITHOUT ROWID;
INSERT INTO local_files_new SELECT root_id, rel_path, size, mtime_ms, ino, dev, md5 FROM local_files;
DROP TABLE local_files;
ALTER TABLE local_files_new RENAME TO local_files;

CREATE TABLE uploads_new (
  root_id        TEXT NOT NULL REFERENCES roots(id) ON DELETE CASCADE,
  rel_path       TEXT NOT NULL,
  kind           TEXT NOT NULL CHECK (kind IN ('NEW', 'VERSION')),
  batch_item_id  TEXT NOT NULL,
  job_id         TEXT,
  asset_id       TEXT,
  upload_id      TEXT,
  size           INTEGER NOT NULL,
  mtime_ms       REAL NOT NULL,
  ino            INTEGER NOT NULL,
  dev            INTEGER NOT NULL,
  md5            TEXT,                    -- NULL: the file was not read before its upload began
  part_size      INTEGER,
  parts          TEXT NOT NULL DEFAULT '{}',
  date_created   TEXT NOT NULL,
  PRIMARY KEY (root_id, rel_path)
) WITHOUT ROWID;
INSERT INTO uploads_new SELECT root_id, rel_path, kind, batch_item_id, job_id, asset_id, upload_id, size, mtime_ms, ino, dev, md5, part_size, parts, date_created FROM uploads;
DROP TABLE uploads;
ALTER TABLE uploads_new RENAME TO uploads;
`;
