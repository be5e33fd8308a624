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
 * a decision needs waits until it is read (content-needed.ts). The rules for moves on either side are in
 * plan-move-rules.ts; the cases of the two-way rules are in plan-operations-two-way.test.ts.
 */
import { conflictCopyName } from './conflict-name.js';
import { contentNeeded } from './content-needed.js';
import { diffLocal, type LocalDiff } from './diff-local.js';
import { diffRemote, type RemoteDiff, type RemoteState } from './diff-remote.js';
import { fileOfAnotherRow, folderCarries, leavingOnto, movedOverHeld, movedThereOnly, renumbered, respelledOnto, swapBreaker, waitsOnMe, type LocalState, type SplitInput } from './plan-move-rules.js';
import { DEFAULT_DELETE_GUARD, isHashed, type DeleteGuard, type HashedEntry, type LocalEntry, type Operation, type Plan, type PlanInput, type RemoteEntry, type SyncedEntry } from './sync-types.js';

/** Below this many deletions the fraction rule does not apply (deleting 1 of 3 files is ordinary). */
const FRACTION_RULE_FLOOR = 5;

type Op<K extends Operation['kind']> = Extract<Operation, { kind: K }>;

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
  // An unread new file waits behind a synced row at its path as the disk compares names, as a read one does (diff-local.ts `behind`).
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
          // the move made here goes up. Read as the service's name, it would go back to a path a new
          // file here may have taken, each waiting for the other's path on every pass. Edited there,
          // the move goes first and the next pass compares the bytes.
          if (there.remote.md5 === synced.md5) toService(synced, here, buckets);
          else buckets.moves.push({ kind: 'MOVE', from: relPath, to: here.local.relPath, assetId, local: here.local });
        } else if (here.kind === 'deleted' && renumbered(relPath, to) && there.remote.md5 === synced.md5) {
          // Deleted here while only its clash number changed there (a namesake, or a folder only this
          // disk has, came or went: remote-placements.ts): no move to win over the deletion, which
          // goes up. Read as a move, the file came back under its new number.
          toService(synced, here, buckets);
        } else if (here.kind === 'deleted' && there.remote.md5 === synced.md5 && heldByAnotherRow(synced)) {
          // Its file, bytes and all, is another synced row's now: moved over a file held at its
          // decomposed twin, it went up as that one's version (diff-local-displaced.ts `replacedFiles`),
          // while its own deletion, the other half of that reading, waited (for a settling file of its
          // size, a pass that saw the disk change, a crash). The service's move does not beat that
          // deletion: brought back, the asset would hold the bytes the other one took, two live assets
          // of one file. The deletion goes up.
          toService(synced, here, buckets);
        } else if (here.kind === 'moved' && respelledOnto(input, relPath, to)) {
          // The service only respelled its name (`logo.png` → `Logo.png`) where this disk ignores case,
          // and a new file here took the old name: the service's name is that file's on this disk, and
          // the new file waits for this move's record (diff-local-displaced.ts `displacedFiles`) while
          // the move would wait for its path, on every pass. The move made here goes up instead.
          toService(synced, here, buckets);
        } else if (here.kind === 'moved' || here.kind === 'held') {
          // Both moved it, differently: the service's name wins, as in a conflict. A file held at a
          // name the service cannot take leaves it so: waiting there, it would keep its old path as the
          // asset's, and a new asset the service has at that path would never come down. It goes from
          // where it is now, through the swap breaker like the service's other moves. Where the file
          // holding the service's name on this disk is itself moving onto this one's row, the row
          // records the move made here first, the file staying where it is (leavingOnto).
          if (here.kind === 'moved' && headsForRow(relPath, to)) {
            buckets.disk.push({ kind: 'FORGET', relPath, assetId }, { kind: 'ADOPT', relPath: here.local.relPath, assetId, local: here.local, md5: synced.md5 });
            break;
          }
          const target = moveTarget(here.local.relPath, to);
          if (target !== undefined) buckets.disk.push({ kind: 'LOCAL_MOVE', from: here.local.relPath, to: target, syncedPath: relPath, assetId, local: here.local, md5: synced.md5 });
          // The service's name is the row of the file moved here onto this one's old path, which waits
          // for this move's record (diff-local-displaced.ts `displacedFiles`) while this move would wait
          // for that row's path, on every pass. The row records the move made here, the file staying
          // where it is, so the other's move is read next pass; this one follows the service's name after.
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
        // edited. Brought back from the bin, the asset would outlive its removal for no user's doing,
        // and where another client had moved its bytes into another asset, two live assets would hold them.
        else if (here.kind === 'moved' && carriedByFolder(relPath, here.local.relPath)) buckets.moves.push({ kind: 'MOVE', from: relPath, to: here.local.relPath, assetId, local: here.local, withFolder: true });
        // Moved here while removed there: the move wins, on the same asset brought back from the bin
        // (not a new asset per client that moved it).
        else if (here.kind === 'moved') buckets.moves.push({ kind: 'MOVE', from: relPath, to: here.local.relPath, assetId, local: here.local, restore: true });
        // Changed here while removed there: the edit wins; the file uploads as new next pass, under the
        // binned asset's name (`outlived`: its own may be numbered apart from a namesake). Not the asset
        // brought back with the edit on top, as for a move: between the restore and the version the
        // asset is live holding the bytes its author binned, and a crash there, then the user's deletion
        // of the edited file, would leave them live for good.
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
    // The service binned its asset and another asset took its old path: the row lets go, the file
    // stays where it is, reported, and goes up as new once its user ends the clash.
    buckets.disk.push({ kind: 'FORGET', relPath, assetId });
    return true;
  }
  if (here.kind === 'held') return there.kind !== 'moved';
  // Edited too, while the service moved its asset: the file cannot follow (its bytes unread, the move
  // would record them as the synced ones), so its row does, the file staying where it is. Once the
  // clash ends, the file is judged against the row at the service's path as any moved and edited file is.
  const to = there.kind === 'moved' ? there.remote.relPath : undefined;
  if (to !== undefined && claim(to)) {
    const { md5, size, mtimeMs, ino, dev } = synced;
    buckets.disk.push({ kind: 'FORGET', relPath, assetId }, { kind: 'ADOPT', relPath: to, assetId, local: { relPath: to, size, mtimeMs, ino, dev, md5 }, md5 });
  }
  return true;
}

