/** Local directory → Folders option, cached so each folder is looked up on the service once. */
import type { StateDb } from './open-state-db.js';

export function foldersRepo(db: StateDb) {
  const get = db.prepare<[string, string], { option_id: string | null }>('SELECT option_id FROM folders WHERE root_id = ? AND rel_dir = ?');
  const put = db.prepare('INSERT OR REPLACE INTO folders (root_id, rel_dir, option_id) VALUES (?, ?, ?)');
  const forgetUnder = db.prepare("DELETE FROM folders WHERE root_id = ? AND (rel_dir = ? OR rel_dir LIKE ? ESCAPE '\\')");
  const byOption = db.prepare<[string, string], { rel_dir: string }>('SELECT rel_dir FROM folders WHERE root_id = ? AND option_id = ?');

  return {
    /** The option of a directory: a string, null for the top level, undefined when not known yet. */
    optionOf(rootId: string, relDir: string): string | null | undefined {
      const row = get.get(rootId, relDir);
      return row === undefined ? undefined : row.option_id;
    },
    remember: (rootId: string, relDir: string, optionId: string | null) => void put.run(rootId, relDir, optionId),
    dirOf: (rootId: string, optionId: string) => byOption.get(rootId, optionId)?.rel_dir,
    /** Forgets a directory and everything under it (after a rename or when an option vanished). */
    forget: (rootId: string, relDir: string) => void forgetUnder.run(rootId, relDir, `${relDir.replace(/[\\%_]/g, (c) => `\\${c}`)}/%`),
  };
}

export type FoldersRepo = ReturnType<typeof foldersRepo>;
