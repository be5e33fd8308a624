/**
 * The local half of the planner (DESIGN.md §3): what happened on disk to each synced file since both
 * sides agreed — unchanged, new bytes, new identity only, moved (by inode, by content, or renamed while
 * still settling), deleted — and which files are new. Pure, deterministic (inputs are sorted first).
 *
 * Don't try to be smart here: a wrong guess means data loss. A path still being written is neither new
 * nor deleted; a vanished file is a move only when the same file (inode) or the same bytes (MD5, never
 * for empty files) appeared elsewhere; a vanished file that a settling file might be waits.
 */
import { nfc } from '../local/index.js';
import { exactNames, unnumbered, type NameKey } from '../local/local-names.js';
import { identityOf, type HashedEntry, type PendingSignature, type PlanInput, type RemoteView, type SyncedEntry } from './sync-types.js';

export interface LocalChange {
  synced: SyncedEntry;
  local: HashedEntry;
}

export interface LocalDiff {
  /** Same path, new bytes; by path. */
  changed: LocalChange[];
  /** Same path and bytes, new identity (touched, safe-saved unchanged); by path. */
  refreshed: LocalChange[];
  /** The synced file is now at `local.relPath` (perhaps with new bytes); in the order found. */
  moved: LocalChange[];
  /** Gone without a trace; by path. */
  deleted: SyncedEntry[];
  /** Synced paths present and unchanged. */
  unchanged: Set<string>;
  /**
   * Synced files renamed, unchanged, to a name the service cannot take (`local.relPath`, the
   * decomposed twin of a name in its folder: NAME_CLASH): they wait while the clash lasts, unless the
   * service moves their asset (plan-operations.ts); by path.
   */
  held: LocalChange[];
  /**
   * Synced files renamed to such a name and edited too (its size or mtime differs): no telling their
   * bytes while the clash lasts, so they wait as well, but their rows follow the service's moves of
   * their assets (plan-operations.ts); by path.
   */
  clashed: SyncedEntry[];
  /** New files nothing claimed; by path. */
  appeared: HashedEntry[];
  /**
   * Whether a new file at this path waits behind a synced row that names it in another spelling
   * (`behindRow`): already applied to `appeared`, and asked of the unread new files the plan adds.
   */
  behind: (relPath: string) => boolean;
}

const basename = (relPath: string): string => relPath.slice(relPath.lastIndexOf('/') + 1);
/**
 * Whether two paths end in one name as the disk compares names, a clash number (local-names.ts) aside:
 * the engine renumbers files itself (`logo.png` → `logo (2).png` when a namesake arrives), and a crash
 * between its rename and the record leaves the file at the numbered name, maybe edited since. Read
 * as another file, it went up as a second asset, named with the number this disk alone needed
 * (simulation seeds 101545, 101227).
 */
export const sameNameIn = (nameKey: NameKey) => (a: string, b: string): boolean => nameKey(unnumbered(basename(a))) === nameKey(unnumbered(basename(b)));
const byPath = (a: { relPath: string }, b: { relPath: string }): number => (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0);
const sameIdentity = (local: HashedEntry, synced: SyncedEntry): boolean =>
  local.size === synced.size && local.mtimeMs === synced.mtimeMs && local.ino === synced.ino && local.dev === synced.dev;

/** `local` holds hashed files only: the planner keeps unread ones out (plan-operations.ts). */
export function diffLocal(input: Pick<PlanInput, 'unstable' | 'pending' | 'synced' | 'busy' | 'conflictCopies' | 'nameKey' | 'remote'> & { local: ReadonlyMap<string, HashedEntry> }): LocalDiff {
  const { local, unstable, synced } = input;
  const nameKey = input.nameKey ?? exactNames;
  const sameName = sameNameIn(nameKey);
  const busy = input.busy ?? new Set<string>();
  const copies = input.conflictCopies ?? new Set<string>();
  const diff: LocalDiff = { changed: [], refreshed: [], moved: [], deleted: [], unchanged: new Set(), held: [], clashed: [], appeared: [], behind: () => false };
  /**
   * Files still settling or unread, conflict copies left out: a copy is never a synced file moved. A
   * conflict cut off by a crash after its copy's rename, before the service's version came down, left
   * the copy unreadable (EACCES) at its name: matched as the synced file renamed there, the copy went
   * up as the asset's new name (simulation seed 101300). Readable, it was never a candidate.
   */
  const settlingFiles = [...(input.pending ?? new Map<string, PendingSignature>())].filter(([relPath]) => !copies.has(relPath));

  const displaced = new Set([...displacedFiles(local, input.pending, synced, nameKey, copies), ...replacedFiles(input)]);
  /**
   * Identities of files still settling or unread at paths nothing synced: what a displaced file may be.
   * Not a decomposed twin's (NAME_CLASH): a synced file respelled so beside a new composed one is the
   * name's file replaced, an edit as before; waiting, both waited for good (seed 73031).
   */
  const unsettled = new Set(settlingFiles.filter(([relPath]) => !synced.has(relPath) && relPath === nfc(relPath)).map(([, sig]) => identityOf(sig)));
  const vanished: SyncedEntry[] = [];
  for (const entry of [...synced.values()].sort(byPath)) {
    if (busy.has(entry.relPath)) continue;
    const now = local.get(entry.relPath);
    if (displaced.has(entry.relPath)) {
      vanished.push(entry);
    } else if (now === undefined) {
      if (!unstable.has(entry.relPath)) vanished.push(entry);
    } else if (identityOf(now) !== identityOf(entry) && unsettled.has(identityOf(entry))) {
      // Another file at its path while the synced one may have moved to a path not yet read: it waits,
      // as a vanished file does, rather than read the new file as an edit (displacedFiles).
    } else if (now.md5 !== entry.md5) {
      diff.changed.push({ synced: entry, local: now });
    } else if (!sameIdentity(now, entry)) {
      diff.refreshed.push({ synced: entry, local: now });
    } else {
      diff.unchanged.add(entry.relPath);
    }
  }
  // The new file at a displaced path waits for the pass after its asset's move is recorded (displacedFiles).
  const appeared = [...local.values()].filter((entry) => !synced.has(entry.relPath) && !busy.has(entry.relPath) && !copies.has(entry.relPath)).sort(byPath);

  const claimed = new Set<string>();
  const move = (from: SyncedEntry, to: HashedEntry): void => {
    claimed.add(to.relPath);
    diff.moved.push({ synced: from, local: to });
  };

  // 1. The same file (device + inode) at a new path. Inodes are reused after a delete, so an inode
  //    match also needs the same bytes or the same name before it counts as a move. The name as the
  //    disk compares names, a clash number aside (`sameNameIn`): where it folds case, a file rewritten
  //    as `Logo.png` over `logo.png` is that file respelled, not a deletion and a new file (seed 50031:
  //    the asset binned, a second one uploaded, and the clash numbering of its namesakes turned over).
  const byInode = new Map(appeared.map((entry) => [identityOf(entry), entry]));
  const sameFile = (candidate: HashedEntry | undefined, gone: SyncedEntry): candidate is HashedEntry =>
    candidate !== undefined && (candidate.md5 === gone.md5 || sameName(candidate.relPath, gone.relPath));
  // A synced file moved onto the path another one left (`A/C` renamed `D`, then `B/b.txt` renamed
  // `A/C/Logo.png`): that path is not new until the other's move is recorded, so this one waits for the
  // pass after it, then moves like any other. Read as deleted, its asset was binned and the file went
  // up again from the other's old path, a second asset (seed 86001).
  const atDisplaced = new Map<string, HashedEntry>();
  for (const relPath of displaced) {
    const entry = local.get(relPath);
    if (entry !== undefined) atDisplaced.set(identityOf(entry), entry);
  }
  const unmatched: SyncedEntry[] = [];
  for (const gone of vanished) {
    const candidate = byInode.get(identityOf(gone));
    if (sameFile(candidate, gone) && !claimed.has(candidate.relPath)) {
      move(gone, candidate);
    } else if (!sameFile(atDisplaced.get(identityOf(gone)), gone)) {
      unmatched.push(gone);
    }
  }

  // 2. The same bytes at a new path (copied then deleted, moved across file systems). Empty files all
  //    share one MD5, so they never match by content.
  const byContent = new Map<string, HashedEntry[]>();
  for (const entry of appeared) {
    if (claimed.has(entry.relPath) || entry.size === 0) continue;
    const key = `${entry.md5}:${entry.size}`;
    byContent.set(key, [...(byContent.get(key) ?? []), entry]);
  }
  // 3. Files still settling: the same inode with the same size and mtime is a rename (a rename
  //    changes neither), whatever the stability gate thinks of the new name. A vanished file that may
  //    be one of the others (same inode, or same size) waits: deleting now and uploading later would
  //    lose the asset's identity.
  const settling = settlingFiles.filter(([relPath]) => !synced.has(relPath));
  // A path spelled other than NFC is a name the service cannot take (NAME_CLASH: the decomposed twin
  // of a name in its folder): no move goes there, but a synced file renamed to it is no deletion
  // either (settlingAnywhere below). Read as deleted, its asset was binned and, once the twin left,
  // the file went up as a second asset (seed 86359).
  const pending = settling.filter(([relPath]) => !busy.has(relPath) && relPath === nfc(relPath));
  // The same file at a path held back (busy: its last attempt failed and waits to be retried, as a
  // move whose new folder could not be made) is no move to make now, but no deletion either: read as
  // one, the file's asset was binned and uploaded again from the new path (seed 61160). By identity.
  const heldBack = new Set([
    ...[...local.values()].filter((entry) => busy.has(entry.relPath) && !synced.has(entry.relPath)).map(identityOf),
    ...settling.filter(([relPath]) => busy.has(relPath)).map(([, sig]) => identityOf(sig)),
  ]);
  // The same file settling at a synced path counts too: moved onto the path another synced file left,
  // it is read there once it settles (atDisplaced above), and no deletion before (seed 86001).
  const settlingAnywhere = new Set(settlingFiles.map(([, sig]) => identityOf(sig)));
  for (const gone of unmatched) {
    const candidates = (byContent.get(`${gone.md5}:${gone.size}`) ?? []).filter((entry) => !claimed.has(entry.relPath));
    const candidate = candidates.find((entry) => basename(entry.relPath) === basename(gone.relPath)) ?? candidates[0];
    if (gone.size > 0 && candidate !== undefined) {
      move(gone, candidate);
      continue;
    }
    const renamed = pending.find(([relPath, sig]) => !claimed.has(relPath) && sig.dev === gone.dev && sig.ino === gone.ino && sig.size === gone.size && sig.mtimeMs === gone.mtimeMs);
    if (renamed !== undefined) {
      move(gone, { relPath: renamed[0], ...renamed[1], md5: gone.md5 });
      continue;
    }
    // At a name the service cannot take: unchanged (a rename keeps size and mtime), held (seed 89027);
    // edited since it synced, clashed (seed 92508). No deletion either way.
    const atClash = settling.filter(([relPath, sig]) => relPath !== nfc(relPath) && !busy.has(relPath) && sig.dev === gone.dev && sig.ino === gone.ino);
    const unchanged = atClash.find(([, sig]) => sig.size === gone.size && sig.mtimeMs === gone.mtimeMs);
    if (unchanged !== undefined) {
      diff.held.push({ synced: gone, local: { relPath: unchanged[0], ...unchanged[1], md5: gone.md5 } });
      continue;
    }
    if (atClash.length > 0) {
      diff.clashed.push(gone);
      continue;
    }
    const maybe = settlingAnywhere.has(identityOf(gone)) || pending.some(([, sig]) => sig.size === gone.size);
    if (!maybe && !heldBack.has(identityOf(gone))) diff.deleted.push(gone);
  }

  diff.behind = behindRow(synced, nameKey, diff.deleted, input.remote);
  diff.appeared = appeared.filter((entry) => !claimed.has(entry.relPath) && !diff.behind(entry.relPath));
  return diff;
}

/**
 * Whether a synced row names `relPath` in another spelling the disk holds as the same name
 * (`A/C/café.txt` for `a/C/café.txt` where the disk ignores case) while its own file is elsewhere on
 * disk (moved, or waiting to be told apart): a new file there is not new while the row is there, and
 * waits for the pass after the row moves, as a new file at a displaced path does (displacedFiles). The
 * row's own file respelled is matched as a move before this is asked.
 *
 * Seed 139997: folder `A` respelled `a` here, `A/C/café.txt` moved over a synced path another file had
 * left (so its row waited, seed 86001) and a new `A/C/café.txt` written, which the disk holds as
 * `a/C/café.txt`. Uploaded in that pass, its row sat beside the old one at one path on this disk; the
 * service's rename of `A` renamed the rows below it and wrote the old row over the new one, so the new
 * asset came down as `café (3).txt` and the file went up again: two assets of one file.
 *
 * A row read as deleted holds nothing back, its file gone: held back, the new file waited for the row,
 * and the service's edit that beats the deletion, to come down at the row's path, for the new file's,
 * on every pass (seed 87013, on a first cut of this rule). Nor does a row whose asset the service
 * respelled in place (`B/Logo.png` → `B/logo.png`, the same name on this disk): its file comes back to
 * that very path (the service's place wins a move on both sides), so the new file, held there, waited
 * for the row and the row for the new file's path, on every pass (seed 142612). The new file goes up
 * and the two are told apart by a number, as before the rule.
 */
function behindRow(synced: ReadonlyMap<string, SyncedEntry>, nameKey: NameKey, deleted: readonly SyncedEntry[], remote: RemoteView | undefined): (relPath: string) => boolean {
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
 * Synced paths that hold another file now (read, or still settling) while the synced one (same device and inode, and the same
 * bytes or name, as for a vanished file) turned up at a path nothing synced: moved away, and a new file
 * made at its old path (a folder renamed `A` → `D` and a new `A/café.txt` written). Read by path, the
 * new file was an edit of the asset and the moved one went up as a second asset with the asset's bytes
 * (simulation seed 73031). These are a move and a new file, and the new file waits for the pass after
 * the move is recorded (diffLocal), then planned like any new file against what the service has at its
 * name by then. Uploaded in the move's pass, it met the asset or a namesake still at that name, was
 * numbered apart and went up twice (seed 73116), or was recorded over the asset's row before the plan's
 * LOCAL_MOVE ran, and a crash between them left the moved file untracked (seed 73069). So also
 * without a listing of the service (a pass after a restart whose listing failed): read as an edit
 * there, the moved file went up as a second asset (seed 89212).
 *
 * A conflict copy is never the synced file moved away, as in diffLocal: a synced `B/c.txt` moved over
 * `A/café.txt` read as that one's edit, met a new version there and was set aside as its conflict copy;
 * taken for `B/c.txt` moved, a new `B/c.txt` written since waited at a displaced path that no move
 * would ever free, while the service's new version of `B/c.txt`, planned as the edit that wins over a
 * deletion, failed to land over it on every pass (seed 137822). The new file is that file's edit.
 */
function displacedFiles(
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
    // The new file may still be settling (written a moment ago): the synced one moved all the same.
    // Waiting for the new file to settle, the moved one went up as a second asset (seed 86181).
    const now = local.get(entry.relPath) ?? pending?.get(entry.relPath);
    if (now === undefined || identityOf(now) === identityOf(entry)) continue;
    // The same file by the rule for a vanished one (step 1 above): its bytes, or its name as the disk
    // compares names, since a moved file may have been edited too (seed 73069: folder `B` renamed `A2`,
    // `A2/a.txt` appended to, a new `B/a.txt` written; the appended file went up as a second asset).
    const moved = appeared.get(identityOf(entry));
    if (moved !== undefined && (moved.md5 === entry.md5 || sameName(moved.relPath, entry.relPath))) displaced.add(entry.relPath);
  }
  return displaced;
}

/**
 * Synced paths another synced file was moved over (`mv A/a.txt b.txt`: `b.txt` now holds `A/a.txt`'s
 * file, same device and inode and the same bytes, and nothing is left at `A/a.txt`, or a new file
 * written there since, seed 123248), the replaced asset still holding on the service the bytes it was
 * synced at. Read by path, `b.txt` was edited to
 * `a.txt`'s bytes and `a.txt` deleted: its asset lost its history, and when another client had moved
 * it meanwhile (a move beats a deletion) both assets were live with one file's bytes (seed 90607).
 * These are the replaced file's deletion and, once it is recorded, the other's move (the moved file
 * waits at a displaced path, diffLocal). A new version of the replaced asset on the service keeps the
 * old reading, so the rules of a conflict still decide it.
 */
function replacedFiles(input: Pick<PlanInput, 'unstable' | 'pending' | 'synced' | 'remote' | 'nameKey'> & { local: ReadonlyMap<string, HashedEntry> }): Set<string> {
  const { local, unstable, pending, synced, remote } = input;
  const replaced = new Set<string>();
  if (remote === undefined) return replaced;
  const empty = (relPath: string): boolean => !local.has(relPath) && !unstable.has(relPath) && pending?.has(relPath) !== true;
  /**
   * Synced files gone from their paths: nothing there, or another file (read or still settling) written
   * there after the move (`mv B/a.txt A/c.txt` over a synced `A/c.txt`, then a new `B/a.txt`). Only
   * counted when nothing was there, `A/c.txt` read as an edit to `a.txt`'s bytes and `B/a.txt` as
   * another: the asset of `a.txt` kept its bytes, and when the service moved it meanwhile it beat the
   * deletion of its folder here and came down again, two live assets of one file (seed 123248).
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
   * read as its edit, and that asset took the bytes of another the service had moved meanwhile, both
   * live (seed 100742: `A/C/logo.png` moved to `A/a.txt` and edited, `A/C/Logo.png` moved over it).
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
   * that move as any deletion does. Only found at its old path, a folder rename on the other client
   * (`A/C` → `B/E`) kept the edit reading: the replaced asset followed it holding the moved file's bytes,
   * while the moved file's own asset, renamed by a colleague, beat its deletion and came down again: two
   * live assets of one file (seed 101442).
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
    // read as an edit there, the moved file's asset took its bytes (seed 123248).
    if (!empty(moved.relPath)) replaced.add(moved.relPath);
  }
  return replaced;
}
