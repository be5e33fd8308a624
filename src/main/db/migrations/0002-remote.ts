/**
 * Two-way sync (DESIGN.md §3): the remote snapshot of each root (its assets and its folder tree as the
 * service last showed them, with the poll's progress), the conflicts waiting for the user, and which way
 * a held deletion goes. Append-only like every migration: never edit this once shipped.
 */
export default /* sql */ `
-- What the service holds for a root: one row per asset in the root's scope (not BINNED, with a file).
CREATE TABLE remote_assets (
  root_id        TEXT NOT NULL REFERENCES roots(id) ON DELETE CASCADE,
  asset_id       TEXT NOT NULL,
  file_id        TEXT NOT NULL,             -- the current AssetFile
  filename       TEXT NOT NULL,             -- as the service spells it (made safe when mapped to disk)
  md5            TEXT NOT NULL,             -- lowercase hex
  size           INTEGER NOT NULL,
  date_modified  TEXT NOT NULL,             -- the asset's dateLastModified
  date_added     TEXT NOT NULL,             -- the current file's dateAdded ('' when unknown)
  folders        TEXT NOT NULL DEFAULT '[]',-- JSON array of Folders option ids
  PRIMARY KEY (root_id, asset_id)
) WITHOUT ROWID;

-- The root's folder tree on the service, from one PARENT_ID search per level.
CREATE TABLE remote_folders (
  root_id    TEXT NOT NULL REFERENCES roots(id) ON DELETE CASCADE,
  option_id  TEXT NOT NULL,
  parent_id  TEXT,                          -- NULL: a child of the root's own option (or the top level)
  value      TEXT NOT NULL,
  rel_dir    TEXT NOT NULL,                 -- where it lives on disk, relative to the root
  PRIMARY KEY (root_id, option_id)
) WITHOUT ROWID;

-- How far the remote feed got: the incremental poll's watermark and the last full listing.
CREATE TABLE remote_state (
  root_id      TEXT PRIMARY KEY REFERENCES roots(id) ON DELETE CASCADE,
  watermark    TEXT,                        -- latest service date seen (ISO), polls start a little before it
  last_full    TEXT,                        -- when the last full listing finished (ISO, client clock)
  root_option  TEXT                         -- the option the root maps to ('' = the top level)
);

-- Both sides changed one file: the service's version took the name, ours sits beside it as copy_path.
CREATE TABLE conflicts (
  id               INTEGER PRIMARY KEY AUTOINCREMENT,
  root_id          TEXT NOT NULL REFERENCES roots(id) ON DELETE CASCADE,
  rel_path         TEXT NOT NULL,           -- the file as synced (the service's version)
  copy_path        TEXT NOT NULL,           -- our version, kept beside it and not uploaded
  asset_id         TEXT NOT NULL,
  local_md5        TEXT NOT NULL,
  local_size       INTEGER NOT NULL,
  local_mtime_ms   REAL NOT NULL,
  remote_md5       TEXT NOT NULL,
  remote_size      INTEGER NOT NULL,
  remote_file_id   TEXT NOT NULL,
  remote_modified  TEXT NOT NULL,
  date_created     TEXT NOT NULL,
  UNIQUE (root_id, copy_path)
);

-- Which side a held deletion would delete on: REMOTE (the placement on the service, the upload direction)
-- or LOCAL (the file on disk goes to the trash because the service lost the asset).
ALTER TABLE held_deletes ADD COLUMN direction TEXT NOT NULL DEFAULT 'REMOTE';
`;
