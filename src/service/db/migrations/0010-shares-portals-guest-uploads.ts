/**
 * Public access to assets: shares of assets or of a collection (reached by id or by any slug
 * they ever had), portals (the live assets of a set of folders, optionally behind a passcode) and guest
 * upload links (uploads into one folder, with limits). Passcodes and guest-link keys are stored only as
 * hashes. Rows that point at assets, collections or folders go with them (ON DELETE CASCADE).
 */
export default /* sql */ `
CREATE TABLE shares (
  id            TEXT PRIMARY KEY,
  account_id    TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  kind          TEXT NOT NULL CHECK (kind IN ('ASSET', 'COLLECTION')),
  collection_id TEXT REFERENCES collections(id) ON DELETE CASCADE,
  access        TEXT NOT NULL CHECK (access IN ('VIEW', 'VIEW_AND_DOWNLOAD')),
  slug          TEXT,                    -- the current slug; every slug it ever had is in share_slugs
  created_by    TEXT NOT NULL,
  date_created  TEXT NOT NULL,
  date_expires  TEXT,                    -- NULL: never expires
  CHECK ((kind = 'COLLECTION') = (collection_id IS NOT NULL))
);
CREATE INDEX shares_account ON shares(account_id, kind);

CREATE TABLE share_assets (
  share_id TEXT NOT NULL REFERENCES shares(id) ON DELETE CASCADE,
  asset_id TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  PRIMARY KEY (share_id, asset_id)
) WITHOUT ROWID;

-- Old slugs keep working: a slug, once given to a share, points at it until the share is deleted.
CREATE TABLE share_slugs (
  slug     TEXT PRIMARY KEY,
  share_id TEXT NOT NULL REFERENCES shares(id) ON DELETE CASCADE
) WITHOUT ROWID;
CREATE INDEX share_slugs_share ON share_slugs(share_id);

CREATE TABLE portals (
  id                 TEXT PRIMARY KEY,
  account_id         TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name               TEXT NOT NULL,
  passcode_hash      TEXT,               -- scrypt of the passcode with passcode_salt; NULL: public
  passcode_salt      TEXT,
  date_created       TEXT NOT NULL,
  date_last_modified TEXT NOT NULL
);
CREATE INDEX portals_account ON portals(account_id);

CREATE TABLE portal_folders (
  portal_id TEXT NOT NULL REFERENCES portals(id) ON DELETE CASCADE,
  option_id TEXT NOT NULL REFERENCES field_options(id) ON DELETE CASCADE,
  PRIMARY KEY (portal_id, option_id)
) WITHOUT ROWID;

CREATE TABLE guest_uploads (
  id             TEXT PRIMARY KEY,
  account_id     TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  key_hash       TEXT NOT NULL UNIQUE,   -- sha256 of the link's secret key
  name           TEXT NOT NULL,
  folder_id      TEXT NOT NULL REFERENCES field_options(id) ON DELETE CASCADE,
  max_file_size  INTEGER NOT NULL,
  max_files      INTEGER NOT NULL,
  created_by     TEXT NOT NULL,
  date_created   TEXT NOT NULL,
  date_expires   TEXT
);
CREATE INDEX guest_uploads_account ON guest_uploads(account_id);

-- The assets a guest link created: they count against its max_files while they exist.
CREATE TABLE guest_upload_assets (
  guest_upload_id TEXT NOT NULL REFERENCES guest_uploads(id) ON DELETE CASCADE,
  asset_id        TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
  PRIMARY KEY (guest_upload_id, asset_id)
) WITHOUT ROWID;
`;
