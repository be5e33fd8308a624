/**
 * upload_parts keyed by its primary key alone (WITHOUT ROWID): one B-tree instead of a rowid table
 * plus its primary-key index, so recording a part, and dropping an upload's parts on completion, each
 * change one page where they changed two. Rows are small (an upload id, two integers, an MD5), the
 * kind SQLite recommends WITHOUT ROWID for; every query reads parts by (upload_id, part_number).
 */
export default /* sql */ `
CREATE TABLE upload_parts_keyed (
  upload_id   TEXT NOT NULL REFERENCES uploads(upload_id) ON DELETE CASCADE,
  part_number INTEGER NOT NULL,
  size        INTEGER NOT NULL,
  etag        TEXT NOT NULL,            -- MD5 hex of the part
  PRIMARY KEY (upload_id, part_number)
) WITHOUT ROWID;
INSERT INTO upload_parts_keyed (upload_id, part_number, size, etag) SELECT upload_id, part_number, size, etag FROM upload_parts;
DROP TABLE upload_parts;
ALTER TABLE upload_parts_keyed RENAME TO upload_parts;
`;
