/**
 * Trigram indexes of file names and of text-field values (KEYWORDS and custom fields without fixed
 * options), so FIELD_MATCHES `*text*` on FILENAME or such a field finds its candidates from an index
 * instead of reading every asset (search/text-prefilter.ts). FTS5 "external content" tables: the text
 * stays only in asset_files / asset_values; each index is keyed by its row's rowid and kept in step by
 * the triggers below, which also fire on cascaded deletes.
 *
 * value_trigrams holds only the rows of fields without fixed options (option fields store option ids,
 * matched by label elsewhere); a field's has_fixed_options never changes, so a row is indexed for its
 * whole life or never. The rowids of asset_files and asset_values must stay stable: a VACUUM (which may
 * renumber them) must be followed by rebuilding both indexes (search/text-trigrams.ts).
 */
export default /* sql */ `
CREATE VIRTUAL TABLE file_name_trigrams USING fts5(filename, content = 'asset_files', content_rowid = 'rowid', tokenize = 'trigram');
INSERT INTO file_name_trigrams (file_name_trigrams) VALUES ('rebuild');
CREATE TRIGGER asset_files_trigrams_insert AFTER INSERT ON asset_files BEGIN
  INSERT INTO file_name_trigrams (rowid, filename) VALUES (new.rowid, new.filename);
END;
CREATE TRIGGER asset_files_trigrams_delete AFTER DELETE ON asset_files BEGIN
  INSERT INTO file_name_trigrams (file_name_trigrams, rowid, filename) VALUES ('delete', old.rowid, old.filename);
END;
CREATE TRIGGER asset_files_trigrams_update AFTER UPDATE OF filename ON asset_files WHEN new.filename IS NOT old.filename BEGIN
  INSERT INTO file_name_trigrams (file_name_trigrams, rowid, filename) VALUES ('delete', old.rowid, old.filename);
  INSERT INTO file_name_trigrams (rowid, filename) VALUES (new.rowid, new.filename);
END;

CREATE VIRTUAL TABLE value_trigrams USING fts5(value, content = 'asset_values', content_rowid = 'rowid', tokenize = 'trigram');
INSERT INTO value_trigrams (rowid, value)
  SELECT v.rowid, v.value FROM asset_values v JOIN fields f ON f.id = v.field_id WHERE f.has_fixed_options = 0;
CREATE TRIGGER asset_values_trigrams_insert AFTER INSERT ON asset_values
  WHEN (SELECT has_fixed_options FROM fields WHERE id = new.field_id) = 0 BEGIN
  INSERT INTO value_trigrams (rowid, value) VALUES (new.rowid, new.value);
END;
CREATE TRIGGER asset_values_trigrams_delete AFTER DELETE ON asset_values
  WHEN (SELECT has_fixed_options FROM fields WHERE id = old.field_id) = 0 BEGIN
  INSERT INTO value_trigrams (value_trigrams, rowid, value) VALUES ('delete', old.rowid, old.value);
END;
CREATE TRIGGER asset_values_trigrams_update AFTER UPDATE OF value, field_id ON asset_values BEGIN
  INSERT INTO value_trigrams (value_trigrams, rowid, value)
    SELECT 'delete', old.rowid, old.value WHERE (SELECT has_fixed_options FROM fields WHERE id = old.field_id) = 0;
  INSERT INTO value_trigrams (rowid, value)
    SELECT new.rowid, new.value WHERE (SELECT has_fixed_options FROM fields WHERE id = new.field_id) = 0;
END;
`;
