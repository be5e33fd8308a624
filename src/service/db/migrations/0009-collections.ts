/**
 * Collections: user-made sets of assets, their members and the collaborators they are shared
 * with inside the account. Membership rows go with the asset or the collection (ON DELETE CASCADE), so
 * no path that deletes an asset can leave a collection pointing at nothing.
 */
export default /* sql */ `
CREATE TABLE collections (
  id                 TEXT PRIMARY KEY,
  account_id         TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name               TEXT NOT NULL,
  description        TEXT,
  owner_id           TEXT NOT NULL,
  date_created       TEXT NOT NULL,
  date_last_modified TEXT NOT NULL
);
CREATE INDEX collections_account ON collections(account_id, owner_id);

CREATE TABLE collection_assets (
  collection_id TEXT NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
  asset_id      TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
  date_added    TEXT NOT NULL,
  PRIMARY KEY (collection_id, asset_id)
) WITHOUT ROWID;
-- The COLLECTIONS search field and asset deletion look up by asset.
CREATE INDEX collection_assets_asset ON collection_assets(asset_id, collection_id);

CREATE TABLE collection_collaborators (
  collection_id TEXT NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
  user_id       TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role          TEXT NOT NULL CHECK (role IN ('VIEWER', 'EDITOR')),
  PRIMARY KEY (collection_id, user_id)
) WITHOUT ROWID;
CREATE INDEX collection_collaborators_user ON collection_collaborators(user_id, collection_id);
`;
