/**
 * Download transformations, presets, saved crop areas and zipped downloads.
 * - transformed_files: the cache of transformed files, one row per (source blob, operations); the bytes
 *   are transforms/<key>.<ext> beside the blobs and go with the blob (blobs/blob-store.ts derivedOf).
 * - preset_group_types / preset_groups / preset_transformations: the presets `GET
 *   /grouped-preset-transformations` shows. A preset with account_id NULL belongs to every account of
 *   the installation (`asset-sync serve` seeds them; `asset-sync preset` manages them).
 * - saved_crop_areas: named boxes on an asset, in pixels of its current file as a viewer shows it.
 * - download_zips: what a zipped download job's zip holds, so its URL can stream it again (with Range).
 * - jobs.result: a job's own result besides per-item successes (a zipped download's zip).
 */
export default /* sql */ `
CREATE TABLE transformed_files (
  key           TEXT PRIMARY KEY,      -- sha256 hex of (source sha256, operations)
  source_sha256 TEXT NOT NULL,
  operations    TEXT NOT NULL,         -- JSON of the resolved operations, to make it again
  extension     TEXT NOT NULL,
  content_type  TEXT NOT NULL,
  size          INTEGER NOT NULL,
  checksum      TEXT NOT NULL,         -- MD5 hex, as asset_files.checksum
  date_created  TEXT NOT NULL
);
CREATE INDEX transformed_files_source ON transformed_files(source_sha256);

CREATE TABLE preset_group_types (
  id       TEXT PRIMARY KEY,
  name     TEXT NOT NULL UNIQUE,
  position INTEGER NOT NULL
);

CREATE TABLE preset_groups (
  id            TEXT PRIMARY KEY,
  group_type_id TEXT NOT NULL REFERENCES preset_group_types(id) ON DELETE CASCADE,
  name          TEXT NOT NULL,
  icon_url      TEXT,
  position      INTEGER NOT NULL,
  UNIQUE (group_type_id, name)
);

CREATE TABLE preset_transformations (
  id            TEXT PRIMARY KEY,
  account_id    TEXT,                  -- NULL: every account of the installation
  name          TEXT NOT NULL,
  group_id      TEXT REFERENCES preset_groups(id) ON DELETE SET NULL,
  position      INTEGER NOT NULL,
  candidates    TEXT NOT NULL,         -- JSON: candidateTransformations
  date_created  TEXT NOT NULL
);
CREATE UNIQUE INDEX preset_transformations_name ON preset_transformations(COALESCE(account_id, ''), name COLLATE NOCASE);

CREATE TABLE saved_crop_areas (
  id            TEXT PRIMARY KEY,
  account_id    TEXT NOT NULL,
  asset_id      TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
  name          TEXT NOT NULL,
  x             INTEGER NOT NULL,
  y             INTEGER NOT NULL,
  width         INTEGER NOT NULL,
  height        INTEGER NOT NULL,
  date_created  TEXT NOT NULL,
  date_last_modified TEXT NOT NULL
);
CREATE INDEX saved_crop_areas_asset ON saved_crop_areas(asset_id);

CREATE TABLE download_zips (
  id           TEXT PRIMARY KEY,
  job_id       TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  entries      TEXT NOT NULL,          -- JSON: [{name, size, sha256 | transformKey}]
  size         INTEGER NOT NULL,
  checksum     TEXT NOT NULL
);

ALTER TABLE jobs ADD COLUMN result TEXT;
`;
