/**
 * The presets a fresh installation offers (the hosted service configures its presets outside the API,
 * so `asset-sync serve` seeds these): web 1000 px JPG, thumbnail 300 px WEBP, print TIFF and a social
 * 1080×1080 square (a centred cover crop). Each transforms raster images and hands every other file
 * over as it is. Installation-wide (account_id NULL); `asset-sync preset` adds and removes others.
 */
const images = { type: 'FILE_TYPE_IN', fileTypes: ['IMAGE'] };
const original = { criteria: { type: 'MATCH_ALL' }, transformation: { operations: [] } };
const preset = (operations: unknown[]): string => JSON.stringify([{ criteria: images, transformation: { operations } }, original]);

const web = preset([
  { type: 'RESIZE', width: 1000, height: 1000, fit: 'INSIDE' },
  { type: 'CONVERT', format: 'JPG', quality: 82 },
]);
const thumbnail = preset([
  { type: 'RESIZE', width: 300, height: 300, fit: 'INSIDE' },
  { type: 'CONVERT', format: 'WEBP', quality: 80 },
]);
const print = preset([{ type: 'CONVERT', format: 'TIFF' }]);
const social = preset([
  { type: 'RESIZE', width: 1080, height: 1080, fit: 'COVER' },
  { type: 'CONVERT', format: 'JPG', quality: 85 },
]);
const quote = (text: string): string => `'${text.replaceAll("'", "''")}'`;
const at = "'2026-11-25T00:00:00.000Z'";

export default /* sql */ `
INSERT INTO preset_group_types (id, name, position) VALUES ('purpose', 'Purpose', 0);
INSERT INTO preset_groups (id, group_type_id, name, icon_url, position) VALUES
  ('web', 'purpose', 'Web', NULL, 0),
  ('print', 'purpose', 'Print', NULL, 1),
  ('social', 'purpose', 'Social', NULL, 2);
INSERT INTO preset_transformations (id, account_id, name, group_id, position, candidates, date_created) VALUES
  ('web-1000-jpg', NULL, 'Web (1000 px JPG)', 'web', 0, ${quote(web)}, ${at}),
  ('thumbnail-300-webp', NULL, 'Thumbnail (300 px WEBP)', 'web', 1, ${quote(thumbnail)}, ${at}),
  ('print-tiff', NULL, 'Print (TIFF)', 'print', 0, ${quote(print)}, ${at}),
  ('social-1080-square', NULL, 'Social (1080×1080 crop)', 'social', 0, ${quote(social)}, ${at});
`;
