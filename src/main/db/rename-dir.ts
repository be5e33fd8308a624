/**
 * A directory renamed on disk by the engine (a folder the service renamed or moved): every row that
 * names a path below it follows in one transaction — local and synced snapshots, conflicts, upload
 * journal entries and the folder cache — so the planner sees the same files at their new paths, not deletions plus new files.
 */
import type { StateDb } from './open-state-db.js';

const likePrefix = (dir: string): string => `${dir.replace(/[\\%_]/g, (c) => `\\${c}`)}/%`;

export function renameDirRows(db: StateDb): (rootId: string, from: string, to: string) => void {
  const statements = [
    db.prepare("UPDATE OR REPLACE local_files SET rel_path = @to || substr(rel_path, @cut) WHERE root_id = @root AND rel_path LIKE @like ESCAPE '\\'"),
    db.prepare("UPDATE OR REPLACE synced SET rel_path = @to || substr(rel_path, @cut) WHERE root_id = @root AND rel_path LIKE @like ESCAPE '\\'"),
    db.prepare("UPDATE conflicts SET rel_path = @to || substr(rel_path, @cut) WHERE root_id = @root AND rel_path LIKE @like ESCAPE '\\'"),
    db.prepare("UPDATE conflicts SET copy_path = @to || substr(copy_path, @cut) WHERE root_id = @root AND copy_path LIKE @like ESCAPE '\\'"),
    // An upload journalled under the old folder (a new file's job whose answer was lost, say) is the
    // same file's: left behind, its job's empty asset was looked for in a folder gone (seed 30004).
    db.prepare("UPDATE OR REPLACE uploads SET rel_path = @to || substr(rel_path, @cut) WHERE root_id = @root AND rel_path LIKE @like ESCAPE '\\'"),
    db.prepare("UPDATE OR REPLACE folders SET rel_dir = @to || substr(rel_dir, @cut) WHERE root_id = @root AND rel_dir LIKE @like ESCAPE '\\'"),
  ];
  const self = db.prepare('UPDATE OR REPLACE folders SET rel_dir = @toDir WHERE root_id = @root AND rel_dir = @fromDir');
  return db.transaction((rootId: string, from: string, to: string) => {
    const params = { root: rootId, to: `${to}/`, cut: from.length + 2, like: likePrefix(from) };
    for (const statement of statements) statement.run(params);
    self.run({ root: rootId, toDir: to, fromDir: from });
  });
}
