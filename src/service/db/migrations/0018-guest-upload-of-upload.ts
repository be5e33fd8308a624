/**
 * Which guest link started an upload. A guest's upload is the guest's alone: it completes only through
 * its link (never by its part PUT, which acts for the link's creator), and deleting the link ends it.
 *
 * - uploads.guest_upload_id: the link an open upload was started through; NULL for the account's own
 *   uploads. No foreign key: the link's deletion discards its open uploads (bytes and row) itself.
 * - Open uploads of assets a link made that never received a file were the guest's: they are marked.
 */
export default /* sql */ `
ALTER TABLE uploads ADD COLUMN guest_upload_id TEXT;
UPDATE uploads SET guest_upload_id = (SELECT g.guest_upload_id FROM guest_upload_assets g WHERE g.asset_id = uploads.asset_id)
 WHERE asset_file_id IS NULL
   AND asset_id IN (SELECT g.asset_id FROM guest_upload_assets g JOIN assets a ON a.id = g.asset_id WHERE a.current_file_id IS NULL);
CREATE INDEX uploads_guest_upload ON uploads(guest_upload_id) WHERE guest_upload_id IS NOT NULL;
`;
