/**
 * Small blobs kept in the database instead of a file each (blobs/inline-blobs.ts): the bytes of a
 * one-part upload of up to 64 KiB, stored in the transaction that records its AssetFile. Rowid order
 * follows insertion, so a new row appends to the table's last page; the sha256 index is the one
 * random write.
 */
export default /* sql */ `
CREATE TABLE inline_blobs (
  id     INTEGER PRIMARY KEY,
  sha256 TEXT NOT NULL UNIQUE,          -- hex, as files.sha256
  bytes  BLOB NOT NULL
);
`;
