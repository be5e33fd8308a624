/** The engine's state: roots, the local and synced snapshots, the upload journal, what could not sync. */
export default /* sql */ `
CREATE TABLE roots (
  id            TEXT PRIMARY KEY,
  path          TEXT NOT NULL UNIQUE,     -- absolute path of the local folder
  server        TEXT NOT NULL,            -- base URL of the service
  remote_path   TEXT NOT NULL,            -- Folders path it maps to, '/' = the top level
  publish_live  INTEGER NOT NULL DEFAULT 0,
  stopped       TEXT,                     -- why the root is stopped (missing root or marker), NULL = running
  date_created  TEXT NOT NULL
);

-- What the disk holds: one row per regular file the scanner accepted.
CREATE TABLE local_files (
  root_id   TEXT NOT NULL REFERENCES roots(id) ON DELETE CASCADE,
  rel_path  TEXT NOT NULL,
  size      INTEGER NOT NULL,
  mtime_ms  REAL NOT NULL,
  ino       INTEGER NOT NULL,
  dev       INTEGER NOT NULL,
  md5       TEXT NOT NULL,
  PRIMARY KEY (root_id, rel_path)
) WITHOUT ROWID;

-- The last state both sides agreed on, per placement (an asset in two folders has two rows).
CREATE TABLE synced (
  root_id   TEXT NOT NULL REFERENCES roots(id) ON DELETE CASCADE,
  rel_path  TEXT NOT NULL,
  asset_id  TEXT NOT NULL,
  md5       TEXT NOT NULL,
  size      INTEGER NOT NULL,
  mtime_ms  REAL NOT NULL,
  ino       INTEGER NOT NULL,
  dev       INTEGER NOT NULL,
  PRIMARY KEY (root_id, rel_path)
) WITHOUT ROWID;
CREATE INDEX synced_asset ON synced(asset_id);

-- Local directory (relative, '' = the root itself) → the Folders option it maps to.
CREATE TABLE folders (
  root_id   TEXT NOT NULL REFERENCES roots(id) ON DELETE CASCADE,
  rel_dir   TEXT NOT NULL,
  option_id TEXT,                         -- NULL: the top level of the Folders field
  PRIMARY KEY (root_id, rel_dir)
) WITHOUT ROWID;

-- The upload journal: written before the first byte moves, so a crash resumes instead of repeating.
CREATE TABLE uploads (
  root_id        TEXT NOT NULL REFERENCES roots(id) ON DELETE CASCADE,
  rel_path       TEXT NOT NULL,
  kind           TEXT NOT NULL CHECK (kind IN ('NEW', 'VERSION')),
  batch_item_id  TEXT NOT NULL,
  job_id         TEXT,                    -- the asset-and-upload job that creates the asset
  asset_id       TEXT,
  upload_id      TEXT,
  size           INTEGER NOT NULL,
  mtime_ms       REAL NOT NULL,
  ino            INTEGER NOT NULL,
  dev            INTEGER NOT NULL,
  md5            TEXT NOT NULL,
  part_size      INTEGER,
  parts          TEXT NOT NULL DEFAULT '{}', -- JSON partNumber → eTag of the parts the service confirmed
  date_created   TEXT NOT NULL,
  PRIMARY KEY (root_id, rel_path)
) WITHOUT ROWID;

-- Files that could not sync, with the reason and when to try again.
CREATE TABLE not_synced (
  root_id       TEXT NOT NULL REFERENCES roots(id) ON DELETE CASCADE,
  rel_path      TEXT NOT NULL,
  reason        TEXT NOT NULL,            -- a stable code
  detail        TEXT NOT NULL,
  attempts      INTEGER NOT NULL DEFAULT 0,
  retry_at      INTEGER,                  -- epoch ms; NULL = only after the file changes
  PRIMARY KEY (root_id, rel_path)
) WITHOUT ROWID;

-- Deletions the mass-delete guard held back, until \`asset-sync confirm-deletes\`.
CREATE TABLE held_deletes (
  root_id   TEXT NOT NULL REFERENCES roots(id) ON DELETE CASCADE,
  rel_path  TEXT NOT NULL,
  asset_id  TEXT NOT NULL,
  confirmed INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (root_id, rel_path)
) WITHOUT ROWID;
`;
