/**
 * The local half of the planner (DESIGN.md §3): what happened on disk to each synced file since both
 * sides agreed — unchanged, new bytes, new identity only, moved (by inode, by content, or renamed while
 * still settling), deleted — and which files are new. Pure, deterministic (inputs are sorted first).
 *
 * Don't try to be smart here: a wrong guess means data loss. A path still being written is neither new
 * nor deleted; a vanished file is a move only when the same file (inode) or the same bytes (MD5, never
 * for empty files) appeared elsewhere; a vanished file that a settling file might be waits. The rules for
 * paths that hold another file now are in diff-local-displaced.ts; the cases in plan-operations.test.ts
 * and plan-operations-two-way.test.ts.
 */
import { nfc } from '../local/index.js';
import { behindRow, displacedFiles, replacedFiles, sameNameIn } from './diff-local-displaced.js';
import { exactNames } from '../local/local-names.js';
import { identityOf, type HashedEntry, type PendingSignature, type PlanInput, type SyncedEntry } from './sync-types.js';

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
   * conflict cut off by a crash after its copy's rename, before the service's version came down, may
   * leave the copy unreadable (EACCES) at its name; matched as the synced file renamed there, the copy
   * would go up as the asset's new name.
   */
  const settlingFiles = [...(input.pending ?? new Map<string, PendingSignature>())].filter(([relPath]) => !copies.has(relPath));

  const displaced = new Set([...displacedFiles(local, input.pending, synced, nameKey, copies), ...replacedFiles(input)]);
  /**
   * Identities of files still settling or unread at paths nothing synced: what a displaced file may be.
   * Not a decomposed twin's (NAME_CLASH): a synced file respelled so beside a new composed one is the
   * name's file replaced, an edit as before; were it to wait, both would wait for good.
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
  //    as `Logo.png` over `logo.png` is that file respelled, not a deletion and a new file (which would
  //    bin the asset, upload a second one, and turn over the clash numbering of its namesakes).
  const byInode = new Map(appeared.map((entry) => [identityOf(entry), entry]));
  const sameFile = (candidate: HashedEntry | undefined, gone: SyncedEntry): candidate is HashedEntry =>
    candidate !== undefined && (candidate.md5 === gone.md5 || sameName(candidate.relPath, gone.relPath));
  // A synced file moved onto the path another one left (`A/C` renamed `D`, then `B/b.txt` renamed
  // `A/C/Logo.png`): that path is not new until the other's move is recorded, so this one waits for the
  // pass after it, then moves like any other. Read as deleted, its asset would be binned and the file go
  // up again from the other's old path, a second asset.
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
  // either (settlingAnywhere below). Read as deleted, its asset would be binned and, once the twin
  // left, the file go up as a second asset.
  const pending = settling.filter(([relPath]) => !busy.has(relPath) && relPath === nfc(relPath));
  // The same file at a path held back (busy: its last attempt failed and waits to be retried, as a
  // move whose new folder could not be made) is no move to make now, but no deletion either: read as
  // one, the file's asset would be binned and uploaded again from the new path. By identity.
  const heldBack = new Set([
    ...[...local.values()].filter((entry) => busy.has(entry.relPath) && !synced.has(entry.relPath)).map(identityOf),
    ...settling.filter(([relPath]) => busy.has(relPath)).map(([, sig]) => identityOf(sig)),
  ]);
  // The same file settling at a synced path counts too: moved onto the path another synced file left,
  // it is read there once it settles (atDisplaced above), and no deletion before.
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
    // At a name the service cannot take: unchanged (a rename keeps size and mtime), held; edited since
    // it synced, clashed. No deletion either way (plan-operations.ts `behindClash`).
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
