/**
 * Asset search: server-side scroll state, and indexes for the compiled criteria (src/service/search/).
 * - search_scrolls: one row per open scroll search; the keyset cursor travels in the signed scroll id.
 * - asset_values(field_id, value, asset_id): "assets with a value of field F in (…)" read from the index
 *   alone; it covers every query the older (field_id, value) index served, which is dropped.
 * - assets(account_id, state, date_last_modified, id): the default LIVE filter with the usual sort on
 *   DATE_LAST_MODIFIED, and cheap counts per state.
 */
export default /* sql */ `
CREATE TABLE search_scrolls (
  id            TEXT PRIMARY KEY,
  account_id    TEXT NOT NULL,
  user_id       TEXT NOT NULL,
  criterion     TEXT NOT NULL,          -- JSON, as sent
  sorts         TEXT NOT NULL,          -- JSON, as sent
  page_size     INTEGER NOT NULL,
  total_results INTEGER NOT NULL,       -- counted when the scroll started
  last_used_at  INTEGER NOT NULL        -- epoch ms; idle scrolls expire
);
CREATE INDEX search_scrolls_last_used ON search_scrolls(last_used_at);

CREATE INDEX asset_values_field_value_asset ON asset_values(field_id, value, asset_id);
DROP INDEX asset_values_lookup;
CREATE INDEX assets_account_state_modified ON assets(account_id, state, date_last_modified, id);
`;
