/** An upload may carry new bytes for an existing AssetFile instead of adding a version. */
export default /* sql */ `
-- The AssetFile whose bytes this upload replaces; NULL = the upload adds a new version.
ALTER TABLE uploads ADD COLUMN replace_file_id TEXT;
`;
