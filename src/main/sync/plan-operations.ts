/**
 * The planner (DESIGN.md §3): a pure function from the local, remote and synced snapshots of one root
 * to the operations that bring both sides in line. No I/O, no clock, no randomness: the same snapshots
 * give the same plan, which is what makes the simulation harness deterministic.
 *
 * Each synced placement is judged on both sides (diff-local.ts, diff-remote.ts) and the pair decides:
 * a change on one side goes to the other; the same bytes on both sides are simply recorded; different
 * new bytes on both sides are a conflict (the service's version takes the name, ours is kept beside
 * it); an edit beats a deletion on either side. Anything that would land on a path still in use waits
 * for a later pass rather than overwrite it (files moved onto each other's paths: one steps aside).
 * Deletions past the guard wait for the user, in each direction separately. Without a remote view (no
 * full listing yet) only the upload direction runs, and nothing is ever read as deleted on the
 * service. A new file whose content was left unread (md5 null) is uploaded as it is; one whose content
 * a decision needs waits until it is read (content-needed.ts).
 */
import { nfc } from '../local/index.js';
import { conflictCopyName } from './conflict-name.js';
import { contentNeeded } from './content-needed.js';
import { diffLocal, sameNameIn, type LocalDiff } from './diff-local.js';
import { diffRemote, type RemoteDiff, type RemoteState } from './diff-remote.js';
import { folderPair } from './folder-renames.js';
import { exactNames, numberedName, unnumbered } from '../local/local-names.js';
import { DEFAULT_DELETE_GUARD, identityOf, isHashed, type DeleteGuard, type HashedEntry, type LocalEntry, type Operation, type PendingSignature, type Plan, type PlanInput, type RemoteEntry, type SyncedEntry } from './sync-types.js';

/** Below this many deletions the fraction rule does not apply (deleting 1 of 3 files is ordinary). */
const FRACTION_RULE_FLOOR = 5;

type Op<K extends Operation['kind']> = Extract<Operation, { kind: K }>;

/** What happened on disk to one synced placement. */
type LocalState =
  | { kind: 'same'; local: HashedEntry; refresh: boolean }
  | { kind: 'changed'; local: HashedEntry }
  | { kind: 'moved'; local: HashedEntry }
  | { kind: 'deleted' }
  /** Renamed, unchanged, to a name the service cannot take (LocalDiff.held): waits, unless the service moves it. */
  | { kind: 'held'; local: HashedEntry }
  /** Renamed to such a name and edited (LocalDiff.clashed): waits; its row follows the service's move. */
  | { kind: 'clashed' };

/** The plan's input with the local side split: hashed files are diffed, unread ones can only be new. */
type SplitInput = Omit<PlanInput, 'local'> & { local: ReadonlyMap<string, HashedEntry>; unread: LocalEntry[] };

/** Operations by kind of work, concatenated in this order (disk bookkeeping first, deletions last). */
interface Buckets {
  disk: Operation[];
  moves: Operation[];
  versions: Operation[];
  moveVersions: Operation[];
  refreshes: Operation[];
  uploads: Operation[];
  downloads: Operation[];
  remoteDeletes: Op<'DELETE'>[];
  localDeletes: Op<'LOCAL_DELETE'>[];
}

const byPath = (a: { relPath: string }, b: { relPath: string }): number => (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0);

export function planOperations(whole: PlanInput): Plan {
  const input = splitLocal(whole);
  const local = diffLocal(input);
  const buckets: Buckets = { disk: [], moves: [], versions: [], moveVersions: [], refreshes: [], uploads: [], downloads: [], remoteDeletes: [], localDeletes: [] };
  // Without a view, a new file where the last known snapshot has an asset waits for the listing.
  const blind = (relPath: string): boolean => input.remote === undefined && input.lastKnownRemote?.has(relPath) === true;
  if (input.remote === undefined) uploadDirection(local, buckets, blind);
  else bothDirections(input, local, diffRemote(input.synced, input.remote), buckets);
  // An unread new file waits behind a synced row at its path as the disk compares names, as a read one does (seed 139997).
  for (const entry of input.unread) if (!blind(entry.relPath) && !local.behind(entry.relPath)) buckets.uploads.push({ kind: 'UPLOAD_NEW', relPath: entry.relPath, local: entry });

  const guard = input.guard ?? DEFAULT_DELETE_GUARD;
  const confirmed = input.deletesConfirmed === true;
  const holdRemote = !confirmed && trips(buckets.remoteDeletes.length, input.synced.size, guard);
  const holdLocal = !confirmed && trips(buckets.localDeletes.length, input.synced.size, guard);
  return {
    operations: [
      ...buckets.disk,
      ...buckets.moves,
      ...buckets.versions,
      ...buckets.moveVersions,
      ...buckets.refreshes,
      ...buckets.uploads,
      ...buckets.downloads,
      ...(holdRemote ? [] : buckets.remoteDeletes),
      ...(holdLocal ? [] : buckets.localDeletes),
    ],
    heldDeletes: [...(holdRemote ? buckets.remoteDeletes : []), ...(holdLocal ? buckets.localDeletes : [])],
  };
}

/**
 * Hashed files go on to be diffed. Unread ones are new files nothing can be compared with: they are
 * uploaded (busy paths and conflict copies aside), and count as unstable for everything else, so no
 * download, move or conflict copy lands on their paths. An unread file whose content a decision needs
 * is held back as unstable: never a deletion, never a guess.
 */
function splitLocal(input: PlanInput): SplitInput {
  const needed = contentNeeded(input);
  const local = new Map<string, HashedEntry>();
  const unread: LocalEntry[] = [];
  const unstable = new Set(input.unstable);
  const pending = new Map(input.pending);
  for (const [relPath, entry] of input.local) {
    if (isHashed(entry)) {
      local.set(relPath, entry);
      continue;
    }
    unstable.add(relPath);
    // Held back like a settling file: a synced file that vanished and may be this one waits for it.
    // A busy one too: a synced file that vanished and may be it must not read as deleted (diff-local.ts).
    if (needed.has(relPath) || input.busy?.has(relPath) === true) pending.set(relPath, { size: entry.size, mtimeMs: entry.mtimeMs, ino: entry.ino, dev: entry.dev });
    else if (input.busy?.has(relPath) !== true && input.conflictCopies?.has(relPath) !== true) unread.push(entry);
  }
  unread.sort(byPath);
  return { ...input, local, unstable, pending, unread };
}

function trips(deletes: number, syncedCount: number, guard: DeleteGuard): boolean {
  return deletes > guard.maxDeletes || (deletes > FRACTION_RULE_FLOOR && deletes > guard.maxFraction * syncedCount);
}

/** The upload direction alone: local changes become service changes. */
function uploadDirection(diff: LocalDiff, buckets: Buckets, blind: (relPath: string) => boolean): void {
  for (const { synced, local } of diff.moved) toService(synced, { kind: 'moved', local }, buckets);
  for (const { synced, local } of diff.changed) toService(synced, { kind: 'changed', local }, buckets);
  for (const { synced, local } of diff.refreshed) toService(synced, { kind: 'same', local, refresh: true }, buckets);
  for (const entry of diff.deleted) toService(entry, { kind: 'deleted' }, buckets);
  for (const entry of diff.appeared) if (!blind(entry.relPath)) buckets.uploads.push({ kind: 'UPLOAD_NEW', relPath: entry.relPath, local: entry });
}

/** One placement's local change, sent to the service (the service side is unchanged or unknown). */
function toService(synced: SyncedEntry, state: LocalState, buckets: Buckets): void {
  const { relPath, assetId } = synced;
  switch (state.kind) {
    case 'same':
      if (state.refresh) buckets.refreshes.push({ kind: 'REFRESH_IDENTITY', relPath, assetId, local: state.local });
      break;
    case 'changed':
      buckets.versions.push({ kind: 'UPLOAD_VERSION', relPath, assetId, local: state.local });
      break;
    case 'moved':
      buckets.moves.push({ kind: 'MOVE', from: relPath, to: state.local.relPath, assetId, local: state.local });
      // Moved and edited in one go: the content follows as a new version at the new path.
      if (state.local.md5 !== synced.md5) buckets.moveVersions.push({ kind: 'UPLOAD_VERSION', relPath: state.local.relPath, assetId, local: state.local });
      break;
    case 'deleted':
      buckets.remoteDeletes.push({ kind: 'DELETE', relPath, assetId });
      break;
    case 'held':
    case 'clashed':
      break; // waits while the clash lasts
  }
}

function localStates(input: SplitInput, diff: LocalDiff): Map<string, LocalState> {
  const states = new Map<string, LocalState>();
  for (const relPath of diff.unchanged) {
    const local = input.local.get(relPath);
    if (local !== undefined) states.set(relPath, { kind: 'same', local, refresh: false });
  }
  for (const { synced, local } of diff.refreshed) states.set(synced.relPath, { kind: 'same', local, refresh: true });
  for (const { synced, local } of diff.changed) states.set(synced.relPath, { kind: 'changed', local });
  for (const { synced, local } of diff.moved) states.set(synced.relPath, { kind: 'moved', local });
  for (const entry of diff.deleted) states.set(entry.relPath, { kind: 'deleted' });
  for (const { synced, local } of diff.held) states.set(synced.relPath, { kind: 'held', local });
  for (const entry of diff.clashed) states.set(entry.relPath, { kind: 'clashed' });
  return states;
}

/**
 * A synced file moved over another's path while that one's own file is still on disk, held at a name
 * the service cannot take (its decomposed twin, NAME_CLASH: the moved file is now the composed name),
 * reads as that one's edit and its own deletion (seed 87244, diff-local.ts `replacedFiles`). When the
 * service moved its asset meanwhile, that move beat the deletion and the asset came down again at its
 * new path, while its bytes went up as the other's version: two live assets of one file (seed 103833:
 * `A/Logo.png` renamed `café.txt` beside a decomposed `café.txt`, while the other client renamed `A`
 * to `B/E`). Both sides moved it then, and the service's name wins, as for a held file (seed 89027):
 * it follows from where it is, which ends the clash, and the other row waits for its own file to be
 * the name's again. The service's move onto that very path, or a clash number alone, keeps the old
 * reading (following it, the moved file would take the other row's place).
 */
function movedOverHeld(input: SplitInput, diff: LocalDiff, remoteDiff: RemoteDiff, states: Map<string, LocalState>): void {
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

/** The three-way table of DESIGN.md §3, row by row. */
function bothDirections(input: SplitInput, localDiff: LocalDiff, remoteDiff: RemoteDiff, buckets: Buckets): void {
  const busy = input.busy ?? new Set<string>();
  const remoteEntries = input.remote?.entries ?? new Map();
  const claimed = new Set<string>();
  const occupied = (relPath: string): boolean =>
    input.local.has(relPath) || input.unstable.has(relPath) || (input.pending?.has(relPath) ?? false) || input.synced.has(relPath) || claimed.has(relPath) || busy.has(relPath);
  const claim = (relPath: string): boolean => {
    if (occupied(relPath)) return false;
    claimed.add(relPath);
    return true;
  };
  const copyName = (relPath: string): string => {
    const name = conflictCopyName(relPath, input.now ?? 0, (candidate) => occupied(candidate) || remoteEntries.has(candidate));
    claimed.add(name);
    return name;
  };
  const states = localStates(input, localDiff);
  movedOverHeld(input, localDiff, remoteDiff, states);
  const inPlace = movedThereOnly(input, states, remoteDiff);
  const headsForRow = leavingOnto(input, inPlace);
  const moveTarget = swapBreaker(input, states, remoteDiff, inPlace, claim);
  const carriedByFolder = folderCarries(input);
  const heldByAnotherRow = fileOfAnotherRow(input);

  for (const synced of [...input.synced.values()].sort(byPath)) {
    const here = states.get(synced.relPath);
    if (here === undefined) continue; // still being written, or busy: wait
    const there = remoteDiff.states.get(synced.relPath) ?? { kind: 'unknown' as const };
    if (behindClash(synced, here, there, remoteEntries, claim, buckets)) continue;
    const { relPath, assetId } = synced;
    switch (there.kind) {
      case 'unknown':
      case 'same':
        toService(synced, here, buckets);
        break;
      case 'changed': {
        const remote = there.remote;
        if (here.kind === 'same') buckets.downloads.push({ kind: 'DOWNLOAD', relPath, remote, replace: here.local });
        else if (here.kind === 'changed' && here.local.md5 === remote.md5) buckets.disk.push({ kind: 'ADOPT', relPath, assetId, local: here.local, md5: remote.md5 });
        else if (here.kind === 'changed') buckets.disk.push({ kind: 'CONFLICT', relPath, copyPath: copyName(relPath), local: here.local, remote, assetId });
        // Moved here and changed there: the move goes first; the next pass compares the bytes.
        else if (here.kind === 'moved') buckets.moves.push({ kind: 'MOVE', from: relPath, to: here.local.relPath, assetId, local: here.local });
        // Deleted here, edited there: the edit wins.
        else buckets.downloads.push({ kind: 'DOWNLOAD', relPath, remote });
        break;
      }
      case 'moved': {
        const to = there.remote.relPath;
        if (here.kind === 'same' || here.kind === 'changed') {
          const target = moveTarget(relPath, to);
          if (target !== undefined) buckets.disk.push({ kind: 'LOCAL_MOVE', from: relPath, to: target, syncedPath: relPath, assetId, local: here.local, md5: synced.md5 });
        } else if (here.kind === 'moved' && here.local.relPath === to) {
          // Both sides made the same move.
          buckets.disk.push({ kind: 'FORGET', relPath, assetId }, { kind: 'ADOPT', relPath: to, assetId, local: here.local, md5: synced.md5 });
        } else if (here.kind === 'moved' && renumbered(relPath, to)) {
          // The service only numbered it apart anew (a namesake came or went): no move of its own, and
          // the move made here goes up. Read as the service's name, it went back to a path a new file
          // here had taken, and each waited for the other's path on every pass (seed 86076). Edited
          // there, the move goes first and the next pass compares the bytes.
          if (there.remote.md5 === synced.md5) toService(synced, here, buckets);
          else buckets.moves.push({ kind: 'MOVE', from: relPath, to: here.local.relPath, assetId, local: here.local });
        } else if (here.kind === 'deleted' && renumbered(relPath, to) && there.remote.md5 === synced.md5) {
          // Deleted here while only its clash number changed there (a namesake, or a folder only this
          // disk has, came or went: remote-placements.ts): no move to win over the deletion, which
          // goes up. Read as a move, the file came back under its new number.
          toService(synced, here, buckets);
        } else if (here.kind === 'deleted' && there.remote.md5 === synced.md5 && heldByAnotherRow(synced)) {
          // Its file, bytes and all, is another synced row's now: moved over a file held at its
          // decomposed twin, it went up as that one's version (87244's reading, diff-local.ts), while its
          // own deletion, the other half of that reading, waited (for a settling file of its size, a
          // pass that saw the disk change, a crash). The service's move does not beat that deletion:
          // brought back, the asset held the bytes the other one took, two live assets of one file
          // (seed 131635). The deletion goes up.
          toService(synced, here, buckets);
        } else if (here.kind === 'moved' && respelledOnto(input, relPath, to)) {
          // The service only respelled its name (`logo.png` → `Logo.png`) where this disk ignores case,
          // and a new file here took the old name: the service's name is that file's on this disk, and
          // the new file waits for this move's record (diff-local.ts displacedFiles) while the move
          // waited for its path, on every pass (seed 99522). The move made here goes up instead.
          toService(synced, here, buckets);
        } else if (here.kind === 'moved' || here.kind === 'held') {
          // Both moved it, differently: the service's name wins, as in a conflict. A file held at a
          // name the service cannot take leaves it so: waiting there, it kept its old path as the
          // asset's, and a new asset the service had at that path never came down (seed 89027).
          // It goes from where it is now, through the swap breaker like the service's other moves.
          // Where the file holding the service's name on this disk is itself moving onto this one's
          // row, the row records the move made here first, the file staying where it is (seed 117914).
          if (here.kind === 'moved' && headsForRow(relPath, to)) {
            buckets.disk.push({ kind: 'FORGET', relPath, assetId }, { kind: 'ADOPT', relPath: here.local.relPath, assetId, local: here.local, md5: synced.md5 });
            break;
          }
          const target = moveTarget(here.local.relPath, to);
          if (target !== undefined) buckets.disk.push({ kind: 'LOCAL_MOVE', from: here.local.relPath, to: target, syncedPath: relPath, assetId, local: here.local, md5: synced.md5 });
          // The service's name is the row of the file moved here onto this one's old path, which waits for
          // this move's record (diff-local.ts displacedFiles) while this move waited for that row's path,
          // on every pass (seed 99622). The row records the move made here, the file staying where it is,
          // so the other's move is read next pass; this one follows the service's name from there after.
          else if (here.kind === 'moved' && waitsOnMe(input, states, relPath, to)) buckets.disk.push({ kind: 'FORGET', relPath, assetId }, { kind: 'ADOPT', relPath: here.local.relPath, assetId, local: here.local, md5: synced.md5 });
        } else {
          buckets.disk.push({ kind: 'FORGET', relPath, assetId });
          if (claim(to)) buckets.downloads.push({ kind: 'DOWNLOAD', relPath: to, remote: there.remote });
        }
        break;
      }
      case 'removed':
        if (here.kind === 'same') buckets.localDeletes.push({ kind: 'LOCAL_DELETE', relPath, assetId, local: here.local });
        // Moved with a folder renamed here: no change of the file's, which a removal beats as it does an
        // untouched file. Its row follows the folder (a rename on the service is one option change, which
        // needs every file of the folder), and the next pass trashes the file, or uploads it as new if
        // edited. Brought back from the bin, the asset outlived its removal for no user's doing, and
        // where another client had moved its bytes into another asset, two live assets held them (seed
        // 108329: 87244's reading of a file renamed over a held decomposed twin).
        else if (here.kind === 'moved' && carriedByFolder(relPath, here.local.relPath)) buckets.moves.push({ kind: 'MOVE', from: relPath, to: here.local.relPath, assetId, local: here.local, withFolder: true });
        // Moved here while removed there: the move wins, on the same asset brought back from the bin
        // (two clients moving it each uploaded a new asset, seed 81430).
        else if (here.kind === 'moved') buckets.moves.push({ kind: 'MOVE', from: relPath, to: here.local.relPath, assetId, local: here.local, restore: true });
        // Changed here while removed there: the edit wins; the file uploads as new next pass, under the
        // binned asset's name (`outlived`: its own may be numbered apart from a namesake, seed 102721).
        // Not the asset brought back with the edit on top, as for a move: between the restore and the
        // version the asset is live holding the bytes its author binned, and a crash there, then the
        // user's deletion of the edited file, left them live for good (seeds 109135, 109392 at 150 steps).
        else if (here.kind === 'changed') buckets.disk.push({ kind: 'FORGET', relPath, assetId, outlived: true });
        else buckets.disk.push({ kind: 'FORGET', relPath, assetId });
        break;
    }
  }

  const newHere = new Map(localDiff.appeared.map((entry) => [entry.relPath, entry]));
  const answered = new Set<string>();
  for (const remote of remoteDiff.appeared) {
    if (busy.has(remote.relPath)) continue;
    const mine = newHere.get(remote.relPath);
    if (mine !== undefined) {
      // A new file on each side under one name: the same bytes are one file; otherwise a conflict.
      answered.add(remote.relPath);
      claimed.add(remote.relPath);
      if (mine.md5 === remote.md5) buckets.disk.push({ kind: 'ADOPT', relPath: remote.relPath, assetId: remote.assetId, local: mine, md5: remote.md5 });
      else buckets.disk.push({ kind: 'CONFLICT', relPath: remote.relPath, copyPath: copyName(remote.relPath), local: mine, remote, assetId: remote.assetId });
    } else if (claim(remote.relPath)) {
      buckets.downloads.push({ kind: 'DOWNLOAD', relPath: remote.relPath, remote });
    }
  }
  for (const entry of localDiff.appeared) {
    if (!answered.has(entry.relPath)) buckets.uploads.push({ kind: 'UPLOAD_NEW', relPath: entry.relPath, local: entry });
  }
}

/**
 * A synced file renamed to a name the service cannot take (held, or clashed when edited too: LocalDiff)
 * waits while the clash lasts; answers whether this did all there is to do for it. A held file follows
 * the service's move as any file moved on both sides does (bothDirections). Its row never keeps a path
 * another asset needs: left there, that asset never came down.
 */
function behindClash(synced: SyncedEntry, here: LocalState, there: RemoteState | { kind: 'unknown' }, remoteEntries: ReadonlyMap<string, RemoteEntry>, claim: (relPath: string) => boolean, buckets: Buckets): boolean {
  if (here.kind !== 'held' && here.kind !== 'clashed') return false;
  const { relPath, assetId } = synced;
  if (there.kind === 'removed' && remoteEntries.has(relPath)) {
    // The service binned its asset and another asset took its old path (seed 90649): the row lets go,
    // the file stays where it is, reported, and goes up as new once its user ends the clash.
    buckets.disk.push({ kind: 'FORGET', relPath, assetId });
    return true;
  }
  if (here.kind === 'held') return there.kind !== 'moved';
  // Edited too, while the service moved its asset: the file cannot follow (its bytes unread, the move
  // would record them as the synced ones), so its row does, the file staying where it is (seed 92508:
  // folder `A` renamed `A2` by the other client, a file moved to `A/café.txt`). Once the clash ends,
  // the file is judged against the row at the service's path as any moved and edited file is.
  const to = there.kind === 'moved' ? there.remote.relPath : undefined;
  if (to !== undefined && claim(to)) {
    const { md5, size, mtimeMs, ino, dev } = synced;
    buckets.disk.push({ kind: 'FORGET', relPath, assetId }, { kind: 'ADOPT', relPath: to, assetId, local: { relPath: to, size, mtimeMs, ino, dev, md5 }, md5 });
  }
  return true;
}

/**
 * Whether the synced file at `from`, now at `to`, moved only with a folder above it: the same name
 * below a folder renamed or moved (`A/C/x` → `B/E/C/x`: `A` → `B/E`), its other synced files gone from
 * below the old one or found at their places below the new one. A file moved out of a folder leaves
 * the others where they were. A new folder by the old name may hold new files (seed 108329). One
 * answer per folder pair: a folder of many files binned while it was renamed asks once, not per file.
 */
function folderCarries(input: SplitInput): (from: string, to: string) => boolean {
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
function fileOfAnotherRow(input: SplitInput): (synced: SyncedEntry) => boolean {
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
function waitsOnMe(input: SplitInput, states: ReadonlyMap<string, LocalState>, relPath: string, to: string): boolean {
  const row = input.synced.get(to);
  const there = input.local.get(relPath) ?? input.pending?.get(relPath);
  return row !== undefined && !states.has(to) && there !== undefined && identityOf(there) === identityOf(row);
}

/**
 * Whether the synced file on disk at `to` (as the disk compares names) is one the service moves onto
 * `relPath`, the row of a file moved here that the service moved to `to`. Each waited for the other on
 * every pass: that file's move for the row's path, this one's for the path that file holds (seed
 * 117914: on a disk that ignores case, `A/C/logo (2).png` carried to `D` by a folder renamed here
 * while the service renamed its asset `A/C/Logo.png`, and a new `A/C/logo.png` written and uploaded,
 * which this disk then numbers `logo (2).png`; seed 117100: the service swapped two assets' places,
 * `A/logo.png`'s to `A/C/logo.png` and back, while `A/logo.png` was renamed `A/C/café.txt` here). The
 * swap breaker follows files on disk, and one link here is a row whose file is elsewhere. The file's
 * move made here frees the row and costs no rename on disk, where stepping aside would; the
 * service's name wins the pass after.
 */
function leavingOnto(input: SplitInput, inPlace: ReadonlyMap<string, string>): (relPath: string, to: string) => boolean {
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
function movedThereOnly(input: SplitInput, states: ReadonlyMap<string, LocalState>, remoteDiff: RemoteDiff): Map<string, string> {
  const nameKey = input.nameKey ?? exactNames;
  const moves = new Map<string, string>();
  for (const [relPath, there] of remoteDiff.states) {
    const here = states.get(relPath)?.kind;
    if (there.kind === 'moved' && (here === 'same' || here === 'changed')) moves.set(nameKey(relPath), there.remote.relPath);
  }
  return moves;
}

/** `to` is `relPath` respelled as the disk compares names, and another file is at `relPath` on disk now. */
function respelledOnto(input: SplitInput, relPath: string, to: string): boolean {
  const nameKey = input.nameKey ?? exactNames;
  return to !== relPath && nameKey(to) === nameKey(relPath) && (input.local.has(relPath) || input.unstable.has(relPath) || (input.pending?.has(relPath) ?? false));
}

/** Only the clash number differs (`A/logo (2).png` → `A/logo.png`): the names local-names.ts gives. */
function renumbered(from: string, to: string): boolean {
  const slash = from.lastIndexOf('/');
  return from.slice(0, slash + 1) === to.slice(0, to.lastIndexOf('/') + 1) && unnumbered(from.slice(slash + 1)) === unnumbered(to.slice(to.lastIndexOf('/') + 1));
}

/**
 * Files the service moved onto each other's paths (two namesakes whose clash numbering turned over,
 * `Logo.png` ↔ `Logo (2).png`, or a colleague's swap): each move waits for the next one's path, the
 * last for the first's, on every pass, and a new version of any of them never comes down (seed 50031
 * before its fix). Paths are compared the way the disk compares names: on a disk that folds case,
 * `Logo.png` is held by `LOGO.png` whatever the planner's exact paths say. The first of such a cycle
 * steps aside to a free name; the others wait, follow next pass, and it takes its own name the pass
 * after. Returns where a remote move of the file at `relPath` on disk to `to` goes this pass (claimed), or
 * undefined.
 */
function swapBreaker(input: SplitInput, states: ReadonlyMap<string, LocalState>, remoteDiff: RemoteDiff, inPlace: ReadonlyMap<string, string>, claim: (relPath: string) => boolean): (relPath: string, to: string) => string | undefined {
  const nameKey = input.nameKey ?? exactNames;
  /** Path on disk (its key) → where the service has that file now, for files that follow it from there this pass. */
  const leaving = new Map(inPlace);
  for (const [relPath, there] of remoteDiff.states) {
    const here = states.get(relPath);
    if (there.kind !== 'moved' || here === undefined) continue;
    const to = there.remote.relPath;
    // A file moved here that the service moved elsewhere follows the service's name from where it is
    // now (bothDirections' "both moved it, differently"). Left out, a swap it closed was no cycle: the
    // service moved B's file to D and this one (moved to D here) to B, and each waited for the other's
    // path on every pass (seed 91090). A file at its row there already is takes that key.
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
