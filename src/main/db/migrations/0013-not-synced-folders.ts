/**
 * Whether a not-synced path is a folder, so the window can say "folder" (and that nothing in it
 * syncs) instead of calling every item a file. Rows from before are files until the scanner reports
 * them again.
 */
export default /* sql */ `
ALTER TABLE not_synced ADD COLUMN is_folder INTEGER NOT NULL DEFAULT 0;
`;
