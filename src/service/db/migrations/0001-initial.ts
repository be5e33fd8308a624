/** Initial schema: accounts, users, OAuth, fields and options, assets and files, uploads, jobs. */
export default /* sql */ `
CREATE TABLE settings (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE accounts (
  id          TEXT PRIMARY KEY,
  subdomain   TEXT NOT NULL UNIQUE,
  name        TEXT NOT NULL,
  date_created TEXT NOT NULL
);

CREATE TABLE users (
  id            TEXT PRIMARY KEY,
  email         TEXT NOT NULL UNIQUE COLLATE NOCASE,
  name          TEXT,
  password_hash TEXT NOT NULL,
  date_created  TEXT NOT NULL
);

-- A user works in an account with a role; the token's subdomain scope selects the account.
CREATE TABLE memberships (
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role       TEXT NOT NULL CHECK (role IN ('admin', 'member', 'viewer')),
  PRIMARY KEY (account_id, user_id)
);

CREATE TABLE oauth_clients (
  client_id     TEXT PRIMARY KEY,
  account_id    TEXT REFERENCES accounts(id) ON DELETE CASCADE,
  name          TEXT NOT NULL,
  -- NULL for public clients (PKCE required); confidential clients must authenticate.
  client_secret TEXT,
  redirect_uris TEXT NOT NULL,          -- JSON array of exact URIs
  allow_any_loopback_port INTEGER NOT NULL DEFAULT 0,
  date_created  TEXT NOT NULL
);

CREATE TABLE auth_codes (
  code_hash      TEXT PRIMARY KEY,
  client_id      TEXT NOT NULL,
  user_id        TEXT NOT NULL,
  account_id     TEXT NOT NULL,
  redirect_uri   TEXT NOT NULL,
  scope          TEXT NOT NULL,
  audience       TEXT NOT NULL,
  code_challenge TEXT,
  expires_at     INTEGER NOT NULL,      -- epoch ms
  used_at        INTEGER,
  family_id      TEXT                   -- refresh-token family issued from this code (revoked on code reuse)
);

CREATE TABLE refresh_tokens (
  token_hash  TEXT PRIMARY KEY,
  family_id   TEXT NOT NULL,
  client_id   TEXT NOT NULL,
  user_id     TEXT NOT NULL,
  account_id  TEXT NOT NULL,
  scope       TEXT NOT NULL,
  audience    TEXT NOT NULL,
  expires_at  INTEGER NOT NULL,
  rotated_at  INTEGER,                  -- set when exchanged for a successor
  revoked_at  INTEGER
);
CREATE INDEX refresh_tokens_family ON refresh_tokens(family_id);

CREATE TABLE fields (
  id                TEXT PRIMARY KEY,
  account_id        TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name              TEXT NOT NULL,
  has_fixed_options INTEGER NOT NULL,
  hierarchical      INTEGER NOT NULL,
  multi_value       INTEGER NOT NULL,
  indestructable    INTEGER NOT NULL DEFAULT 0,
  role              TEXT,               -- 'FOLDERS' | 'KEYWORDS' for built-ins
  date_created      TEXT NOT NULL,
  UNIQUE (account_id, name)
);

CREATE TABLE field_options (
  id         TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  field_id   TEXT NOT NULL REFERENCES fields(id) ON DELETE CASCADE,
  parent_id  TEXT REFERENCES field_options(id),
  value      TEXT NOT NULL,
  position   INTEGER NOT NULL
);
-- Siblings have distinct values; the empty string stands for "top level" so NULL parents are unique too.
CREATE UNIQUE INDEX field_options_sibling_value ON field_options(field_id, ifnull(parent_id, ''), value);
CREATE INDEX field_options_parent ON field_options(parent_id);

CREATE TABLE assets (
  id                       TEXT PRIMARY KEY,
  account_id               TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  current_file_id          TEXT,
  state                    TEXT NOT NULL CHECK (state IN ('STAGED', 'PENDING_APPROVAL', 'LIVE', 'BINNED')),
  state_before_bin         TEXT,
  date_staged              TEXT,
  date_pending_approval    TEXT,
  date_live                TEXT,
  staged_by                TEXT,
  date_created             TEXT NOT NULL,
  date_last_modified       TEXT NOT NULL,
  date_last_file_added     TEXT
);
CREATE INDEX assets_account_modified ON assets(account_id, date_last_modified, id);

-- Metadata values, one row per value: field id → ordered strings (option ids for option fields).
CREATE TABLE asset_values (
  asset_id TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
  field_id TEXT NOT NULL,
  ord      INTEGER NOT NULL,
  value    TEXT NOT NULL,
  PRIMARY KEY (asset_id, field_id, ord)
);
CREATE INDEX asset_values_lookup ON asset_values(field_id, value);

CREATE TABLE asset_files (
  id             TEXT PRIMARY KEY,
  account_id     TEXT NOT NULL,
  asset_id       TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
  filename       TEXT NOT NULL,
  size           INTEGER NOT NULL,
  checksum       TEXT NOT NULL,
  sha256         TEXT NOT NULL,
  media_type     TEXT NOT NULL,
  media_subtype  TEXT NOT NULL,
  file_type      TEXT NOT NULL,
  width          INTEGER,
  height         INTEGER,
  date_added     TEXT NOT NULL,
  added_by       TEXT
);
CREATE INDEX asset_files_asset ON asset_files(asset_id, date_added);
CREATE INDEX asset_files_blob ON asset_files(sha256);

CREATE TABLE uploads (
  upload_id      TEXT PRIMARY KEY,
  id             TEXT NOT NULL UNIQUE,  -- the AssetUpload resource id
  account_id     TEXT NOT NULL,
  asset_id       TEXT NOT NULL,
  asset_file_id  TEXT,                  -- set once completed: the AssetFile it became
  filename       TEXT NOT NULL,
  folder_option_id TEXT,
  size           INTEGER NOT NULL,
  part_size      INTEGER NOT NULL,
  part_count     INTEGER NOT NULL,
  created_by     TEXT NOT NULL,
  date_created   TEXT NOT NULL,
  last_activity  INTEGER NOT NULL,      -- epoch ms; abandoned uploads are swept after a quiet period
  completed_parts TEXT                  -- JSON of the parts a completion used, to answer a repeat the same way
);
CREATE INDEX uploads_activity ON uploads(last_activity) WHERE asset_file_id IS NULL;

CREATE TABLE upload_parts (
  upload_id   TEXT NOT NULL REFERENCES uploads(upload_id) ON DELETE CASCADE,
  part_number INTEGER NOT NULL,
  size        INTEGER NOT NULL,
  etag        TEXT NOT NULL,            -- MD5 hex of the part
  PRIMARY KEY (upload_id, part_number)
);

CREATE TABLE jobs (
  id             TEXT PRIMARY KEY,
  account_id     TEXT NOT NULL,
  user_id        TEXT NOT NULL,
  type           TEXT NOT NULL,
  state          TEXT NOT NULL CHECK (state IN ('QUEUED', 'RUNNING', 'COMPLETED', 'FAILED')),
  progress       REAL NOT NULL DEFAULT 0,
  input          TEXT NOT NULL,         -- JSON request body
  cursor         INTEGER NOT NULL DEFAULT 0, -- items done; a restart resumes here
  successes      TEXT NOT NULL DEFAULT '{}',
  failures       TEXT NOT NULL DEFAULT '{}',
  error          TEXT,
  date_created   TEXT NOT NULL,
  date_completed TEXT
);
CREATE INDEX jobs_pending ON jobs(state) WHERE state IN ('QUEUED', 'RUNNING');
`;
