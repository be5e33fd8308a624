import { describe, expect, it } from 'vitest';
import { caseFoldedNames } from '../local/local-names.js';
import { planOperations } from './plan-operations.js';
import type { HashedEntry, LocalEntry, Operation, PlanInput, RemoteEntry, SyncedEntry } from './sync-types.js';

let nextInode = 5000;
const file = (relPath: string, md5: string, extra: Partial<HashedEntry> = {}): HashedEntry => ({ relPath, md5, size: 10, mtimeMs: 1, ino: nextInode++, dev: 1, ...extra });
const synced = (entry: HashedEntry, assetId: string): SyncedEntry => ({ ...entry, assetId });
const remote = (relPath: string, assetId: string, md5: string): RemoteEntry => ({ relPath, assetId, filename: relPath.slice(relPath.lastIndexOf('/') + 1), md5, fileId: `${assetId}-${md5}`, size: 10, dateModified: '2026-01-01T00:00:00.000Z', dateAdded: '' });
// 2026-03-01 09:24:01 local time.
const NOW = new Date(2026, 2, 1, 9, 24, 1).getTime();

function plan(local: LocalEntry[], syncedEntries: SyncedEntry[], remoteEntries: RemoteEntry[] | undefined, more: Partial<PlanInput> = {}) {
  return planOperations({
    local: new Map(local.map((entry) => [entry.relPath, entry])),
    synced: new Map(syncedEntries.map((entry) => [entry.relPath, entry])),
    unstable: new Set(),
    ...(remoteEntries === undefined ? {} : { remote: { entries: new Map(remoteEntries.map((entry) => [entry.relPath, entry])) } }),
    now: NOW,
    ...more,
  });
}
const describeOp = (op: Operation): string => {
  switch (op.kind) {
    case 'MOVE':
    case 'LOCAL_MOVE':
      return `${op.kind} ${op.from} -> ${op.to}`;
    case 'CONFLICT':
      return `CONFLICT ${op.relPath} (copy ${op.copyPath})`;
    case 'DOWNLOAD':
      return `DOWNLOAD ${op.relPath}${op.replace === undefined ? '' : ' (replace)'}`;
    default:
      return `${op.kind} ${op.relPath}`;
  }
};
const kinds = (result: ReturnType<typeof plan>): string[] => result.operations.map(describeOp);

// Base state: a.png synced as asset A with bytes "A", identical on both sides.
const a = file('Brand/a.png', 'A');
const base = synced(a, 'asset-a');
const same = remote('Brand/a.png', 'asset-a', 'A');

describe('planOperations, both directions (DESIGN.md §3 table)', () => {
  it.each<[string, LocalEntry[], SyncedEntry[], RemoteEntry[], string[]]>([
    ['nothing changed', [a], [base], [same], []],
    // Local changes go up.
    ['new local file', [a, file('Brand/new.png', 'N')], [base], [same], ['UPLOAD_NEW Brand/new.png']],
    ['new local file, unread', [a, { ...file('Brand/new.mov', 'N'), md5: null }], [base], [same], ['UPLOAD_NEW Brand/new.mov']],
    // An unread file where the service has one waits to be read: no conflict copy, no download over it.
    ['new unread file where the service has a new one', [a, { ...file('Brand/r.png', 'R'), md5: null }], [base], [same, remote('Brand/r.png', 'asset-r', 'R')], []],
    ['remote move onto an unread new file', [a, { ...file('Other/a.png', 'X'), size: 3, md5: null }], [base], [remote('Other/a.png', 'asset-a', 'A')], []],
    ['local content change', [{ ...a, md5: 'A2' }], [base], [same], ['UPLOAD_VERSION Brand/a.png']],
    ['local move', [{ ...a, relPath: 'Other/a.png' }], [base], [same], ['MOVE Brand/a.png -> Other/a.png']],
    ['local rename', [{ ...a, relPath: 'Brand/b.png' }], [base], [same], ['MOVE Brand/a.png -> Brand/b.png']],
    ['local delete', [], [base], [same], ['DELETE Brand/a.png']],
    // Remote changes come down.
    ['remote new file', [a], [base], [same, remote('Brand/r.png', 'asset-r', 'R')], ['DOWNLOAD Brand/r.png']],
    ['remote content change', [a], [base], [remote('Brand/a.png', 'asset-a', 'A2')], ['DOWNLOAD Brand/a.png (replace)']],
    ['remote move', [a], [base], [remote('Other/a.png', 'asset-a', 'A')], ['LOCAL_MOVE Brand/a.png -> Other/a.png']],
    ['remote rename', [a], [base], [remote('Brand/renamed.png', 'asset-a', 'A')], ['LOCAL_MOVE Brand/a.png -> Brand/renamed.png']],
    ['remote removal (bin, or filed elsewhere)', [a], [base], [], ['LOCAL_DELETE Brand/a.png']],
    // Both sides.
    ['both changed: conflict, the service takes the name', [{ ...a, md5: 'A-mine' }], [base], [remote('Brand/a.png', 'asset-a', 'A-theirs')], ['CONFLICT Brand/a.png (copy Brand/a (conflict 2026-03-01 092401).png)']],
    ['both changed to the same bytes', [{ ...a, md5: 'A2' }], [base], [remote('Brand/a.png', 'asset-a', 'A2')], ['ADOPT Brand/a.png']],
    ['local edit vs remote delete: the edit wins', [{ ...a, md5: 'A2' }], [base], [], ['FORGET Brand/a.png']],
    ['local delete vs remote edit: the edit wins', [], [base], [remote('Brand/a.png', 'asset-a', 'A2')], ['DOWNLOAD Brand/a.png']],
    ['deleted on both sides', [], [base], [], ['FORGET Brand/a.png']],
    ['local delete vs remote move: the file comes back where it went', [], [base], [remote('Other/a.png', 'asset-a', 'A')], ['FORGET Brand/a.png', 'DOWNLOAD Other/a.png']],
    ['local move vs remote removal: the move wins, on the asset brought back', [{ ...a, relPath: 'Other/a.png' }], [base], [], ['MOVE Brand/a.png -> Other/a.png']],
    ['local edit vs remote removal: kept, uploads as new next pass', [file('Brand/a.png', 'A2')], [base], [], ['FORGET Brand/a.png']],
    ['the same move on both sides', [{ ...a, relPath: 'Other/a.png' }], [base], [remote('Other/a.png', 'asset-a', 'A')], ['FORGET Brand/a.png', 'ADOPT Other/a.png']],
    ['different moves: the service names it', [{ ...a, relPath: 'Mine/a.png' }], [base], [remote('Theirs/a.png', 'asset-a', 'A')], ['LOCAL_MOVE Mine/a.png -> Theirs/a.png']],
    ['local edit vs remote move: move, then the version next pass', [{ ...a, md5: 'A2' }], [base], [remote('Other/a.png', 'asset-a', 'A')], ['LOCAL_MOVE Brand/a.png -> Other/a.png']],
    ['local move vs remote edit: move first, no version', [{ ...a, relPath: 'Other/a.png', md5: 'A2' }], [base], [remote('Brand/a.png', 'asset-a', 'A3')], ['MOVE Brand/a.png -> Other/a.png']],
    ['new on both sides, one name, other bytes', [file('n.txt', 'mine')], [], [remote('n.txt', 'asset-n', 'theirs')], ['CONFLICT n.txt (copy n (conflict 2026-03-01 092401).txt)']],
    ['new on both sides, same bytes', [file('n.txt', 'same')], [], [remote('n.txt', 'asset-n', 'same')], ['ADOPT n.txt']],
    ['an asset in two folders appears in both', [], [], [remote('One/x.png', 'asset-x', 'X'), remote('Two/x.png', 'asset-x', 'X')], ['DOWNLOAD One/x.png', 'DOWNLOAD Two/x.png']],
    ['a second folder added on the service', [a], [base], [same, remote('Other/a.png', 'asset-a', 'A')], ['DOWNLOAD Other/a.png']],
  ])('%s', (_name, local, syncedEntries, remoteEntries, expected) => {
    expect(kinds(plan(local, syncedEntries, remoteEntries))).toEqual(expected);
  });

  it('moves a file moved here whose asset left the listing only after bringing the asset back (seed 81430)', () => {
    // Two clients that each moved it uploaded it as a new asset: two assets of one file. A file left in
    // `Brand` says the move was this file's, not its folder's.
    const moved = { ...a, relPath: 'Other/a.png' };
    const kept = file('Brand/kept.png', 'K');
    const both = [base, synced(kept, 'asset-k')];
    expect(plan([moved, kept], both, [remote('Brand/kept.png', 'asset-k', 'K')]).operations).toEqual([{ kind: 'MOVE', from: 'Brand/a.png', to: 'Other/a.png', assetId: 'asset-a', local: moved, restore: true }]);
  });

  it('lets only the row of a file follow its folder renamed here while its asset left the listing: no asset brought back (seed 108329)', () => {
    // The folder's other files went along; a new file by the old folder's name changes nothing.
    const moved = { ...a, relPath: 'B/E/Brand/a.png' };
    const kept = file('B/E/Brand/kept.png', 'K');
    const both = [base, synced({ ...kept, relPath: 'Brand/kept.png' }, 'asset-k')];
    const there = [remote('Brand/kept.png', 'asset-k', 'K')];
    const operations = (local: LocalEntry[]) => plan(local, both, there).operations.filter((op) => op.kind === 'MOVE' && op.assetId === 'asset-a');
    const followsFolder = [{ kind: 'MOVE', from: 'Brand/a.png', to: 'B/E/Brand/a.png', assetId: 'asset-a', local: moved, withFolder: true }];
    expect(operations([moved, kept])).toEqual(followsFolder);
    expect(operations([moved, kept, file('Brand/new.png', 'N')])).toEqual(followsFolder);
    // Alone in its folder, a file moved out reads the same way: the folder went with it, or is empty now.
    expect(plan([{ ...a, relPath: 'Other/a.png' }], [base], []).operations).toEqual([{ kind: 'MOVE', from: 'Brand/a.png', to: 'Other/a.png', assetId: 'asset-a', local: { ...a, relPath: 'Other/a.png' }, withFolder: true }]);
  });

  it('lets go of a file edited here whose asset left the listing, which outlives it, and of one gone on both sides (seed 102721)', () => {
    // The file goes up as a new asset next pass, under the binned asset's name (0008-successors.ts).
    expect(plan([{ ...a, md5: 'A2' }], [base], []).operations).toEqual([{ kind: 'FORGET', relPath: 'Brand/a.png', assetId: 'asset-a', outlived: true }]);
    expect(plan([], [base], []).operations).toEqual([{ kind: 'FORGET', relPath: 'Brand/a.png', assetId: 'asset-a' }]);
  });

  it('downloads with the expected local file to replace, and records the agreed bytes on adoption', () => {
    const changed = remote('Brand/a.png', 'asset-a', 'A2');
    expect(plan([a], [base], [changed]).operations).toEqual([{ kind: 'DOWNLOAD', relPath: 'Brand/a.png', remote: changed, replace: a }]);
    const moved = remote('Other/a.png', 'asset-a', 'A');
    expect(plan([a], [base], [moved]).operations).toEqual([{ kind: 'LOCAL_MOVE', from: 'Brand/a.png', to: 'Other/a.png', syncedPath: 'Brand/a.png', assetId: 'asset-a', local: a, md5: 'A' }]);
  });

  it('reads a synced file moved away with a new file made at its old path as a move, then a new file (seeds 73031, 73069)', () => {
    // `Brand` renamed `D`, a new `Brand/a.png` written, and the service renamed the asset: it follows its
    // file (same inode and bytes), the service names it, and the new file waits for the move's record.
    const moved = { ...a, relPath: 'D/a.png' };
    const fresh = file('Brand/a.png', 'N');
    const renamed = remote('Brand/logo.png', 'asset-a', 'A');
    expect(kinds(plan([moved, fresh], [base], [renamed]))).toEqual(['LOCAL_MOVE D/a.png -> Brand/logo.png']);
    // Once the move is recorded, the new file goes up as new.
    const followed = { ...moved, relPath: 'Brand/logo.png' };
    expect(kinds(plan([followed, fresh], [synced(followed, 'asset-a')], [renamed]))).toEqual(['UPLOAD_NEW Brand/a.png']);
    // Moved and edited (the same inode and name, other bytes: seed 73069): the same move.
    expect(kinds(plan([{ ...moved, md5: 'A-edited' }, fresh], [base], [renamed]))).toEqual(['LOCAL_MOVE D/a.png -> Brand/logo.png']);
    // Another name and other bytes at the new path (the inode reused by another file): the file at the old path is an edit.
    expect(kinds(plan([{ ...moved, relPath: 'D/other.png', md5: 'other' }, fresh], [base], [renamed]))).toEqual(['LOCAL_MOVE Brand/a.png -> Brand/logo.png', 'UPLOAD_NEW D/other.png']);
    // The service still names the asset at the old path (seed 73069, shrunk): the move goes up first.
    expect(kinds(plan([moved, fresh], [base], [same]))).toEqual(['MOVE Brand/a.png -> D/a.png']);
    // Another asset at the old path on the service (seed 73116): nothing lands on the waiting file.
    expect(kinds(plan([moved, fresh], [base], [renamed, remote('Brand/a.png', 'asset-z', 'Z')]))).toEqual(['LOCAL_MOVE D/a.png -> Brand/logo.png']);
    // The moved file not read yet: nothing is decided at the old path until it is (content-needed.ts).
    expect(kinds(plan([{ ...moved, md5: null }, fresh], [base], [renamed]))).toEqual([]);
    // No listing of the service this pass (a restart whose listing failed): the same move goes up, and
    // the new file waits; read as an edit, the moved file went up as a second asset (seed 89212).
    expect(kinds(plan([moved, fresh], [base], undefined))).toEqual(['MOVE Brand/a.png -> D/a.png']);
    const settling = { unstable: new Set(['Brand/a.png']), pending: new Map([['Brand/a.png', { size: 3, mtimeMs: 9, ino: nextInode++, dev: 1 }]]) };
    expect(kinds(plan([moved], [base], undefined, settling))).toEqual(['MOVE Brand/a.png -> D/a.png']);
  });

  it('reads a file the engine numbered apart, left at its number by a crash and edited there, as the synced file (seeds 101545, 101227)', () => {
    // A namesake came, the engine renamed `a.png` to `a (2).png` and crashed before the record; the user
    // then edited it and wrote a new `a.png`. Read as a new file, it went up as a second asset named
    // with the number this disk alone needed.
    const numbered = { ...a, relPath: 'Brand/a (2).png', md5: 'A-edited' };
    const fresh = file('Brand/a.png', 'N');
    const there = [remote('Brand/a.png', 'asset-z', 'Z'), remote('Brand/a (2).png', 'asset-a', 'A')];
    expect(kinds(plan([numbered, fresh], [base], there))).toEqual(['FORGET Brand/a.png', 'ADOPT Brand/a (2).png']);
    // Binned by the colleague meanwhile, and moved to another folder first (seed 101227): the move
    // brings the asset back rather than a second one going up.
    const elsewhere = { ...numbered, relPath: 'Other/a (2).png' };
    const namesake = remote('Other/a.png', 'asset-z', 'Z');
    expect(plan([elsewhere], [base], [namesake]).operations).toEqual([
      { kind: 'MOVE', from: 'Brand/a.png', to: 'Other/a (2).png', assetId: 'asset-a', local: elsewhere, restore: true },
      { kind: 'DOWNLOAD', relPath: 'Other/a.png', remote: namesake },
    ]);
    // Another name, numbered or not, is another file (the inode reused).
    expect(kinds(plan([{ ...elsewhere, relPath: 'Other/b (2).png' }], [base], [namesake]))).toEqual(['FORGET Brand/a.png', 'UPLOAD_NEW Other/b (2).png', 'DOWNLOAD Other/a.png']);
  });

  it('never reads an unreadable conflict copy as its synced file renamed (seed 101300)', () => {
    // A conflict cut off by a crash after its copy's rename, before the service's version came down;
    // the copy unreadable now (EACCES), so only its signature is known. Matched as the synced file
    // renamed there, the copy went up as the asset's new name.
    const copyPath = 'Brand/a (conflict 2026-03-01 092401).png';
    const theirs = remote('Brand/a.png', 'asset-a', 'A-theirs');
    const unreadable = { unstable: new Set([copyPath]), pending: new Map([[copyPath, { size: a.size, mtimeMs: a.mtimeMs, ino: a.ino, dev: a.dev }]]), conflictCopies: new Set([copyPath]) };
    expect(kinds(plan([], [base], [theirs], unreadable))).toEqual(['DOWNLOAD Brand/a.png']);
  });

  it('reads a synced file moved over another as that one\'s deletion, then its own move (seeds 90607, 87244)', () => {
    // `mv Brand/a.png b.png` over a synced `b.png`: read as an edit of `b.png` and a deletion of `a.png`,
    // the asset lost its history, and another client's move of it left two live assets of its bytes.
    const b = file('b.png', 'B');
    const over = { ...a, relPath: 'b.png' };
    const both = [base, synced(b, 'asset-b')];
    const unchanged = [same, remote('b.png', 'asset-b', 'B')];
    expect(kinds(plan([over], both, unchanged))).toEqual(['DELETE b.png']);
    // Once the deletion is recorded, the move.
    expect(kinds(plan([over], [base], [same]))).toEqual(['MOVE Brand/a.png -> b.png']);
    // Still settling at the path it was moved to (a rename keeps size and mtime): the same.
    const settling = { unstable: new Set(['b.png']), pending: new Map([['b.png', { size: a.size, mtimeMs: a.mtimeMs, ino: a.ino, dev: a.dev }]]) };
    expect(kinds(plan([], both, unchanged, settling))).toEqual(['DELETE b.png']);
    // `b.png` edited on the service meanwhile: the old reading, under the conflict rule.
    expect(kinds(plan([over], both, [same, remote('b.png', 'asset-b', 'B2')]))).toEqual(['CONFLICT b.png (copy b (conflict 2026-03-01 092401).png)', 'DELETE Brand/a.png']);
    // The replaced file still on disk, held at a clashing name (its NFD twin): no deletion to wait for,
    // or the moved one waited on it for good (seed 87244); the edit reading, as before.
    const cafe = file('caf\u00e9.png', 'K');
    const nfd = 'cafe\u0301.png';
    const held = { unstable: new Set([nfd]), pending: new Map([[nfd, { size: cafe.size, mtimeMs: cafe.mtimeMs, ino: cafe.ino, dev: cafe.dev }]]) };
    expect(kinds(plan([{ ...a, relPath: 'caf\u00e9.png' }], [base, synced(cafe, 'asset-k')], [same, remote('caf\u00e9.png', 'asset-k', 'K')], held))).toEqual(['UPLOAD_VERSION café.png', 'DELETE Brand/a.png']);
    // Two files swapped, and a save by rename over the file (its temp file never synced): edits, as before.
    const swapped = [{ ...b, relPath: 'Brand/a.png' }, over];
    expect(kinds(plan(swapped, both, unchanged))).toEqual(['UPLOAD_VERSION Brand/a.png', 'UPLOAD_VERSION b.png']);
    expect(kinds(plan([a, file('b.png', 'B-saved')], both, unchanged))).toEqual(['UPLOAD_VERSION b.png']);
  });

  it('reads a synced file moved over another, a new file then written at its old path, as that one\'s deletion, then its own move (seed 123248)', () => {
    // `mv Brand/a.png b.png` over a synced `b.png`, then a new `Brand/a.png`: read by path, `b.png` was
    // edited to `a.png`'s bytes and `Brand/a.png` to the new ones, so asset-a kept its bytes; the service
    // had moved it meanwhile, and with `Brand` deleted here it came down again: two live assets of them.
    const b = file('b.png', 'B');
    const over = { ...a, relPath: 'b.png' };
    const fresh = file('Brand/a.png', 'N');
    const both = [base, synced(b, 'asset-b')];
    const unchanged = [same, remote('b.png', 'asset-b', 'B')];
    // The replaced file's deletion; the new file waits with the moved one.
    expect(kinds(plan([over, fresh], both, unchanged))).toEqual(['DELETE b.png']);
    // The new file still settling: the same.
    const settling = { unstable: new Set(['Brand/a.png']), pending: new Map([['Brand/a.png', { size: 3, mtimeMs: 9, ino: fresh.ino, dev: fresh.dev }]]) };
    expect(kinds(plan([over], both, unchanged, settling))).toEqual(['DELETE b.png']);
    // Once the deletion is recorded, the move (the new file waits for its record, displacedFiles).
    expect(kinds(plan([over, fresh], [base], [same]))).toEqual(['MOVE Brand/a.png -> b.png']);
    // asset-a moved on the service meanwhile: moved on both sides, the service's name wins.
    expect(kinds(plan([over, fresh], [base], [remote('D/a.png', 'asset-a', 'A')]))).toEqual(['LOCAL_MOVE b.png -> D/a.png']);
    // `b.png` edited on the service meanwhile: the old reading, under the conflict rule.
    expect(kinds(plan([over, fresh], both, [same, remote('b.png', 'asset-b', 'B2')]))).toEqual(['CONFLICT b.png (copy b (conflict 2026-03-01 092401).png)', 'UPLOAD_VERSION Brand/a.png']);
  });

  it('never reads a conflict copy as a synced file moved away: the new file at its old path is an edit (seed 137822)', () => {
    // As above, `b.png` edited on the service: the file moved over it went aside as its conflict copy
    // and the service's version came down. Brand/a.png's row still names the moved file, now the copy.
    const copy = { ...a, relPath: 'b (conflict 2026-03-01 092401).png' };
    const b2 = file('b.png', 'B2');
    const fresh = file('Brand/a.png', 'N');
    const both = [base, synced(b2, 'asset-b')];
    const copies = { conflictCopies: new Set([copy.relPath]) };
    // The service edited asset-a too: a conflict, not a download held up for good by the new file.
    expect(kinds(plan([copy, b2, fresh], both, [remote('Brand/a.png', 'asset-a', 'A2'), remote('b.png', 'asset-b', 'B2')], copies))).toEqual([
      'CONFLICT Brand/a.png (copy Brand/a (conflict 2026-03-01 092401).png)',
    ]);
    // Unchanged there: the new file goes up as asset-a's version, no deletion of it.
    expect(kinds(plan([copy, b2, fresh], both, [same, remote('b.png', 'asset-b', 'B2')], copies))).toEqual(['UPLOAD_VERSION Brand/a.png']);
  });

  it('lets a synced file moved over one held at its decomposed twin follow the service\'s move of its asset (seed 103833)', () => {
    // `mv Brand/a.png café.png` beside a decomposed `café.png` (synced as asset-k, now NAME_CLASH) while
    // the other client's folder rename moved asset-a to `D/a.png`: read as café.png's edit and a.png's
    // deletion (87244), the deletion lost to that move and asset-a came down again at `D/a.png`, while
    // asset-k took its bytes: two live assets of one file.
    const cafe = file('caf\u00e9.png', 'K');
    const nfd = 'cafe\u0301.png';
    const held = { unstable: new Set([nfd]), pending: new Map([[nfd, { size: cafe.size, mtimeMs: cafe.mtimeMs, ino: cafe.ino, dev: cafe.dev }]]) };
    const over = { ...a, relPath: 'caf\u00e9.png' };
    const both = [base, synced(cafe, 'asset-k')];
    const k = remote('caf\u00e9.png', 'asset-k', 'K');
    // Moved on both sides: the service's name wins, the file leaves the composed name and asset-k's row
    // waits for its own file to be that name again.
    expect(kinds(plan([over], both, [remote('D/a.png', 'asset-a', 'A'), k], held))).toEqual(['LOCAL_MOVE café.png -> D/a.png']);
    // Edited there as well: the same move, the bytes compared the pass after.
    expect(kinds(plan([over], both, [remote('D/a.png', 'asset-a', 'A2'), k], held))).toEqual(['LOCAL_MOVE café.png -> D/a.png']);
    // Only numbered apart anew there (no move of its own), or left alone: the edit reading, as before.
    expect(kinds(plan([over], both, [remote('Brand/a (2).png', 'asset-a', 'A'), k], held))).toEqual(['UPLOAD_VERSION café.png', 'DELETE Brand/a.png']);
    expect(kinds(plan([over], both, [same, k], held))).toEqual(['UPLOAD_VERSION café.png', 'DELETE Brand/a.png']);
    // Moved here and edited too (neither its bytes nor its name): another file there, the edit reading.
    expect(kinds(plan([{ ...over, md5: 'A2' }], both, [remote('D/a.png', 'asset-a', 'A'), k], held))).toEqual(['FORGET Brand/a.png', 'UPLOAD_VERSION café.png', 'DOWNLOAD D/a.png']);
  });

  it('deletes a synced file whose file went up as the version of one held at its decomposed twin, though the service moved its asset (seed 131635)', () => {
    // `mv Brand/a.png café.png` beside a decomposed `café.png` (asset-k's file, now NAME_CLASH): read as
    // café.png's edit and a.png's deletion (87244), the edit went up and was recorded while the deletion
    // waited (a settling file of a.png's size); meanwhile the other client renamed asset-a `D/a.png`.
    // The move beat the deletion and asset-a came down again with the bytes asset-k now holds.
    const cafe = file('caf\u00e9.png', 'K');
    const nfd = 'cafe\u0301.png';
    const held = { unstable: new Set([nfd]), pending: new Map([[nfd, { size: cafe.size, mtimeMs: cafe.mtimeMs, ino: cafe.ino, dev: cafe.dev }]]) };
    const over = { ...a, relPath: 'caf\u00e9.png' };
    // asset-k's row took the moved file with its bytes when the version was recorded.
    const both = [base, synced(over, 'asset-k')];
    const k = remote('caf\u00e9.png', 'asset-k', 'A');
    expect(kinds(plan([over], both, [remote('D/a.png', 'asset-a', 'A'), k], held))).toEqual(['DELETE Brand/a.png']);
    // Left alone there: the same deletion, as before.
    expect(kinds(plan([over], both, [same, k], held))).toEqual(['DELETE Brand/a.png']);
    // Edited there as well: the edit wins, as over any deletion (its bytes are no one else's).
    expect(kinds(plan([over], both, [remote('D/a.png', 'asset-a', 'A2'), k], held))).toEqual(['FORGET Brand/a.png', 'DOWNLOAD D/a.png']);
    // Another file at café.png (its inode reused with other bytes): no file of asset-a's, the move wins.
    const other = { ...over, md5: 'O' };
    expect(kinds(plan([other], [base, synced(other, 'asset-k')], [remote('D/a.png', 'asset-a', 'A'), remote('caf\u00e9.png', 'asset-k', 'O')], held))).toEqual(['FORGET Brand/a.png', 'DOWNLOAD D/a.png']);
  });

  it('reads a synced file moved over another that the service only moved as that one\'s deletion (seed 101442)', () => {
    // `mv Brand/a.png b.png` while the other client's folder rename moved asset-b to `D/b.png` and a
    // colleague renamed asset-a. Read as an edit of `b.png`, asset-b followed its move holding `a.png`'s
    // bytes, while asset-a beat its deletion and came down again: two live assets of one file.
    const b = file('b.png', 'B');
    const over = { ...a, relPath: 'b.png' };
    const both = [base, synced(b, 'asset-b')];
    const renamed = remote('Brand/renamed.png', 'asset-a', 'A');
    // asset-b's deletion meets the service's move (it comes back there, its own bytes); the moved file
    // waits at `b.png` for that record.
    expect(kinds(plan([over], both, [renamed, remote('D/b.png', 'asset-b', 'B')]))).toEqual(['FORGET b.png', 'DOWNLOAD D/b.png']);
    // The pass after: asset-a was moved on both sides, and the service's name wins.
    const back = file('D/b.png', 'B');
    expect(kinds(plan([over, back], [base, synced(back, 'asset-b')], [renamed, remote('D/b.png', 'asset-b', 'B')]))).toEqual(['LOCAL_MOVE b.png -> Brand/renamed.png']);
    // asset-a left alone there: the move made here goes up, with its history.
    expect(kinds(plan([over, back], [base, synced(back, 'asset-b')], [same, remote('D/b.png', 'asset-b', 'B')]))).toEqual(['MOVE Brand/a.png -> b.png']);
    // asset-b moved and edited there: the old reading, under the conflict rule (the move first).
    expect(kinds(plan([over], both, [renamed, remote('D/b.png', 'asset-b', 'B2')]))).toEqual(['FORGET Brand/a.png', 'LOCAL_MOVE b.png -> D/b.png', 'DOWNLOAD Brand/renamed.png']);
  });

  it('reads a synced file moved over another that was moved away and edited as that one\'s deletion (seed 100742)', () => {
    // `mv b.png c.png`, `c.png` edited, then `mv Brand/a.png b.png`: `b.png`'s inode at another name with
    // other bytes is a new file there, not the replaced one still on disk. Read as an edit of `b.png`,
    // asset-b took `a.png`'s bytes while the service had moved asset-a: two live assets of them.
    const b = file('b.png', 'B');
    const over = { ...a, relPath: 'b.png' };
    const away = { ...b, relPath: 'c.png', md5: 'B-edited' };
    const both = [base, synced(b, 'asset-b')];
    const movedThere = remote('D/a.png', 'asset-a', 'A');
    expect(kinds(plan([over, away], both, [movedThere, remote('b.png', 'asset-b', 'B')]))).toEqual(['UPLOAD_NEW c.png', 'DELETE b.png']);
    expect(kinds(plan([over, away], both, [same, remote('b.png', 'asset-b', 'B')]))).toEqual(['UPLOAD_NEW c.png', 'DELETE b.png']);
    // Moved away unedited (or its name kept), it is still the replaced file: a move, as before (displacedFiles).
    expect(kinds(plan([over, { ...b, relPath: 'c.png' }], both, [same, remote('b.png', 'asset-b', 'B')]))).toEqual(['MOVE b.png -> c.png']);
  });

  it('reads a synced file moved away as a move while a new file at its old path is still settling (seed 86181)', () => {
    // Folder `Brand` renamed `D` (so renamed on the service too), a new `Brand/a.png` written a moment ago:
    // waiting for the new file, the moved one went up as a second asset of the same bytes.
    const moved = { ...a, relPath: 'D/a.png' };
    const settling = { unstable: new Set(['Brand/a.png']), pending: new Map([['Brand/a.png', { size: 3, mtimeMs: 9, ino: nextInode++, dev: 1 }]]) };
    expect(kinds(plan([moved], [base], [remote('D/a.png', 'asset-a', 'A')], settling))).toEqual(['FORGET Brand/a.png', 'ADOPT D/a.png']);
    expect(kinds(plan([moved], [base], [same], settling))).toEqual(['MOVE Brand/a.png -> D/a.png']);
    // The synced file itself still settling at its path (rewritten in place): it waits.
    expect(kinds(plan([], [base], [same], { unstable: new Set(['Brand/a.png']), pending: new Map([['Brand/a.png', { size: 3, mtimeMs: 9, ino: a.ino, dev: a.dev }]]) }))).toEqual([]);
  });

  it('reads a synced file moved onto the path another synced file left as a move, in the pass after that one (seed 86001)', () => {
    // `A/C` renamed `D`, then `B/b.txt` renamed `A/C/Logo.png`: read as a deletion, its asset was binned
    // and the file went up as a second asset from the old path of the other one.
    const logo = file('A/C/Logo.png', 'L');
    const b = file('B/b.txt', 'X', { size: 3 });
    const both = [synced(logo, 'asset-l'), synced(b, 'asset-b')];
    const unchanged = [remote('A/C/Logo.png', 'asset-l', 'L'), remote('B/b.txt', 'asset-b', 'X')];
    const logoMoved = { ...logo, relPath: 'D/Logo.png' };
    const bMoved = { ...b, relPath: 'A/C/Logo.png' };
    expect(kinds(plan([logoMoved, bMoved], both, unchanged))).toEqual(['MOVE A/C/Logo.png -> D/Logo.png']);
    // Both still settling (a watcher's pass right after the renames): nothing is deleted meanwhile.
    const signature = ({ size, mtimeMs, ino, dev }: HashedEntry) => ({ size, mtimeMs, ino, dev });
    const settling = { unstable: new Set(['D/Logo.png', 'A/C/Logo.png']), pending: new Map([['D/Logo.png', signature(logoMoved)], ['A/C/Logo.png', signature(bMoved)]]) };
    expect(kinds(plan([], both, unchanged, settling))).toEqual([]);
    // Once that move is recorded, the other file's is an ordinary move.
    const recorded = [synced(logoMoved, 'asset-l'), synced(b, 'asset-b')];
    expect(kinds(plan([logoMoved, bMoved], recorded, [remote('D/Logo.png', 'asset-l', 'L'), remote('B/b.txt', 'asset-b', 'X')]))).toEqual(['MOVE B/b.txt -> A/C/Logo.png']);
    // Renamed and edited there (the same inode and name, other bytes): the same wait.
    const edited = { ...b, relPath: 'A/C/b.txt', md5: 'X2' };
    const aside = { ...logo, relPath: 'A/C/b.txt' };
    expect(kinds(plan([{ ...aside, relPath: 'D/b.txt' }, edited], [synced(aside, 'asset-l'), synced(b, 'asset-b')], [remote('A/C/b.txt', 'asset-l', 'L'), remote('B/b.txt', 'asset-b', 'X')]))).toEqual(['MOVE A/C/b.txt -> D/b.txt']);
    // Another name and other bytes (the inode reused by another file): a deletion, as before.
    expect(kinds(plan([logoMoved, { ...bMoved, md5: 'other' }], both, unchanged))).toEqual(['MOVE A/C/Logo.png -> D/Logo.png', 'DELETE B/b.txt']);
  });

  it('keeps a synced file renamed to the decomposed twin of a name in its folder: no deletion, no move to that spelling (seed 86359)', () => {
    // `A/C/café.txt` renamed `A/café.txt` spelled NFD beside the composed `A/café.txt`: the scanner reports
    // the twin NAME_CLASH with its signature. Read as deleted, the asset was binned (restored by the
    // other client's move) and, once the composed twin left, the file went up as a second asset.
    const x = file('A/C/caf\u00e9.txt', 'X');
    const twin = file('A/caf\u00e9.txt', 'C');
    const both = [synced(x, 'asset-x'), synced(twin, 'asset-c')];
    const nfd = 'A/cafe\u0301.txt';
    const reported = { unstable: new Set([nfd]), pending: new Map([[nfd, { size: x.size, mtimeMs: x.mtimeMs, ino: x.ino, dev: x.dev }]]) };
    const unchanged = [remote('A/C/caf\u00e9.txt', 'asset-x', 'X'), remote('A/caf\u00e9.txt', 'asset-c', 'C')];
    expect(kinds(plan([twin], both, unchanged, reported))).toEqual([]);
    // Binned on the service meanwhile: still no deletion of its own, nothing uploaded.
    expect(kinds(plan([twin], both, [remote('A/caf\u00e9.txt', 'asset-c', 'C')], reported))).toEqual([]);
    // The composed twin gone (moved away and recorded), the file is read at the name itself: a move.
    const moved = { ...x, relPath: 'A/caf\u00e9.txt' };
    expect(kinds(plan([moved], [synced(x, 'asset-x')], [remote('A/C/caf\u00e9.txt', 'asset-x', 'X')]))).toEqual(['MOVE A/C/café.txt -> A/café.txt']);
    // The name's own synced file respelled NFD beside a new composed file: the name's file replaced, an
    // edit as before. Waiting on the twin, both waited for good (seed 73031, a regression of a first cut).
    const respelled = { unstable: new Set([nfd]), pending: new Map([[nfd, { size: twin.size, mtimeMs: twin.mtimeMs, ino: twin.ino, dev: twin.dev }]]) };
    const replaced = file('A/caf\u00e9.txt', 'N');
    expect(kinds(plan([replaced], [synced(twin, 'asset-c')], [remote('A/caf\u00e9.txt', 'asset-c', 'C')], respelled))).toEqual(['UPLOAD_VERSION A/café.txt']);
  });

  it('moves a file held at a decomposed twin\'s name where the service moved its asset: the service\'s name wins (seeds 89027, 90649)', () => {
    // `B/café.txt` renamed to the NFD twin of `A/café.txt` and held there (NAME_CLASH); the colleague
    // renamed the asset `D/logo.png` and wrote a new `B/café.txt`. Waiting, the file kept `B/café.txt`
    // as its asset's path, and the new asset there never came down.
    const x = file('B/caf\u00e9.txt', 'X');
    const twin = file('A/caf\u00e9.txt', 'C');
    const both = [synced(x, 'asset-x'), synced(twin, 'asset-c')];
    const nfd = 'A/cafe\u0301.txt';
    const reported = { unstable: new Set([nfd]), pending: new Map([[nfd, { size: x.size, mtimeMs: x.mtimeMs, ino: x.ino, dev: x.dev }]]) };
    const renamed = [remote('D/logo.png', 'asset-x', 'X'), remote('A/caf\u00e9.txt', 'asset-c', 'C'), remote('B/caf\u00e9.txt', 'asset-n', 'N')];
    expect(kinds(plan([twin], both, renamed, reported))).toEqual(['LOCAL_MOVE A/cafe\u0301.txt -> D/logo.png']);
    // The move recorded, the new asset comes down.
    const movedThere = { ...x, relPath: 'D/logo.png' };
    expect(kinds(plan([twin, movedThere], [synced(movedThere, 'asset-x'), synced(twin, 'asset-c')], renamed))).toEqual(['DOWNLOAD B/café.txt']);
    // Edited or binned there: it waits, as before.
    expect(kinds(plan([twin], both, [remote('B/caf\u00e9.txt', 'asset-x', 'X2'), remote('A/caf\u00e9.txt', 'asset-c', 'C')], reported))).toEqual([]);
    expect(kinds(plan([twin], both, [remote('A/caf\u00e9.txt', 'asset-c', 'C')], reported))).toEqual([]);
    // Binned there and another asset at its old path (seed 90649): the held row lets go of the path,
    // the file stays where it is; the other asset comes down the pass after.
    expect(kinds(plan([twin], both, [remote('A/caf\u00e9.txt', 'asset-c', 'C'), remote('B/caf\u00e9.txt', 'asset-n', 'N')], reported))).toEqual(['FORGET B/café.txt']);
    // Edited here before the rename (its size or mtime differs): no telling its bytes, so the file
    // waits where it is, but its row follows the service's move and frees B/café.txt (seed 92508).
    const edited = { unstable: new Set([nfd]), pending: new Map([[nfd, { size: x.size + 1, mtimeMs: x.mtimeMs + 5, ino: x.ino, dev: x.dev }]]) };
    expect(kinds(plan([twin], both, renamed, edited))).toEqual(['FORGET B/café.txt', 'ADOPT D/logo.png']);
  });

  it('moves the row of a file edited and held at a decomposed twin\'s name where the service moved its asset, freeing its path (seed 92508)', () => {
    // Client 0 edited `A/café.txt` and renamed it to the NFD twin of the root's `café.txt` (NAME_CLASH;
    // edited, so not held for a move: its bytes are unread). Client 1 renamed folder `A` to `A2` and
    // moved `B/a.txt` to a new `A/café.txt`. The waiting row kept `A/café.txt`, and `B/a.txt` never
    // moved there.
    const x = file('A/caf\u00e9.txt', 'X');
    const twin = file('caf\u00e9.txt', 'C');
    const n = file('B/a.txt', 'N');
    const rows = [synced(x, 'asset-x'), synced(twin, 'asset-c'), synced(n, 'asset-n')];
    const nfd = 'cafe\u0301.txt';
    const edited = { unstable: new Set([nfd]), pending: new Map([[nfd, { size: x.size + 3, mtimeMs: x.mtimeMs + 5, ino: x.ino, dev: x.dev }]]) };
    const service = [remote('A2/caf\u00e9.txt', 'asset-x', 'X'), remote('caf\u00e9.txt', 'asset-c', 'C'), remote('A/caf\u00e9.txt', 'asset-n', 'N')];
    const first = plan([twin, n], rows, service, edited);
    expect(kinds(first)).toEqual(['FORGET A/café.txt', 'ADOPT A2/café.txt']);
    // The row keeps the file's identity and the synced bytes at the service's path: nothing to send.
    expect(first.operations[1]).toMatchObject({ kind: 'ADOPT', assetId: 'asset-x', md5: 'X', local: { relPath: 'A2/caf\u00e9.txt', ino: x.ino, size: x.size, mtimeMs: x.mtimeMs, md5: 'X' } });
    // The pass after, the other asset moves in; the edited file still waits, its row at the service's path.
    const followed = synced({ ...x, relPath: 'A2/caf\u00e9.txt' }, 'asset-x');
    expect(kinds(plan([twin, n], [followed, synced(twin, 'asset-c'), synced(n, 'asset-n')], service, edited))).toEqual(['LOCAL_MOVE B/a.txt -> A/café.txt']);
    const arrived = { ...n, relPath: 'A/caf\u00e9.txt' };
    expect(kinds(plan([twin, arrived], [followed, synced(twin, 'asset-c'), synced(arrived, 'asset-n')], service, edited))).toEqual([]);
    // The service's path taken on disk: the row waits where it is.
    expect(kinds(plan([twin, n, file('A2/caf\u00e9.txt', 'Z')], rows, service, edited))).toEqual(['UPLOAD_NEW A2/café.txt']);
    // Not moved there: it waits, as before.
    expect(kinds(plan([twin, n], rows, [remote('A/caf\u00e9.txt', 'asset-x', 'X'), remote('caf\u00e9.txt', 'asset-c', 'C'), remote('B/a.txt', 'asset-n', 'N')], edited))).toEqual([]);
    // Binned there and another asset at its old path: the row lets go of the path, as a held one does (seed 90649).
    expect(kinds(plan([twin, n], rows, [remote('caf\u00e9.txt', 'asset-c', 'C'), remote('A/caf\u00e9.txt', 'asset-n', 'N')], edited))).toEqual(['FORGET A/café.txt']);
  });

  it('moves a file moved here whose name the service only numbered anew: the move goes up (seed 86076)', () => {
    // `A/logo (2).png` beside another asset's `A/logo.png`; the user renamed `A` to `A2` and wrote a new
    // `A/logo.png`; the namesake left `A`, so the service lists the asset as `A/logo.png`. The service's
    // name won: its path held by the new file, the move waited, the new file went up, the service
    // numbered the two the other way round, and each waited for the other's path on every pass.
    const logo = file('A/logo (2).png', 'W');
    const moved = { ...logo, relPath: 'A2/logo (2).png' };
    const fresh = file('A/logo.png', 'N');
    expect(kinds(plan([moved, fresh], [synced(logo, 'asset-w')], [remote('A/logo.png', 'asset-w', 'W')]))).toEqual(['MOVE A/logo (2).png -> A2/logo (2).png', 'UPLOAD_NEW A/logo.png']);
    // The state it was stuck in: the new file uploaded and numbered `A/logo (2).png` by the service.
    const stuck = [synced(logo, 'asset-w'), synced(fresh, 'asset-n')];
    expect(kinds(plan([moved, fresh], stuck, [remote('A/logo.png', 'asset-w', 'W'), remote('A/logo (2).png', 'asset-n', 'N')]))).toEqual(['MOVE A/logo (2).png -> A2/logo (2).png']);
    // Edited here too: the version follows the move, as for any local move.
    expect(kinds(plan([{ ...moved, md5: 'W2' }], [synced(logo, 'asset-w')], [remote('A/logo.png', 'asset-w', 'W')]))).toEqual(['MOVE A/logo (2).png -> A2/logo (2).png', 'UPLOAD_VERSION A2/logo (2).png']);
    // Edited there: the move goes first, the next pass compares the bytes.
    expect(kinds(plan([{ ...moved, md5: 'W2' }], [synced(logo, 'asset-w')], [remote('A/logo.png', 'asset-w', 'W3')]))).toEqual(['MOVE A/logo (2).png -> A2/logo (2).png']);
    // Renamed on the service to another name: both moved it, the service names it, as before.
    expect(kinds(plan([moved], [synced(logo, 'asset-w')], [remote('A/brand.png', 'asset-w', 'W')]))).toEqual(['LOCAL_MOVE A2/logo (2).png -> A/brand.png']);
  });

  it('deletes a file deleted here whose name the service only numbered anew, instead of bringing it back under the number', () => {
    // The user deleted `A/C` and made a folder `A/C` with a file in it in one go: numbered apart from
    // the folder on this disk (remote-placements.ts), the service's `A/C` reads as `A/C (2)`.
    const c = file('A/C', 'C');
    const inFolder = file('A/C/new.txt', 'N');
    expect(kinds(plan([inFolder], [synced(c, 'asset-c')], [remote('A/C (2)', 'asset-c', 'C')]))).toEqual(['UPLOAD_NEW A/C/new.txt', 'DELETE A/C']);
    // A namesake came or went on the service: the same.
    const logo = file('A/logo (2).png', 'W');
    expect(kinds(plan([], [synced(logo, 'asset-w')], [remote('A/logo.png', 'asset-w', 'W')]))).toEqual(['DELETE A/logo (2).png']);
    // Edited there: the edit wins over the deletion, under its new number.
    expect(kinds(plan([], [synced(logo, 'asset-w')], [remote('A/logo.png', 'asset-w', 'W2')]))).toEqual(['FORGET A/logo (2).png', 'DOWNLOAD A/logo.png']);
    // Renamed there to another name: the move wins over the deletion, as before.
    expect(kinds(plan([], [synced(logo, 'asset-w')], [remote('A/brand.png', 'asset-w', 'W')]))).toEqual(['FORGET A/logo (2).png', 'DOWNLOAD A/brand.png']);
  });

  it('sends the move made here when the service only respelled the name a new file here took, on a disk that ignores case (seed 99522)', () => {
    // `A/logo.png` moved to `A2` here and a new `A/logo.png` written; the service renamed the asset
    // `A/Logo.png`, the new file's name on this disk. The service's name won: the move waited for the
    // new file's path, and the new file for the move's record, on every pass.
    const logo = file('A/logo.png', 'W');
    const moved = { ...logo, relPath: 'A2/logo.png' };
    const fresh = file('A/logo.png', 'N');
    const respelled = [remote('A/Logo.png', 'asset-w', 'W')];
    expect(kinds(plan([moved, fresh], [synced(logo, 'asset-w')], respelled, { nameKey: caseFoldedNames }))).toEqual(['MOVE A/logo.png -> A2/logo.png']);
    // On a disk that keeps case, `A/Logo.png` is free: the service's name wins, as before.
    expect(kinds(plan([moved, fresh], [synced(logo, 'asset-w')], respelled))).toEqual(['LOCAL_MOVE A2/logo.png -> A/Logo.png']);
  });

  it('holds a new file back while a synced row names its path in another case, on a disk that ignores case (seed 139997)', () => {
    // Folder `A` respelled `a` here, `A/C/café.txt` moved over `B/b.txt` (whose own file went on to
    // `D/b.txt` with its folder), and a new `A/C/café.txt` written, which this disk holds as
    // `a/C/café.txt`. Uploaded in that pass, its row sat beside the moved file's, one path on this disk,
    // and the service's rename of `A` (the rows below it renamed) wrote the old row over the new one.
    const folded = { nameKey: caseFoldedNames };
    const cafe = file('A/C/café.txt', 'C');
    const b = file('B/b.txt', 'X', { size: 3 });
    const rows = [synced(cafe, 'asset-c'), synced(b, 'asset-b')];
    const unchanged = [remote('A/C/café.txt', 'asset-c', 'C'), remote('B/b.txt', 'asset-b', 'X')];
    const bMoved = { ...b, relPath: 'D/b.txt' };
    const cafeMoved = { ...cafe, relPath: 'B/b.txt' };
    const fresh = file('a/C/café.txt', 'N');
    expect(kinds(plan([bMoved, cafeMoved, fresh], rows, unchanged, folded))).toEqual(['MOVE B/b.txt -> D/b.txt']);
    // Unread, it waits all the same.
    expect(kinds(plan([bMoved, cafeMoved, { ...fresh, md5: null, size: 7 }], rows, unchanged, folded))).toEqual(['MOVE B/b.txt -> D/b.txt']);
    // The simplest case: the synced file moved away, the new file at its old path in another case.
    const moved = { ...cafe, relPath: 'D/café.txt' };
    expect(kinds(plan([moved, fresh], [synced(cafe, 'asset-c')], [remote('A/C/café.txt', 'asset-c', 'C')], folded))).toEqual(['MOVE A/C/café.txt -> D/café.txt']);
    // Once the row has moved, the new file goes up.
    expect(kinds(plan([moved, fresh], [synced(moved, 'asset-c')], [remote('D/café.txt', 'asset-c', 'C')], folded))).toEqual(['UPLOAD_NEW a/C/café.txt']);
    // A row read as deleted holds nothing back: its file is gone, and the plan stays as before. Held
    // back, the new file waited for the row and the service's edit that beats the deletion, to come
    // down at the row's path, for the new file's: on every pass (seed 87013, on a first cut of this).
    const logo = file('A/logo.png', 'L');
    const upper = file('A/Logo.png', 'N');
    expect(kinds(plan([upper], [synced(logo, 'asset-l')], [remote('A/logo.png', 'asset-l', 'L2')], folded))).toEqual(['UPLOAD_NEW A/Logo.png', 'DOWNLOAD A/logo.png']);
    expect(kinds(plan([upper], [synced(logo, 'asset-l')], [remote('A/logo.png', 'asset-l', 'L')], folded))).toEqual(['UPLOAD_NEW A/Logo.png', 'DELETE A/logo.png']);
    // The synced file itself respelled is a move, as before; on a disk that keeps case, `a/C` is another folder.
    expect(kinds(plan([{ ...cafe, relPath: 'a/C/café.txt' }], [synced(cafe, 'asset-c')], [remote('A/C/café.txt', 'asset-c', 'C')], folded))).toEqual(['MOVE A/C/café.txt -> a/C/café.txt']);
    expect(kinds(plan([moved, fresh], [synced(cafe, 'asset-c')], [remote('A/C/café.txt', 'asset-c', 'C')]))).toEqual(['MOVE A/C/café.txt -> D/café.txt', 'UPLOAD_NEW a/C/café.txt']);
  });

  it('holds no new file behind a row whose asset the service respelled to that very path (seed 142612)', () => {
    // Folder `B` renamed `D` here, carrying `B/Logo.png`, while the service respelled the asset
    // `B/logo.png`, and a new `B/logo.png` was written here. The row comes back to the service's place
    // (a move on both sides), the new file's path on this disk: held behind it, the new file waited for
    // the row and the row for the new file's path, on every pass. The new file goes up first.
    const folded = { nameKey: caseFoldedNames };
    const logo = file('B/Logo.png', 'L');
    const fresh = file('B/logo.png', 'N');
    const carried = { ...logo, relPath: 'D/Logo.png' };
    expect(kinds(plan([carried, fresh], [synced(logo, 'asset-l')], [remote('B/logo.png', 'asset-l', 'L')], folded))).toContain('UPLOAD_NEW B/logo.png');
    // Moved elsewhere by the service, the row leaves the path, and the new file waits as before.
    expect(kinds(plan([carried, fresh], [synced(logo, 'asset-l')], [remote('E/Logo.png', 'asset-l', 'L')], folded))).not.toContain('UPLOAD_NEW B/logo.png');
  });

  it('records a move made here first when the service moved the asset to the path of the file moved onto its old one (seed 99622)', () => {
    // Folder `B` renamed `A2` here (its `café.txt` edited since), then `café.txt` moved to a new
    // `B/café.txt`; the service moved `B/café.txt`'s asset to the root, numbering `café.txt`'s apart.
    // The service's name won: the move waited for the row at `café.txt`, and that row's file (now at
    // `B/café.txt`) for the move's record, on every pass.
    const b = file('B/café.txt', 'B');
    const r = file('café.txt', 'R');
    const movedB = { ...b, relPath: 'A2/café.txt', md5: 'B2', size: 11 };
    const movedR = { ...r, relPath: 'B/café.txt' };
    const service = [remote('café.txt', 'asset-b', 'B'), remote('café (2).txt', 'asset-r', 'R')];
    const first = plan([movedB, movedR], [synced(b, 'asset-b'), synced(r, 'asset-r')], service);
    expect(kinds(first)).toEqual(['FORGET B/café.txt', 'ADOPT A2/café.txt']);
    // Next pass the file at `B/café.txt` is café.txt's move (the service only numbered it apart: it goes up)…
    const rowB = synced({ ...movedB, md5: 'B' }, 'asset-b');
    expect(kinds(plan([movedB, movedR], [rowB, synced(r, 'asset-r')], service))).toEqual(['MOVE café.txt -> B/café.txt']);
    // …and then the edited file follows the service's name; its bytes go up the pass after.
    const after = [remote('café.txt', 'asset-b', 'B'), remote('B/café.txt', 'asset-r', 'R')];
    expect(kinds(plan([movedB, movedR], [rowB, synced(movedR, 'asset-r')], after))).toEqual(['LOCAL_MOVE A2/café.txt -> café.txt']);
  });

  it('records a move made here first when the file holding the service\'s name for it moves onto its row (seed 117914)', () => {
    // On a disk that ignores case: `A/C/logo (2).png` carried to `D` by a folder renamed here while the
    // service renamed its asset `A/C/Logo.png` (and edited it); a new `A/C/logo.png`, uploaded, is
    // numbered `logo (2).png` by the listing. Its move waited for the row at `logo (2).png`, and that
    // row's file for the path `A/C/logo.png` holds on this disk, on every pass.
    const w = file('A/C/logo (2).png', 'W');
    const n = file('A/C/logo.png', 'N');
    const carried = { ...w, relPath: 'D/logo (2).png' };
    const service = [remote('A/C/Logo.png', 'asset-w', 'W2'), remote('A/C/logo (2).png', 'asset-n', 'N')];
    const folded = { nameKey: caseFoldedNames };
    expect(kinds(plan([carried, n], [synced(w, 'asset-w'), synced(n, 'asset-n')], service, folded))).toEqual(['FORGET A/C/logo (2).png', 'ADOPT D/logo (2).png']);
    // Next pass the new file takes its number and the carried file follows the service's name…
    const rowW = synced(carried, 'asset-w');
    expect(kinds(plan([carried, n], [rowW, synced(n, 'asset-n')], service, folded))).toEqual(['LOCAL_MOVE A/C/logo.png -> A/C/logo (2).png', 'LOCAL_MOVE D/logo (2).png -> A/C/Logo.png']);
    // …and then the service's version comes down.
    const home = { ...carried, relPath: 'A/C/Logo.png' };
    const numbered = { ...n, relPath: 'A/C/logo (2).png' };
    expect(kinds(plan([home, numbered], [synced(home, 'asset-w'), synced(numbered, 'asset-n')], service, folded))).toEqual(['DOWNLOAD A/C/Logo.png (replace)']);
    // On a disk that keeps case, the service's swap of two names does the same.
    const x = file('A/x.png', 'X');
    const y = file('A/y.png', 'Y');
    const swapped = [remote('A/y.png', 'asset-x', 'X'), remote('A/x.png', 'asset-y', 'Y')];
    expect(kinds(plan([{ ...x, relPath: 'D/x.png' }, y], [synced(x, 'asset-x'), synced(y, 'asset-y')], swapped))).toEqual(['FORGET A/x.png', 'ADOPT D/x.png']);
  });

  it('names a second conflict copy apart from the first', () => {
    const mine = { ...a, md5: 'A-mine' };
    const first = 'Brand/a (conflict 2026-03-01 092401).png';
    const result = plan([mine, file(first, 'older copy')], [base], [remote('Brand/a.png', 'asset-a', 'A-theirs')], { conflictCopies: new Set([first]) });
    expect(kinds(result)).toEqual(['CONFLICT Brand/a.png (copy Brand/a (conflict 2026-03-01 092401 2).png)']);
  });

  it('never uploads a conflict copy waiting for the user', () => {
    const copy = file('Brand/a (conflict 2026-03-01 092401).png', 'mine');
    expect(kinds(plan([a, copy], [base], [same], { conflictCopies: new Set([copy.relPath]) }))).toEqual([]);
  });

  it('does not download over a path still in use; the path frees up first', () => {
    // Asset A left a.png (binned) and asset B was renamed to it: A's file goes first, B follows next pass.
    const result = plan([a], [base], [remote('Brand/a.png', 'asset-b', 'B')]);
    expect(kinds(result)).toEqual(['LOCAL_DELETE Brand/a.png']);
    // A file still being written where a remote file wants to land.
    expect(kinds(plan([], [], [remote('busy.png', 'asset-b', 'B')], { unstable: new Set(['busy.png']) }))).toEqual([]);
    // A remote move onto a path a new local file holds.
    const squatter = file('Other/a.png', 'S');
    expect(kinds(plan([a, squatter], [base], [remote('Other/a.png', 'asset-a', 'A')]))).toEqual(['UPLOAD_NEW Other/a.png']);
  });

  it('breaks a cycle of remote moves onto each other\'s paths: one file steps aside first (seed 50031\'s class)', () => {
    // Two namesakes whose clash numbering turned over: each move waited for the other's path, every pass.
    const k = file('B/Logo (2).png', 'K');
    const n = file('B/Logo.png', 'N');
    const swapped = [remote('B/Logo.png', 'asset-k', 'K2'), remote('B/Logo (2).png', 'asset-n', 'N')];
    const first = plan([k, n], [synced(k, 'asset-k'), synced(n, 'asset-n')], swapped);
    expect(kinds(first)).toEqual(['LOCAL_MOVE B/Logo (2).png -> B/Logo (3).png']);
    // Next pass the other takes the freed path; the pass after, the first takes its own, then its new bytes come.
    const k3 = { ...k, relPath: 'B/Logo (3).png' };
    expect(kinds(plan([k3, n], [synced(k3, 'asset-k'), synced(n, 'asset-n')], swapped))).toEqual(['LOCAL_MOVE B/Logo.png -> B/Logo (2).png']);
    const n2 = { ...n, relPath: 'B/Logo (2).png' };
    expect(kinds(plan([k3, n2], [synced(k3, 'asset-k'), synced(n2, 'asset-n')], swapped))).toEqual(['LOCAL_MOVE B/Logo (3).png -> B/Logo.png']);
    // The aside name is free the way the disk compares names, and on the service.
    const taken = file('B/logo (3).png', 'T');
    const folded = plan([k, n, taken], [synced(k, 'asset-k'), synced(n, 'asset-n'), synced(taken, 'asset-t')], [...swapped, remote('B/Logo (4).png', 'asset-u', 'U'), remote('B/logo (3).png', 'asset-t', 'T')], { nameKey: caseFoldedNames });
    expect(kinds(folded)).toEqual(['LOCAL_MOVE B/Logo (2).png -> B/Logo (5).png', 'DOWNLOAD B/Logo (4).png']);
    // On a disk that folds case, `Logo.png` is held by `LOGO.png`: the same cycle in other spellings.
    const upper = file('B/LOGO.png', 'N');
    const respelled = [remote('B/Logo.png', 'asset-k', 'K2'), remote('B/LOGO (2).png', 'asset-n', 'N')];
    expect(kinds(plan([k, upper], [synced(k, 'asset-k'), synced(upper, 'asset-n')], respelled, { nameKey: caseFoldedNames }))).toEqual(['LOCAL_MOVE B/LOGO.png -> B/LOGO (3).png']);
    // A case-only respelling of a file by the service is its own path, no cycle.
    expect(kinds(plan([n], [synced(n, 'asset-n')], [remote('B/logo.png', 'asset-n', 'N')], { nameKey: caseFoldedNames }))).toEqual(['LOCAL_MOVE B/Logo.png -> B/logo.png']);
    // A chain that ends at a free path is no cycle: its head moves, the rest wait.
    const chain = plan([k, n], [synced(k, 'asset-k'), synced(n, 'asset-n')], [remote('B/Logo.png', 'asset-k', 'K'), remote('B/Other.png', 'asset-n', 'N')]);
    expect(kinds(chain)).toEqual(['LOCAL_MOVE B/Logo.png -> B/Other.png']);
  });

  it('breaks a cycle that a file moved here closes: the service\'s move of it waits for a path its own move took (seed 91090)', () => {
    // Moved and edited here (A/C → D), moved to B there; the service moved B's file to D meanwhile.
    const c = file('A/C/c.txt', 'C');
    const b = file('B/c.txt', 'B');
    const swapped = [remote('B/c.txt', 'asset-c', 'C'), remote('D/c.txt', 'asset-b', 'B')];
    const movedHere = { ...c, relPath: 'D/c.txt', md5: 'C2' };
    expect(kinds(plan([movedHere, b], [synced(c, 'asset-c'), synced(b, 'asset-b')], swapped))).toEqual(['LOCAL_MOVE D/c.txt -> D/c (2).txt']);
    // The other follows into the freed path, then the first takes the service's name, then its edit goes up.
    const aside = { ...movedHere, relPath: 'D/c (2).txt' };
    expect(kinds(plan([aside, b], [synced({ ...c, relPath: aside.relPath }, 'asset-c'), synced(b, 'asset-b')], swapped))).toEqual(['LOCAL_MOVE B/c.txt -> D/c.txt']);
    const followed = { ...b, relPath: 'D/c.txt' };
    expect(kinds(plan([aside, followed], [synced({ ...c, relPath: aside.relPath }, 'asset-c'), synced(followed, 'asset-b')], swapped))).toEqual(['LOCAL_MOVE D/c (2).txt -> B/c.txt']);
    const home = { ...movedHere, relPath: 'B/c.txt' };
    expect(kinds(plan([home, followed], [synced({ ...c, relPath: home.relPath }, 'asset-c'), synced(followed, 'asset-b')], swapped))).toEqual(['UPLOAD_VERSION B/c.txt']);
  });

  it('frees the row of a file moved here that the service\'s move onto its old path waits for, the service having swapped two places (seed 117100)', () => {
    // `A/logo.png` renamed `A/C/café.txt` here; the service swapped the two assets' places meanwhile:
    // `A/logo.png`'s asset went to `A/C/logo.png`, and that path's asset came to `A/logo.png` with new
    // bytes. Its move waited for the row at `A/logo.png`, and that row's file (now `A/C/café.txt`) for
    // `A/C/logo.png`, on every pass.
    const moving = file('A/logo.png', 'M');
    const still = file('A/C/logo.png', 'S');
    const swapped = [remote('A/C/logo.png', 'asset-m', 'M'), remote('A/logo.png', 'asset-s', 'S2')];
    const renamed = { ...moving, relPath: 'A/C/café.txt' };
    const rows = [synced(moving, 'asset-m'), synced(still, 'asset-s')];
    // The row lets go of `A/logo.png` first, recording the move made here (leavingOnto, seed 117914).
    expect(kinds(plan([renamed, still], rows, swapped))).toEqual(['FORGET A/logo.png', 'ADOPT A/C/café.txt']);
    const released = [synced(renamed, 'asset-m'), synced(still, 'asset-s')];
    // The other follows to the path that row left, then the renamed file takes the service's name.
    expect(kinds(plan([renamed, still], released, swapped))).toEqual(['LOCAL_MOVE A/C/logo.png -> A/logo.png']);
    const followed = { ...still, relPath: 'A/logo.png' };
    expect(kinds(plan([renamed, followed], [synced(renamed, 'asset-m'), synced(followed, 'asset-s')], swapped))).toEqual(['LOCAL_MOVE A/C/café.txt -> A/C/logo.png', 'DOWNLOAD A/logo.png (replace)']);
    // Met from the renamed file's side first, the same.
    const up = file('A/C/logo.png', 'M');
    const down = file('A/logo.png', 'S');
    const other = [remote('A/logo.png', 'asset-m', 'M'), remote('A/C/logo.png', 'asset-s', 'S')];
    expect(kinds(plan([{ ...up, relPath: 'A/café.txt' }, down], [synced(up, 'asset-m'), synced(down, 'asset-s')], other))).toEqual(['FORGET A/C/logo.png', 'ADOPT A/café.txt']);
  });

  it('decides nothing on the service side for an asset whose own change was not read back yet', () => {
    const unknown = { entries: new Map<string, RemoteEntry>(), unknownAssets: new Set(['asset-a']) };
    expect(kinds(plan([a], [base], undefined, { remote: unknown }))).toEqual([]);
    expect(kinds(plan([{ ...a, md5: 'A2' }], [base], undefined, { remote: unknown }))).toEqual(['UPLOAD_VERSION Brand/a.png']);
  });

  it('never reads a missing remote entry as a deletion without a remote view', () => {
    expect(kinds(plan([a], [base], undefined))).toEqual([]);
  });

  it('leaves busy paths alone in both directions', () => {
    expect(kinds(plan([], [], [remote('x.png', 'asset-x', 'X')], { busy: new Set(['x.png']) }))).toEqual([]);
    expect(kinds(plan([a], [base], [remote('Brand/a.png', 'asset-a', 'A2')], { busy: new Set(['Brand/a.png']) }))).toEqual([]);
  });

  describe('mass-delete guard, remote direction', () => {
    const files = Array.from({ length: 40 }, (_, index) => file(`f${String(index).padStart(2, '0')}.txt`, `M${index}`));
    const syncedAll = files.map((entry, index) => synced(entry, `asset-${index}`));
    const remoteAll = files.map((entry, index) => remote(entry.relPath, `asset-${index}`, entry.md5));

    it('holds local deletions when the service suddenly lists most assets as gone', () => {
      const result = plan(files, syncedAll, remoteAll.slice(0, 5));
      expect(result.operations).toEqual([]);
      expect(result.heldDeletes).toHaveLength(35);
      expect(result.heldDeletes.every((op) => op.kind === 'LOCAL_DELETE')).toBe(true);
    });

    it('lets a few through, and the held ones once confirmed', () => {
      expect(kinds(plan(files, syncedAll, remoteAll.slice(0, 38)))).toEqual(['LOCAL_DELETE f38.txt', 'LOCAL_DELETE f39.txt']);
      expect(plan(files, syncedAll, [], { deletesConfirmed: true }).operations).toHaveLength(40);
    });

    it('still downloads and uploads while deletions are held', () => {
      const result = plan([...files, file('new.txt', 'N')], syncedAll, [remote('fresh.txt', 'asset-f', 'F')]);
      expect(kinds(result)).toEqual(['UPLOAD_NEW new.txt', 'DOWNLOAD fresh.txt']);
      expect(result.heldDeletes).toHaveLength(40);
    });
  });

  it('is deterministic whatever the order of its inputs', () => {
    const local = Array.from({ length: 12 }, (_, index) => file(`d${index % 3}/f${index}.txt`, `H${index}`));
    const syncedEntries = local.slice(0, 8).map((entry, index) => synced(entry, `asset-${index}`));
    const remoteEntries = [
      ...local.slice(0, 8).map((entry, index) => remote(index % 2 === 0 ? entry.relPath : `moved/${entry.relPath}`, `asset-${index}`, index % 3 === 0 ? `${entry.md5}x` : entry.md5)),
      remote('d0/f10.txt', 'asset-10', 'other'),
    ];
    const first = plan(local, syncedEntries, remoteEntries);
    const second = plan([...local].reverse(), [...syncedEntries].reverse(), [...remoteEntries].reverse());
    expect(second).toEqual(first);
  });
});
