/**
 * A directory renamed on disk by the engine (a folder the service renamed or moved): every row that
 * names a path below it follows in one transaction — local and synced snapshots, conflicts, upload
 * journal entries, successors and the folder cache — so the planner sees the same files at their new
 * paths, not deletions plus new files.
 */
import type { StateDb } from './open-state-db.js';

/**
 * The rows below a directory: the paths from `dir/` up to `dir0` ('0' follows '/'), compared byte for
 * byte. Never `LIKE 'B/%'`: it folds ASCII case, so a rename of `B` on a disk that keeps case would take
 * `b/Logo.png` along and write it over `B/Logo.png`'s row.
 */
export const belowDir = (dir: string): { below: string; above: string } => ({ below: `${dir}/`, above: `${dir}0` });

export function renameDirRows(db: StateDb): (rootId: string, from: string, to: string) => void {
  const statements = [
    db.prepare("UPDATE OR REPLACE local_files SET rel_path = @to || substr(rel_path, length(@below) + 1) WHERE root_id = @root AND rel_path > @below AND rel_path < @above"),
    db.prepare("UPDATE OR REPLACE synced SET rel_path = @to || substr(rel_path, length(@below) + 1) WHERE root_id = @root AND rel_path > @below AND rel_path < @above"),
    db.prepare("UPDATE conflicts SET rel_path = @to || substr(rel_path, length(@below) + 1) WHERE root_id = @root AND rel_path > @below AND rel_path < @above"),
    db.prepare("UPDATE conflicts SET copy_path = @to || substr(copy_path, length(@below) + 1) WHERE root_id = @root AND copy_path > @below AND copy_path < @above"),
    // An upload journalled under the old folder (a new file's job whose answer was lost, say) is the
    // same file's and follows it: left behind, its job's empty asset would be looked for in a folder gone.
    db.prepare("UPDATE OR REPLACE uploads SET rel_path = @to || substr(rel_path, length(@below) + 1) WHERE root_id = @root AND rel_path > @below AND rel_path < @above"),
    db.prepare("UPDATE OR REPLACE successors SET rel_path = @to || substr(rel_path, length(@below) + 1) WHERE root_id = @root AND rel_path > @below AND rel_path < @above"),
    db.prepare("UPDATE OR REPLACE folders SET rel_dir = @to || substr(rel_dir, length(@below) + 1) WHERE root_id = @root AND rel_dir > @below AND rel_dir < @above"),
  ];
  const self = db.prepare('UPDATE OR REPLACE folders SET rel_dir = @toDir WHERE root_id = @root AND rel_dir = @fromDir');
  return db.transaction((rootId: string, from: string, to: string) => {
    const params = { root: rootId, to: `${to}/`, ...belowDir(from) };
    for (const statement of statements) statement.run(params);
    self.run({ root: rootId, toDir: to, fromDir: from });
  });
}
