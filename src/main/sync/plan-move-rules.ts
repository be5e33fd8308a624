/**
 * The planner's rules for files moved on either side (plan-operations.ts `bothDirections` asks them):
 * which local state a file moved over a held twin has, whether a move only followed a folder, and how
 * the service's moves onto each other's paths are ordered (the swap breaker). Pure, like the planner;
 * each rule's cases are in plan-operations-two-way.test.ts.
 */
import { nfc } from '../local/index.js';
import type { LocalDiff } from './diff-local.js';
import { sameNameIn } from './diff-local-displaced.js';
import type { RemoteDiff } from './diff-remote.js';
import { folderPair } from './folder-renames.js';
import { exactNames, numberedName, unnumbered } from '../local/local-names.js';
import { identityOf, type HashedEntry, type LocalEntry, type PendingSignature, type PlanInput, type SyncedEntry } from './sync-types.js';

/** What happened on disk to one synced placement. */
export type LocalState =
  | { kind: 'same'; local: HashedEntry; refresh: boolean }
  | { kind: 'changed'; local: HashedEntry }
  | { kind: 'moved'; local: HashedEntry }
  | { kind: 'deleted' }
  /** Renamed, unchanged, to a name the service cannot take (LocalDiff.held): waits, unless the service moves it. */
  | { kind: 'held'; local: HashedEntry }
  /** Renamed to such a name and edited (LocalDiff.clashed): waits; its row follows the service's move. */
  | { kind: 'clashed' };

/** The plan's input with the local side split: hashed files are diffed, unread ones can only be new. */
export type SplitInput = Omit<PlanInput, 'local'> & { local: ReadonlyMap<string, HashedEntry>; unread: LocalEntry[] };

/**
 * A synced file moved over another's path while that one's own file is still on disk, held at a name
 * the service cannot take (its decomposed twin, NAME_CLASH: the moved file is now the composed name),
 * reads as that one's edit and its own deletion (diff-local-displaced.ts `replacedFiles`). When the
 * service moved its asset meanwhile, both sides moved it, and the service's name wins, as for a held
 * file: it follows from where it is, which ends the clash, and the other row waits for its own file to
 * be the name's again. Read as an edit and a deletion, the service's move would beat the deletion and
 * bring the asset down again at its new path while its bytes went up as the other's version: two live
 * assets of one file. The service's move onto that very path, or a clash number alone, keeps the old
 * reading (following it, the moved file would take the other row's place).
 */
export function movedOverHeld(input: SplitInput, diff: LocalDiff, remoteDiff: RemoteDiff, states: Map<string, LocalState>): void {
  const held = new Set([...(input.pending ?? new Map<string, PendingSignature>())].filter(([relPath]) => relPath !== nfc(relPath)).map(([, sig]) => identityOf(sig)));
  if (held.size === 0) return;
  const nameKey = input.nameKey ?? exactNames;
  const sameName = sameNameIn(nameKey);
  for (const { synced: over, local } of diff.changed) {
    if (!held.has(identityOf(over))) continue;
    // The moved file by the rule for a vanished one (diff-local.ts): its inode, with its bytes or its name.
    const gone = diff.deleted.find((entry) => identityOf(entry) === identityOf(local) && (entry.md5 === local.md5 || sameName(entry.relPath, local.relPath)));
    const there = gone === undefined ? undefined : remoteDiff.states.get(gone.relPath);
    if (gone === undefined || there?.kind !== 'moved' || renumbered(gone.relPath, there.remote.relPath) || nameKey(there.remote.relPath) === nameKey(over.relPath)) continue;
    states.set(gone.relPath, { kind: 'moved', local });
    states.delete(over.relPath);
  }
}

/**
 * Whether the synced file at `from`, now at `to`, moved only with a folder above it: the same name
 * below a folder renamed or moved (`A/C/x` → `B/E/C/x`: `A` → `B/E`), its other synced files gone from
 * below the old one or found at their places below the new one. A file moved out of a folder leaves
 * the others where they were, and a new folder by the old name may hold new files. One answer per
 * folder pair: a folder of many files binned while it was renamed asks once, not per file.
 */
export function folderCarries(input: SplitInput): (from: string, to: string) => boolean {
  let onDisk: Set<string> | undefined;
  const answers = new Map<string, boolean>();
  return (from, to) => {
    const pair = folderPair(from, to);
    if (pair === undefined) return false;
    const key = `${pair.from}\n${pair.to}`;
    let answer = answers.get(key);
    if (answer === undefined) {
      onDisk ??= new Set([...input.local.keys(), ...input.unread.map((entry) => entry.relPath), ...input.unstable, ...(input.pending?.keys() ?? [])]);
      const disk = onDisk;
      const below = `${pair.from}/`;
      // The file itself is gone from `from`, so it never counts against its own folder's rename.
      answer = ![...input.synced.keys()].some((relPath) => relPath.startsWith(below) && disk.has(relPath) && !disk.has(`${pair.to}${relPath.slice(pair.from.length)}`));
      answers.set(key, answer);
    }
    return answer;
  };
}

/**
 * Whether a synced file's (device, inode) is on disk at another synced row's path, that row recorded
 * with the same file and the same bytes: the file is synced as that row's asset now, and this row's
 * asset holds nothing more of it. Read once per plan, only when asked.
 */
export function fileOfAnotherRow(input: SplitInput): (synced: SyncedEntry) => boolean {
  let rows: Map<string, string> | undefined;
  return (synced) => {
    if (rows === undefined) {
      rows = new Map();
      for (const row of input.synced.values()) {
        const file = input.local.get(row.relPath);
        if (file !== undefined && identityOf(file) === identityOf(row)) rows.set(`${identityOf(row)}\0${row.md5}`, row.relPath);
      }
    }
    const holder = rows.get(`${identityOf(synced)}\0${synced.md5}`);
    return holder !== undefined && holder !== synced.relPath;
  };
}

/** The synced row at `to` has no state this pass and its file is the one on disk at `relPath` now. */
export function waitsOnMe(input: SplitInput, states: ReadonlyMap<string, LocalState>, relPath: string, to: string): boolean {
  const row = input.synced.get(to);
  const there = input.local.get(relPath) ?? input.pending?.get(relPath);
  return row !== undefined && !states.has(to) && there !== undefined && identityOf(there) === identityOf(row);
}

/**
 * Whether the synced file on disk at `to` (as the disk compares names) is one the service moves onto
 * `relPath`, the row of a file moved here that the service moved to `to`. Each would wait for the other
 * on every pass: that file's move for the row's path, this one's for the path that file holds (a file
 * carried by a folder renamed here while the service renamed its asset, where this disk numbers a new
 * namesake apart; or two assets whose places the service swapped while one was renamed here). The swap
 * breaker follows files on disk, and one link here is a row whose file is elsewhere. The file's move
 * made here frees the row and costs no rename on disk, where stepping aside would; the service's name
 * wins the pass after.
 */
export function leavingOnto(input: SplitInput, inPlace: ReadonlyMap<string, string>): (relPath: string, to: string) => boolean {
  const nameKey = input.nameKey ?? exactNames;
  return (relPath, to) => {
    const onward = inPlace.get(nameKey(to));
    return onward !== undefined && nameKey(onward) === nameKey(relPath);
  };
}

/**
 * Synced files still at their rows on disk (unchanged, or edited in place) whose assets the service
 * moved: each row's key (as the disk compares names) → where the service has the asset now. They
 * follow the service from where they are this pass (leavingOnto, swapBreaker).
 */
export function movedThereOnly(input: SplitInput, states: ReadonlyMap<string, LocalState>, remoteDiff: RemoteDiff): Map<string, string> {
  const nameKey = input.nameKey ?? exactNames;
  const moves = new Map<string, string>();
  for (const [relPath, there] of remoteDiff.states) {
    const here = states.get(relPath)?.kind;
    if (there.kind === 'moved' && (here === 'same' || here === 'changed')) moves.set(nameKey(relPath), there.remote.relPath);
  }
  return moves;
}

/** `to` is `relPath` respelled as the disk compares names, and another file is at `relPath` on disk now. */
export function respelledOnto(input: SplitInput, relPath: string, to: string): boolean {
  const nameKey = input.nameKey ?? exactNames;
  return to !== relPath && nameKey(to) === nameKey(relPath) && (input.local.has(relPath) || input.unstable.has(relPath) || (input.pending?.has(relPath) ?? false));
}

/** Only the clash number differs (`A/logo (2).png` → `A/logo.png`): the names local-names.ts gives. */
export function renumbered(from: string, to: string): boolean {
  const slash = from.lastIndexOf('/');
  return from.slice(0, slash + 1) === to.slice(0, to.lastIndexOf('/') + 1) && unnumbered(from.slice(slash + 1)) === unnumbered(to.slice(to.lastIndexOf('/') + 1));
}

/**
 * Files the service moved onto each other's paths (two namesakes whose clash numbering turned over,
 * `Logo.png` ↔ `Logo (2).png`, or a colleague's swap): each move would wait for the next one's path,
 * the last for the first's, on every pass, and a new version of any of them never come down. Paths
 * are compared the way the disk compares names: on a disk that folds case, `Logo.png` is held by
 * `LOGO.png` whatever the planner's exact paths say. The first of such a cycle steps aside to a free
 * name; the others wait, follow next pass, and it takes its own name the pass after. Returns where a
 * remote move of the file at `relPath` on disk to `to` goes this pass (claimed), or undefined.
 */
export function swapBreaker(input: SplitInput, states: ReadonlyMap<string, LocalState>, remoteDiff: RemoteDiff, inPlace: ReadonlyMap<string, string>, claim: (relPath: string) => boolean): (relPath: string, to: string) => string | undefined {
  const nameKey = input.nameKey ?? exactNames;
  /** Path on disk (its key) → where the service has that file now, for files that follow it from there this pass. */
  const leaving = new Map(inPlace);
  for (const [relPath, there] of remoteDiff.states) {
    const here = states.get(relPath);
    if (there.kind !== 'moved' || here === undefined) continue;
    const to = there.remote.relPath;
    // A file moved here that the service moved elsewhere follows the service's name from where it is
    // now (bothDirections' "both moved it, differently"), so a swap it closes is a cycle too (the
    // service moved B's file to D and this one, moved to D here, to B). A file at its row there
    // already takes that key.
    if (here.kind === 'held' || (here.kind === 'moved' && here.local.relPath !== to && !renumbered(relPath, to))) {
      const key = nameKey(here.local.relPath);
      if (!leaving.has(key)) leaving.set(key, to);
    }
  }
  const remoteKeys = new Set([...(input.remote?.entries.keys() ?? [])].map(nameKey));
  const localKeys = new Set([...input.local.keys(), ...input.synced.keys(), ...input.unstable, ...(input.pending?.keys() ?? [])].map(nameKey));
  /** Keys of the members of cycles broken this pass: they wait for the one that stepped aside. */
  const waiting = new Set<string>();
  /** The keys of the cycle a move from `relPath` to `to` closes, or undefined (a respelling of itself is none). */
  const cycleOf = (relPath: string, to: string): string[] | undefined => {
    const start = nameKey(relPath);
    const cycle = [start];
    for (let next = nameKey(to); next !== start; ) {
      const onward = leaving.get(next);
      if (onward === undefined || cycle.includes(next)) return undefined;
      cycle.push(next);
      next = nameKey(onward);
    }
    return cycle.length > 1 ? cycle : undefined;
  };
  return (relPath, to) => {
    if (waiting.has(nameKey(relPath))) return undefined;
    const cycle = cycleOf(relPath, to);
    if (cycle === undefined) return claim(to) ? to : undefined;
    for (const key of cycle) waiting.add(key);
    // In its own folder, under a number of its new name (`Logo (3).png` for `Logo (2).png`) that is
    // free on disk and on the service.
    const dir = relPath.slice(0, relPath.lastIndexOf('/') + 1);
    const name = unnumbered(to.slice(to.lastIndexOf('/') + 1));
    const free = (candidate: string): boolean => !localKeys.has(nameKey(candidate)) && !remoteKeys.has(nameKey(candidate)) && claim(candidate);
    let candidate = `${dir}${numberedName(name, 2)}`;
    for (let n = 3; !free(candidate); n++) candidate = `${dir}${numberedName(name, n)}`;
    return candidate;
  };
}
