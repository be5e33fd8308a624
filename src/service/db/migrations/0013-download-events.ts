/**
 * Asset download events (download-events/): one row per file handed out for download, whoever asked
 * (a member's download job, zipped or not; a share or portal visitor). Rows only ever get inserted; they
 * are never changed, and they outlive the asset (an event of a deleted asset still counts in reports).
 * The indexes serve the common reports: an account's events by time, per asset and per user by time.
 */
export default /* sql */ `
CREATE TABLE download_events (
  id                        TEXT PRIMARY KEY,       -- time-ordered UUID
  account_id                TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  asset_id                  TEXT NOT NULL,
  asset_file_id             TEXT NOT NULL,
  user_id                   TEXT,                   -- NULL for anonymous visitors of a share or portal
  portal_id                 TEXT,
  asset_share_id            TEXT,
  user_type                 TEXT NOT NULL CHECK (user_type IN ('USER', 'STAFF', 'ANONYMOUS')),
  download_type             TEXT NOT NULL CHECK (download_type IN ('DIRECT', 'ZIP', 'SHARE', 'PORTAL')),
  transformation_type       TEXT NOT NULL CHECK (transformation_type IN ('ORIGINAL', 'CUSTOM', 'PRESET')),
  preset_transformation_id  TEXT,
  date_downloaded           TEXT NOT NULL
);
CREATE INDEX download_events_account_date ON download_events(account_id, date_downloaded, id);
CREATE INDEX download_events_asset ON download_events(account_id, asset_id, date_downloaded);
CREATE INDEX download_events_user ON download_events(account_id, user_id, date_downloaded);
`;
