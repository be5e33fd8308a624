/**
 * Comments on assets (SERVICE-SPEC §4.2; shape ours, docs/api.md "Comments"). A comment goes with its
 * asset; its author is kept as an id even once the user is gone (the text stays readable).
 */
export default /* sql */ `
CREATE TABLE comments (
  id                 TEXT PRIMARY KEY,
  account_id         TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  asset_id           TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
  author_id          TEXT NOT NULL,
  text               TEXT NOT NULL,
  date_created       TEXT NOT NULL,
  date_last_modified TEXT NOT NULL
);
CREATE INDEX comments_asset ON comments(asset_id, date_created);
`;
