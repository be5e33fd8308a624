/**
 * The local diff's rules for synced paths whose file is not the synced one any more (diff-local.ts asks
 * them): a synced file moved away and a new file made at its path (`displacedFiles`), a synced file
 * moved over another synced path (`replacedFiles`), and a new file at a path a synced row names in
 * another spelling (`behindRow`). Each is a move and a new file, never an edit of the wrong asset: the
 * new file waits for the pass after the move is recorded, then is planned like any new file. Pure; the
 * cases are in plan-operations-two-way.test.ts and test/integration/sync-displaced-file.test.ts.
 */
import { exactNames, unnumbered, type NameKey } from '../local/local-names.js';
import { identityOf, type HashedEntry, type PendingSignature, type PlanInput, type RemoteView, type SyncedEntry } from './sync-types.js';

const basename = (relPath: string): string => relPath.slice(relPath.lastIndexOf('/') + 1);

/**
 * Whether two paths end in one name as the disk compares names, a clash number (local-names.ts) aside:
 * the engine renumbers files itself (`logo.png` → `logo (2).png` when a namesake arrives), and a crash
 * between its rename and the record leaves the file at the numbered name, maybe edited since. It is
 * the same file: read as another, it would go up as a second asset, named with the number this disk
 * alone needed (plan-operations-two-way.test.ts).
 */
export const sameNameIn = (nameKey: NameKey) => (a: string, b: string): boolean => nameKey(unnumbered(basename(a))) === nameKey(unnumbered(basename(b)));

/**
 * Whether a synced row names `relPath` in another spelling the disk holds as the same name
 * (`A/C/café.txt` for `a/C/café.txt` where the disk ignores case) while its own file is elsewhere on
 * disk (moved, or waiting to be told apart): a new file there is not new while the row is there, and
 * waits for the pass after the row moves, as a new file at a displaced path does (displacedFiles). The
 * row's own file respelled is matched as a move before this is asked. Uploaded in that pass, its row
 * would sit beside the old one at one path on this disk, and the service's rename of a folder above
 * both would write the old row over the new one: two assets of one file.
 *
 * A row read as deleted holds nothing back, its file gone: held back, the new file would wait for the
 * row (and the service's edit that beats the deletion) to come down at the row's path, on every pass.
 * Nor does a row whose asset the service respelled in place (`B/Logo.png` → `B/logo.png`, the same
 * name on this disk): its file comes back to that very path (the service's place wins a move on both
 * sides), so the new file and the row would each wait for the other's path on every pass. The new file
 * goes up, and the two are told apart by a number.
 */
export function behindRow(synced: ReadonlyMap<string, SyncedEntry>, nameKey: NameKey, deleted: readonly SyncedEntry[], remote: RemoteView | undefined): (relPath: string) => boolean {
  if (nameKey === exactNames) return () => false;
  /** Keys of the rows that hold their path: built on the first question (most plans ask none). */
  let keys: Set<string> | undefined;
  const holding = (): Set<string> => {
    const gone = new Set(deleted.map((entry) => entry.relPath));
    const rowsOf = new Map<string, SyncedEntry[]>();
    for (const row of synced.values()) rowsOf.set(row.assetId, [...(rowsOf.get(row.assetId) ?? []), row]);
    for (const [path, entry] of remote?.entries ?? []) {
      for (const row of rowsOf.get(entry.assetId) ?? []) {
        const respelled = row.relPath !== path && nameKey(row.relPath) === nameKey(path) && remote?.entries.get(row.relPath)?.assetId !== row.assetId;
        if (respelled) gone.add(row.relPath);
      }
    }
    return new Set([...synced.keys()].filter((row) => !gone.has(row)).map(nameKey));
  };
  return (relPath) => {
    if (synced.has(relPath)) return false;
    keys ??= holding();
    return keys.has(nameKey(relPath));
  };
}

/**
 * Synced paths that hold another file now (read, or still settling) while the synced one (same device
 * and inode, and the same bytes or name, as for a vanished file) turned up at a path nothing synced:
 * moved away, and a new file made at its old path (a folder renamed `A` → `D` and a new `A/café.txt`
 * written). These are a move and a new file. Read by path, the new file would be an edit of the asset
 * and the moved one a second asset with the asset's bytes. The new file waits for the pass after the
 * move is recorded (diffLocal), then is planned like any new file against what the service has at its
 * name by then: uploaded in the move's pass, it would meet the asset or a namesake still at that name,
 * be numbered apart and go up twice, or be recorded over the asset's row before the plan's LOCAL_MOVE
 * ran, where a crash between them leaves the moved file untracked. So also without a listing of the
 * service (a pass after a restart whose listing failed).
 *
 * A conflict copy is never the synced file moved away, as in diffLocal: a synced file moved over another
 * path, read as that one's edit and set aside as its conflict copy, is no move of its own; taken for
 * one, a new file written at its old path would wait at a displaced path no move ever frees, while the
 * service's new version there failed to land over it on every pass. The new file is that file's edit.
 */
export function displacedFiles(
  local: ReadonlyMap<string, HashedEntry>,
  pending: ReadonlyMap<string, PendingSignature> | undefined,
  synced: ReadonlyMap<string, SyncedEntry>,
  nameKey: NameKey,
  copies: ReadonlySet<string>,
): Set<string> {
  const appeared = new Map<string, HashedEntry>();
  for (const entry of local.values()) if (!synced.has(entry.relPath) && !copies.has(entry.relPath)) appeared.set(identityOf(entry), entry);
  const displaced = new Set<string>();
  if (appeared.size === 0) return displaced;
  const sameName = sameNameIn(nameKey);
  for (const entry of synced.values()) {
    // The new file may still be settling (written a moment ago): the synced one moved all the same,
    // and waits for nothing (waiting for the new file to settle, the moved one would go up as new).
    const now = local.get(entry.relPath) ?? pending?.get(entry.relPath);
    if (now === undefined || identityOf(now) === identityOf(entry)) continue;
    // The same file by the rule for a vanished one (diffLocal step 1): its bytes, or its name as the
    // disk compares names, since a moved file may have been edited too (a folder renamed, a file in it
    // appended to, and a new file written at its old path).
    const moved = appeared.get(identityOf(entry));
    if (moved !== undefined && (moved.md5 === entry.md5 || sameName(moved.relPath, entry.relPath))) displaced.add(entry.relPath);
  }
  return displaced;
}

/**
 * Synced paths another synced file was moved over (`mv A/a.txt b.txt`: `b.txt` now holds `A/a.txt`'s
 * file, same device and inode and the same bytes, and nothing is left at `A/a.txt`, or a new file was
 * written there since), the replaced asset still holding on the service the bytes it was synced at.
 * Read by path, `b.txt` would be edited to `a.txt`'s bytes and `a.txt` deleted: its asset would lose
 * its history, and when another client had moved it meanwhile (a move beats a deletion) both assets
 * would be live with one file's bytes. These are the replaced file's deletion and, once it is recorded,
 * the other's move (the moved file waits at a displaced path, diffLocal). A new version of the
 * replaced asset on the service keeps the old reading, so the rules of a conflict still decide it.
 */
export function replacedFiles(input: Pick<PlanInput, 'unstable' | 'pending' | 'synced' | 'remote' | 'nameKey'> & { local: ReadonlyMap<string, HashedEntry> }): Set<string> {
  const { local, unstable, pending, synced, remote } = input;
  const replaced = new Set<string>();
  if (remote === undefined) return replaced;
  const empty = (relPath: string): boolean => !local.has(relPath) && !unstable.has(relPath) && pending?.has(relPath) !== true;
  /**
   * Synced files gone from their paths: nothing there, or another file (read or still settling) written
   * there after the move (`mv B/a.txt A/c.txt` over a synced `A/c.txt`, then a new `B/a.txt`). Counted
   * only when nothing was there, `A/c.txt` would read as an edit to `a.txt`'s bytes and `B/a.txt` as
   * another file: the asset of `a.txt` would keep its bytes, and when the service moved it meanwhile it
   * would beat the deletion of its folder here and come down again, two live assets of one file.
   */
  const occupied = (entry: SyncedEntry): boolean => {
    const there = local.get(entry.relPath) ?? pending?.get(entry.relPath);
    return there !== undefined && identityOf(there) !== identityOf(entry);
  };
  const vanished = new Map<string, SyncedEntry>();
  for (const entry of synced.values()) if (empty(entry.relPath) || occupied(entry)) vanished.set(identityOf(entry), entry);
  if (vanished.size === 0) return replaced;
  const sameName = sameNameIn(input.nameKey ?? exactNames);
  /**
   * Whether the replaced file is still somewhere (moved away, or held at a clashing name): then it is no
   * deletion. Somewhere by the rule for a vanished file (diffLocal step 1): its inode with its bytes or
   * its name, or its inode unread yet (which waits, diffLocal). Its inode at another name with other
   * bytes is a new file there, as everywhere else: counted as the replaced one, the file moved over it
   * would read as its edit, and that asset take the bytes of another the service had moved meanwhile.
   */
  const hashed = new Map<string, HashedEntry[]>();
  for (const file of local.values()) hashed.set(identityOf(file), [...(hashed.get(identityOf(file)) ?? []), file]);
  const unread = new Set([...(pending?.values() ?? [])].map(identityOf));
  const stillThere = (entry: SyncedEntry): boolean =>
    unread.has(identityOf(entry)) ||
    (hashed.get(identityOf(entry)) ?? []).some((file) => file.md5 === entry.md5 || sameName(file.relPath, entry.relPath));
  /**
   * The service holds the replaced asset at the bytes it was synced at, wherever it filed it: a move or
   * rename there changed nothing the replacement could conflict with, and its deletion here then meets
   * that move as any deletion does. Looked for only at its old path, a folder rename on the other
   * client (`A/C` → `B/E`) would keep the edit reading: the replaced asset following it holding the moved
   * file's bytes, while the moved file's own asset, renamed by a colleague, beat its deletion and came
   * down again: two live assets of one file.
   */
  let placed: Set<string> | undefined;
  const unedited = (entry: SyncedEntry): boolean => {
    placed ??= new Set([...remote.entries.values()].map((there) => `${there.assetId}\0${there.md5}`));
    return placed.has(`${entry.assetId}\0${entry.md5}`);
  };
  for (const entry of synced.values()) {
    const read = local.get(entry.relPath);
    const now = read ?? pending?.get(entry.relPath);
    if (now === undefined || identityOf(now) === identityOf(entry) || stillThere(entry)) continue;
    const moved = vanished.get(identityOf(now));
    if (moved === undefined) continue;
    // Its bytes when read; a rename keeps size and mtime while it settles.
    const same = read !== undefined ? read.md5 === moved.md5 : now.size === moved.size && now.mtimeMs === moved.mtimeMs;
    if (!same || !unedited(entry)) continue;
    replaced.add(entry.relPath);
    // The new file at the moved one's old path waits with it, as at a displaced path (displacedFiles):
    // read as an edit there, the moved file's asset would take its bytes.
    if (!empty(moved.relPath)) replaced.add(moved.relPath);
  }
  return replaced;
}
