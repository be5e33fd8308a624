/**
 * A remap that moves the root's folder in the service, written ahead of its call to the service and
 * finished by the root's remap record, which removes it in the same transaction as it sets the new
 * place. Between the two, the service and the state disagree on where the root's folder is: an upload
 * by path would recreate the old place and its file would read as gone from the root. A row here holds
 * the root's passes until the remap is finished (create-engine.ts). `choice` is `move`.
 */
export default /* sql */ `
CREATE TABLE remaps_ahead (
  root_id  TEXT PRIMARY KEY REFERENCES roots(id) ON DELETE CASCADE,
  to_path  TEXT NOT NULL,
  choice   TEXT NOT NULL
) WITHOUT ROWID;
`;
