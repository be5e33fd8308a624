/**
 * Previews that could not be made, by blob (previews are content-addressed): the file was refused
 * (an SVG over the expansion bound), its render was killed over a time or memory limit, or no renderer
 * reads it. Kept across restarts, so such a file is not rendered again and again and its preview reads
 * "could not be made" (`PREVIEW_FAILED`) rather than waiting forever. Removed with the blob.
 */
export default /* sql */ `
CREATE TABLE preview_failures (
  sha256 TEXT PRIMARY KEY,
  reason TEXT NOT NULL,
  message TEXT NOT NULL,
  date_failed TEXT NOT NULL
) WITHOUT ROWID;
`;
