/**
 * The app's activity, kept across restarts (db/activity-repo.ts): one row per entry, `id` the app's
 * entry id (grows by one per entry; the list's order and paging cursor). A running entry's row is
 * written again when it ends. Capped: the newest entries only, trimmed by id with each batch of writes.
 * `from_path`: where the file was before (a move, a conflict copy's original name), or NULL.
 * `error`: the failure as JSON ({ name, code, message }), or NULL.
 */
export default /* sql */ `
CREATE TABLE activity (
  id          INTEGER PRIMARY KEY,
  folder_id   TEXT NOT NULL,
  rel_path    TEXT NOT NULL,
  kind        TEXT NOT NULL,
  from_path   TEXT,
  status      TEXT NOT NULL,
  bytes_done  INTEGER NOT NULL,
  bytes_total INTEGER,
  at          TEXT NOT NULL,
  error       TEXT
);
`;
