/**
 * The schema for search and metadata helpers:
 * - search_filter_view: which search filters an account shows, in order (search-filters/). A filter id
 *   is a field id or a fixed search field name, so no foreign key: a filter whose field is deleted is
 *   dropped when the view is read.
 * - field_views: admin-configured ordered subsets of fields (field-views/); field ids as a JSON array.
 * - reference_images: images uploaded to a signed URL for searching by image (reference-images/).
 * - rejected_suggestions: metadata suggestions a user rejected for an asset, never suggested again there.
 */
export default /* sql */ `
CREATE TABLE search_filter_view (
  account_id       TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  search_filter_id TEXT NOT NULL,
  position         INTEGER NOT NULL,
  PRIMARY KEY (account_id, search_filter_id)
);

CREATE TABLE field_views (
  id                 TEXT PRIMARY KEY,
  account_id         TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name               TEXT NOT NULL,
  field_ids          TEXT NOT NULL,       -- JSON array, in display order
  date_created       TEXT NOT NULL,
  date_last_modified TEXT NOT NULL,
  UNIQUE (account_id, name)
);

CREATE TABLE reference_images (
  key           TEXT PRIMARY KEY,
  account_id    TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  user_id       TEXT NOT NULL,
  size          INTEGER,                  -- NULL until the image is PUT
  media_type    TEXT,
  width         INTEGER,
  height        INTEGER,
  date_created  TEXT NOT NULL,
  date_uploaded TEXT
);

CREATE TABLE rejected_suggestions (
  account_id    TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  asset_id      TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
  field_id      TEXT NOT NULL,
  value         TEXT NOT NULL,            -- as suggested: text, or an option id for option fields
  user_id       TEXT NOT NULL,
  date_rejected TEXT NOT NULL,
  PRIMARY KEY (asset_id, field_id, value)
);
`;
