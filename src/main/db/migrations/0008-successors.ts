/**
 * Files that outlive their asset: edited here while the service binned the asset they were synced to,
 * they go up as new assets (the edit wins, DESIGN.md §3) once their synced row lets go, and each keeps
 * the binned asset's name on the service (`asset_id`: that asset). The file's own name may be only
 * how this disk holds that name, numbered apart from a namesake (`a (2).txt`), and that number, this
 * disk's alone, must not become everyone's as the new asset's name. A row goes once
 * the path syncs again or its file is gone.
 */
export default /* sql */ `
CREATE TABLE successors (
  root_id   TEXT NOT NULL REFERENCES roots(id) ON DELETE CASCADE,
  rel_path  TEXT NOT NULL,
  asset_id  TEXT NOT NULL,
  PRIMARY KEY (root_id, rel_path)
) WITHOUT ROWID;
`;
