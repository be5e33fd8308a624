/**
 * User groups [ours in shape, SERVICE-SPEC §4.2]: a group has members and, optionally, a set of folders
 * that limits what its members see. `all_folders = 1` means the group sets no folder limit; otherwise
 * its members reach only assets filed in one of `group_folders` (or a subfolder of one). A user in
 * several groups reaches the union; one unlimited group lifts the limit (groups/folder-scope.ts).
 */
export default /* sql */ `
CREATE TABLE groups (
  id                 TEXT PRIMARY KEY,
  account_id         TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name               TEXT NOT NULL,
  description        TEXT,
  all_folders        INTEGER NOT NULL DEFAULT 1,
  date_created       TEXT NOT NULL,
  date_last_modified TEXT NOT NULL,
  UNIQUE (account_id, name)
);

CREATE TABLE group_members (
  group_id TEXT NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
  user_id  TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  PRIMARY KEY (group_id, user_id)
) WITHOUT ROWID;
CREATE INDEX group_members_user ON group_members(user_id);

-- A deleted folder leaves the group (it can no longer grant anything).
CREATE TABLE group_folders (
  group_id         TEXT NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
  folder_option_id TEXT NOT NULL REFERENCES field_options(id) ON DELETE CASCADE,
  PRIMARY KEY (group_id, folder_option_id)
) WITHOUT ROWID;
`;
