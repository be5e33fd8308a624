/**
 * The engine's own moves in the download journal (0004): a move of the service's (`LOCAL_MOVE`) is
 * written there before its rename, as a download is, and the row goes with the move's record. Without
 * it a crash between the rename and that record leaves the synced row at the old path and the file at
 * the new one, maybe edited since: a new file the user writes at the old path reads as the asset's
 * edit, and the moved file as a new one, uploaded as a second asset under the name this disk alone
 * needed. `synced_from`: the synced row the move replaces; `synced_md5`: the
 * MD5 the record keeps (the synced bytes, where the moved file was edited here). NULL for a download.
 */
export default /* sql */ `
ALTER TABLE landings ADD COLUMN synced_from TEXT;
ALTER TABLE landings ADD COLUMN synced_md5 TEXT;
`;
