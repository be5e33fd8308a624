/**
 * A conflict copy's identity on disk (device, inode), so the conflict follows its copy when the user
 * moves it without renaming it (its folder renamed or moved, or the copy alone moved): it is still a
 * copy waiting for the user and is not uploaded (DESIGN.md §3). Rows from before
 * have none: a copy of theirs that leaves its path resolves its conflict, as before.
 */
export default /* sql */ `
ALTER TABLE conflicts ADD COLUMN copy_ino INTEGER;
ALTER TABLE conflicts ADD COLUMN copy_dev INTEGER;
`;
