/**
 * Comments on assets (SERVICE-SPEC §4.2; shape ours, docs/api.md "Comments"). A comment goes with its
 * asset; its author is kept as an id even once the user is gone (the text stays readable).
 *
 * Saved searches (SERVICE-SPEC §1, §6): a user's criterion and sorts, and whether they want e-mail about
 * new matches. `checked_from` is where the next check starts looking (assets created, made live or given
 * a file since then); `saved_search_notified` remembers every asset already e-mailed about, so the
 * overlap between checks never sends an asset twice (saved-searches/saved-search-mailer.ts).
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

CREATE TABLE saved_searches (
  id                 TEXT PRIMARY KEY,
  account_id         TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  owner_id           TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name               TEXT NOT NULL,
  criterion          TEXT NOT NULL,     -- JSON, as given (compiled again on every run)
  sorts              TEXT NOT NULL,     -- JSON
  email_updates      INTEGER NOT NULL DEFAULT 0,
  checked_from       TEXT NOT NULL,
  date_created       TEXT NOT NULL,
  date_last_modified TEXT NOT NULL
);
CREATE INDEX saved_searches_owner ON saved_searches(account_id, owner_id);
CREATE INDEX saved_searches_mailed ON saved_searches(email_updates) WHERE email_updates = 1;

CREATE TABLE saved_search_notified (
  saved_search_id TEXT NOT NULL REFERENCES saved_searches(id) ON DELETE CASCADE,
  asset_id        TEXT NOT NULL,
  PRIMARY KEY (saved_search_id, asset_id)
) WITHOUT ROWID;
`;
