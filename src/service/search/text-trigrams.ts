/**
 * The trigram indexes of file names and text-field values (migration 0021) are derived data: their
 * triggers keep them in step row by row, and this fills them afresh from their content tables, as the
 * triggers would have — after rows were put back wholesale, or after a VACUUM renumbered the rowids.
 * The file names' index then holds every file: none is left in its tail (file-name-index.ts).
 */
import type { Db } from '../db/open-database.js';
import { fileNameIndex } from './file-name-index.js';

export function rebuildTextTrigrams(db: Db): void {
  db.exec(`
    INSERT INTO file_name_trigrams (file_name_trigrams) VALUES ('rebuild');
    INSERT INTO value_trigrams (value_trigrams) VALUES ('delete-all');
    INSERT INTO value_trigrams (rowid, value)
      SELECT v.rowid, v.value FROM asset_values v JOIN fields f ON f.id = v.field_id WHERE f.has_fixed_options = 0;
  `);
  fileNameIndex(db).markAllIndexed();
}
