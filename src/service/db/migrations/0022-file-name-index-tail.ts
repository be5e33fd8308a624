/**
 * The file-name trigram index (0021) takes new files in batches instead of one by one. FTS5 writes a
 * new segment of its index at every commit that changed it: a file committed with two or three others
 * wrote about eight rows of index beside its own eleven, more than any other per-file write. Now a row
 * is indexed at insert only if its rowid is at or below `indexed_through`; the rows above it (the tail)
 * are indexed later, many to a commit (search/file-name-index.ts), and searches read the tail directly
 * beside the index (search/text-prefilter.ts).
 *
 * What holds at every commit: a row of asset_files with rowid ≤ indexed_through is in the index under its
 * current name; a row above it is not. So a delete or rename touches the index only for a row at or
 * below the mark, and a rowid reused below the mark (SQLite hands out max(rowid) + 1, so the largest
 * rowid deleted can come back) is indexed at once by its insert.
 */
export default /* sql */ `
CREATE TABLE text_index_progress (
  name            TEXT PRIMARY KEY,
  indexed_through INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO text_index_progress (name, indexed_through) VALUES ('file_names', (SELECT coalesce(max(rowid), 0) FROM asset_files));

DROP TRIGGER asset_files_trigrams_insert;
DROP TRIGGER asset_files_trigrams_delete;
DROP TRIGGER asset_files_trigrams_update;
CREATE TRIGGER asset_files_trigrams_insert AFTER INSERT ON asset_files
  WHEN new.rowid <= (SELECT indexed_through FROM text_index_progress WHERE name = 'file_names') BEGIN
  INSERT INTO file_name_trigrams (rowid, filename) VALUES (new.rowid, new.filename);
END;
CREATE TRIGGER asset_files_trigrams_delete AFTER DELETE ON asset_files
  WHEN old.rowid <= (SELECT indexed_through FROM text_index_progress WHERE name = 'file_names') BEGIN
  INSERT INTO file_name_trigrams (file_name_trigrams, rowid, filename) VALUES ('delete', old.rowid, old.filename);
END;
CREATE TRIGGER asset_files_trigrams_update AFTER UPDATE OF filename ON asset_files
  WHEN new.filename IS NOT old.filename AND old.rowid <= (SELECT indexed_through FROM text_index_progress WHERE name = 'file_names') BEGIN
  INSERT INTO file_name_trigrams (file_name_trigrams, rowid, filename) VALUES ('delete', old.rowid, old.filename);
  INSERT INTO file_name_trigrams (rowid, filename) VALUES (new.rowid, new.filename);
END;
`;
