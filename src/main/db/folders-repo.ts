/** Local directory → Folders option, cached so each folder is looked up on the service once. */
import type { StateDb } from './open-state-db.js';
import { belowDir } from './rename-dir.js';

export function foldersRepo(db: StateDb) {
  const get = db.prepare<[string, string], { option_id: string | null }>('SELECT option_id FROM folders WHERE root_id = ? AND rel_dir = ?');
  const put = db.prepare('INSERT OR REPLACE INTO folders (root_id, rel_dir, option_id) VALUES (?, ?, ?)');
  // Byte for byte (belowDir): LIKE folds ASCII case, and forgetting `B` must not forget `b`.
  const forgetUnder = db.prepare('DELETE FROM folders WHERE root_id = @root AND (rel_dir = @dir OR (rel_dir > @below AND rel_dir < @above))');
  const byOption = db.prepare<[string, string], { rel_dir: string }>('SELECT rel_dir FROM folders WHERE root_id = ? AND option_id = ?');
  const elsewhere = db.prepare<[string, string, string], { rel_dir: string }>('SELECT rel_dir FROM folders WHERE root_id = ? AND option_id = ? AND rel_dir <> ?');
  const forget = (rootId: string, relDir: string): void => void forgetUnder.run({ root: rootId, dir: relDir, ...belowDir(relDir) });
  // An option is one folder of the service: where it is now, it is no longer where it was. The old
  // directory (and all below it) is looked up again, by name: kept, it would send the old name's files
  // to the renamed option in the folder cache while their job's path made a new option of the old
  // name on the service, and a lost job's asset would be looked for in the wrong one (`B` renamed `b`
  // by another client, first seen as a new option `b`).
  const rememberAt = db.transaction((rootId: string, relDir: string, optionId: string | null) => {
    if (optionId !== null) for (const row of elsewhere.all(rootId, optionId, relDir)) forget(rootId, row.rel_dir);
    put.run(rootId, relDir, optionId);
  });

  return {
    /** The option of a directory: a string, null for the top level, undefined when not known yet. */
    optionOf(rootId: string, relDir: string): string | null | undefined {
      const row = get.get(rootId, relDir);
      return row === undefined ? undefined : row.option_id;
    },
    /** Records the option of a directory, forgetting any other directory the option was known as (and below it). */
    remember: rememberAt,
    dirOf: (rootId: string, optionId: string) => byOption.get(rootId, optionId)?.rel_dir,
    /** Forgets a directory and everything under it (after a rename or when an option vanished). */
    forget,
  };
}

export type FoldersRepo = ReturnType<typeof foldersRepo>;
