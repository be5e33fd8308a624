import { describe, expect, it } from 'vitest';
import { contentNeeded } from './content-needed.js';
import { caseFoldedNames } from '../local/local-names.js';
import { planOperations } from './plan-operations.js';
import type { HashedEntry, LocalEntry, PlanInput, SyncedEntry } from './sync-types.js';

let nextInode = 1000;
function file(relPath: string, md5: string, extra: Partial<HashedEntry> = {}): HashedEntry {
  return { relPath, md5, size: md5 === 'empty' ? 0 : 10, mtimeMs: 1, ino: nextInode++, dev: 1, ...extra };
}
function synced(entry: HashedEntry, assetId: string, extra: Partial<SyncedEntry> = {}): SyncedEntry {
  return { relPath: entry.relPath, assetId, md5: entry.md5, size: entry.size, mtimeMs: entry.mtimeMs, ino: entry.ino, dev: entry.dev, ...extra };
}
function plan(local: LocalEntry[], syncedEntries: SyncedEntry[], more: Partial<PlanInput> = {}) {
  return planOperations({
    local: new Map(local.map((entry) => [entry.relPath, entry])),
    synced: new Map(syncedEntries.map((entry) => [entry.relPath, entry])),
    unstable: new Set(),
    ...more,
  });
}
const kinds = (result: ReturnType<typeof plan>) =>
  result.operations.map((op) => ('from' in op ? `${op.kind} ${op.from} -> ${op.to}` : `${op.kind} ${op.relPath}`));

describe('planOperations', () => {
  it('uploads new files and does nothing for unchanged ones', () => {
    const a = file('a.png', 'A');
    const b = file('Brand/b.png', 'B');
    expect(kinds(plan([a, b], [synced(a, 'asset-a')]))).toEqual(['UPLOAD_NEW Brand/b.png']);
  });

  it('without a remote view, holds a new file where the last known snapshot has an asset (a download landed before a crash recorded it)', () => {
    const landed = file('A/a.txt', 'A');
    const fresh = file('A/new.txt', 'N');
    expect(kinds(plan([landed, fresh], [], { lastKnownRemote: new Set(['A/a.txt']) }))).toEqual(['UPLOAD_NEW A/new.txt']);
  });

  it('uploads a new version when the content changed, keeping the asset', () => {
    const a = file('a.png', 'A');
    const edited = { ...a, md5: 'A2', mtimeMs: 2 };
    const result = plan([edited], [synced(a, 'asset-a')]);
    expect(result.operations).toEqual([{ kind: 'UPLOAD_VERSION', relPath: 'a.png', assetId: 'asset-a', local: edited }]);
  });

  it('records a new identity without sending bytes when only the metadata changed (safe-save of the same bytes)', () => {
    const a = file('doc.txt', 'D');
    const saved = { ...a, ino: 99_999, mtimeMs: 5 };
    expect(plan([saved], [synced(a, 'asset-d')]).operations).toEqual([{ kind: 'REFRESH_IDENTITY', relPath: 'doc.txt', assetId: 'asset-d', local: saved }]);
  });

  it('treats a safe-save with new bytes (new inode, same path) as a version, not a delete and a new asset', () => {
    const a = file('doc.txt', 'D');
    const saved = { ...a, ino: 88_888, md5: 'D2' };
    expect(kinds(plan([saved], [synced(a, 'asset-d')]))).toEqual(['UPLOAD_VERSION doc.txt']);
  });

  it('detects a rename and a move by inode', () => {
    const a = file('Old/a.png', 'A');
    const b = file('b.png', 'B');
    const movedA = { ...a, relPath: 'New/a.png' };
    const renamedB = { ...b, relPath: 'b-final.png' };
    expect(kinds(plan([movedA, renamedB], [synced(a, 'asset-a'), synced(b, 'asset-b')]))).toEqual(['MOVE Old/a.png -> New/a.png', 'MOVE b.png -> b-final.png']);
  });

  it('detects a move by content when the inode changed (copy then delete), preferring the same name', () => {
    const a = file('x/logo.png', 'L');
    const copyOther = file('y/other.png', 'L');
    const copySame = file('z/logo.png', 'L');
    const result = plan([copyOther, copySame], [synced(a, 'asset-l')]);
    expect(kinds(result)).toEqual(['MOVE x/logo.png -> z/logo.png', 'UPLOAD_NEW y/other.png']);
  });

  it('moves and uploads a version when a file was moved and edited', () => {
    const a = file('a.txt', 'A');
    const movedEdited = { ...a, relPath: 'Sub/a.txt', md5: 'A2' };
    expect(kinds(plan([movedEdited], [synced(a, 'asset-a')]))).toEqual(['MOVE a.txt -> Sub/a.txt', 'UPLOAD_VERSION Sub/a.txt']);
  });

  it('does not call a reused inode with other bytes and another name a move', () => {
    const a = file('a.txt', 'A');
    const unrelated = file('z.txt', 'Z', { ino: a.ino });
    expect(kinds(plan([unrelated], [synced(a, 'asset-a')]))).toEqual(['UPLOAD_NEW z.txt', 'DELETE a.txt']);
  });

  it('on a disk that folds case, calls a file rewritten as Logo.png over logo.png (same inode, new bytes) a rename and a version, not a new asset (seed 50031)', () => {
    const logo = file('B/logo.png', 'L');
    const rewritten = { ...logo, relPath: 'B/Logo.png', md5: 'L2', mtimeMs: 2 };
    expect(kinds(plan([rewritten], [synced(logo, 'asset-l')], { nameKey: caseFoldedNames }))).toEqual(['MOVE B/logo.png -> B/Logo.png', 'UPLOAD_VERSION B/Logo.png']);
    // A disk that keeps case holds both names: a reused inode under another spelling proves nothing.
    expect(kinds(plan([rewritten], [synced(logo, 'asset-l')]))).toEqual(['UPLOAD_NEW B/Logo.png', 'DELETE B/logo.png']);
  });

  it('never matches empty files by content', () => {
    const empty = file('keep.txt', 'empty');
    const other = file('other.txt', 'empty');
    expect(kinds(plan([other], [synced(empty, 'asset-e')]))).toEqual(['UPLOAD_NEW other.txt', 'DELETE keep.txt']);
  });

  it('leaves files that are still being written alone', () => {
    const a = file('big.mov', 'M');
    const result = plan([], [synced(a, 'asset-m')], { unstable: new Set(['big.mov', 'new-copy.mov']) });
    expect(result.operations).toEqual([]);
    expect(result.heldDeletes).toEqual([]);
  });

  it('calls a vanished file a move when its inode reappears, unchanged, under a name still settling', () => {
    const a = file('old.txt', 'A');
    const pending = new Map([['new.txt', { size: a.size, mtimeMs: a.mtimeMs, ino: a.ino, dev: a.dev }]]);
    const result = plan([], [synced(a, 'asset-a')], { unstable: new Set(['new.txt']), pending });
    expect(result.operations).toEqual([{ kind: 'MOVE', from: 'old.txt', to: 'new.txt', assetId: 'asset-a', local: { relPath: 'new.txt', size: a.size, mtimeMs: a.mtimeMs, ino: a.ino, dev: a.dev, md5: 'A' } }]);
  });

  it('holds a deletion while a settling file might be the same file or a copy of it', () => {
    const a = file('old.txt', 'A');
    const edited = new Map([['moved.txt', { size: 99, mtimeMs: 7, ino: a.ino, dev: a.dev }]]);
    expect(plan([], [synced(a, 'asset-a')], { unstable: new Set(['moved.txt']), pending: edited }).operations).toEqual([]);
    const copy = new Map([['copy.txt', { size: a.size, mtimeMs: 9, ino: 4242, dev: a.dev }]]);
    expect(plan([], [synced(a, 'asset-a')], { unstable: new Set(['copy.txt']), pending: copy }).operations).toEqual([]);
    const unrelated = new Map([['other.txt', { size: 12345, mtimeMs: 9, ino: 4343, dev: a.dev }]]);
    expect(kinds(plan([], [synced(a, 'asset-a')], { unstable: new Set(['other.txt']), pending: unrelated }))).toEqual(['DELETE old.txt']);
  });

  it('leaves busy paths alone', () => {
    const a = file('a.txt', 'A');
    const b = file('b.txt', 'B');
    expect(kinds(plan([{ ...a, md5: 'A2' }, b], [synced(a, 'asset-a')], { busy: new Set(['a.txt', 'b.txt']) }))).toEqual([]);
  });

  it('holds a deletion while the file is at a busy path, its move there waiting to be retried (simulation seed 61160)', () => {
    const a = file('A/C/Logo.png', 'A');
    // The move to D failed (its folder could not be made): D/Logo.png is busy until its retry.
    const moved = { ...a, relPath: 'D/Logo.png' };
    expect(kinds(plan([moved], [synced(a, 'asset-a')], { busy: new Set(['D/Logo.png']) }))).toEqual([]);
    // Unread, it is known by its signature alone.
    const unread: LocalEntry = { ...moved, md5: null };
    expect(kinds(plan([unread], [synced(a, 'asset-a')], { busy: new Set(['D/Logo.png']) }))).toEqual([]);
    // Another file at the busy path does not hold the deletion.
    expect(kinds(plan([{ ...moved, ino: 4444 }], [synced(a, 'asset-a')], { busy: new Set(['D/Logo.png']) }))).toEqual(['DELETE A/C/Logo.png']);
  });

  it('deletes placements whose files are gone', () => {
    const a = file('a.txt', 'A');
    const b = file('b.txt', 'B');
    expect(kinds(plan([b], [synced(a, 'asset-a'), synced(b, 'asset-b')]))).toEqual(['DELETE a.txt']);
  });

  describe('mass-delete guard', () => {
    const many = (count: number) => Array.from({ length: count }, (_, index) => file(`f${String(index).padStart(3, '0')}.txt`, `M${index}`));

    it('holds more than 50 deletions', () => {
      const files = many(300);
      const result = plan(files.slice(0, 249), files.map((entry, index) => synced(entry, `asset-${index}`)));
      expect(result.operations).toEqual([]);
      expect(result.heldDeletes).toHaveLength(51);
    });

    it('holds more than 25 % of the root once past a handful', () => {
      const files = many(20);
      const result = plan(files.slice(0, 14), files.map((entry, index) => synced(entry, `asset-${index}`)));
      expect(result.heldDeletes).toHaveLength(6);
      expect(result.operations).toEqual([]);
    });

    it('lets ordinary deletions through, and held ones once confirmed', () => {
      const small = many(3);
      expect(kinds(plan(small.slice(0, 2), small.map((entry, index) => synced(entry, `asset-${index}`))))).toEqual(['DELETE f002.txt']);
      const files = many(300);
      const confirmed = plan([], files.map((entry, index) => synced(entry, `asset-${index}`)), { deletesConfirmed: true });
      expect(confirmed.operations).toHaveLength(300);
      expect(confirmed.heldDeletes).toEqual([]);
    });

    it('still plans uploads and moves while deletions are held', () => {
      const files = many(100);
      const fresh = file('new.txt', 'N');
      const result = plan([fresh], files.map((entry, index) => synced(entry, `asset-${index}`)));
      expect(kinds(result)).toEqual(['UPLOAD_NEW new.txt']);
      expect(result.heldDeletes).toHaveLength(100);
    });
  });

  describe('files whose content was left unread', () => {
    const unread = (entry: HashedEntry): LocalEntry => ({ ...entry, md5: null });

    it('uploads a new unread file as it is, in path order with the others', () => {
      const big = unread(file('video/big.mov', 'V'));
      const small = file('a.png', 'A');
      const result = plan([big, small], []);
      expect(kinds(result)).toEqual(['UPLOAD_NEW a.png', 'UPLOAD_NEW video/big.mov']);
      expect(result.operations[1]).toEqual({ kind: 'UPLOAD_NEW', relPath: 'video/big.mov', local: big });
    });

    it('holds back an unread file whose content a decision needs, and deletes nothing on its account', () => {
      const gone = file('old/cut.mov', 'C');
      const copied = unread({ ...file('new/cut.mov', 'C'), size: gone.size }); // copied, then the original deleted
      const sameInode = unread({ ...file('renamed.mov', 'X', { ino: 77, size: 999 }) });
      const movedAway = file('other.mov', 'O', { ino: 77, size: 5 });
      const atSynced = unread(file('doc.pdf', 'D2'));
      const result = plan([copied, sameInode, atSynced], [synced(gone, 'asset-c'), synced(movedAway, 'asset-o'), synced(file('doc.pdf', 'D'), 'asset-d')]);
      expect(result.operations).toEqual([]);
      expect(result.heldDeletes).toEqual([]);
      const syncedMap = new Map([synced(gone, 'asset-c'), synced(movedAway, 'asset-o'), synced(file('doc.pdf', 'D'), 'asset-d')].map((entry) => [entry.relPath, entry]));
      expect(contentNeeded({ local: new Map([copied, sameInode, atSynced].map((entry) => [entry.relPath, entry])), synced: syncedMap })).toEqual(new Set(['new/cut.mov', 'renamed.mov', 'doc.pdf']));
    });

    it('reads an unread file with the inode of a synced file whose path holds another file now (seed 73069)', () => {
      // Folder `B` renamed `A2`, `A2/a.txt` edited, a new `B/a.txt` written: left unread, the moved file went up as new.
      const original = file('B/a.txt', 'A');
      const fresh = file('B/a.txt', 'N');
      const moved = unread({ ...original, relPath: 'A2/a.txt', size: 99 });
      const syncedMap = new Map([[original.relPath, synced(original, 'asset-a')]]);
      expect(contentNeeded({ local: new Map([fresh, moved].map((entry) => [entry.relPath, entry])), synced: syncedMap })).toEqual(new Set(['A2/a.txt']));
      // Another file with an unrelated inode is not read.
      const other = unread(file('A2/b.txt', 'O', { size: 98 }));
      expect(contentNeeded({ local: new Map([fresh, other].map((entry) => [entry.relPath, entry])), synced: syncedMap })).toEqual(new Set());
    });

    it('once read, the same files are a move, a move by inode and a new version', () => {
      const gone = file('old/cut.mov', 'C');
      const copied = { ...file('new/cut.mov', 'C'), size: gone.size };
      const movedAway = file('other.mov', 'O', { ino: 77 });
      const sameInode = { ...movedAway, relPath: 'renamed.mov' };
      const edited = file('doc.pdf', 'D2');
      const result = plan([copied, sameInode, edited], [synced(gone, 'asset-c'), synced(movedAway, 'asset-o'), synced(file('doc.pdf', 'D'), 'asset-d')]);
      expect(kinds(result)).toEqual(['MOVE other.mov -> renamed.mov', 'MOVE old/cut.mov -> new/cut.mov', 'UPLOAD_VERSION doc.pdf']);
    });

    it('never uploads an unread conflict copy or busy path, and keeps a download off an unread path', () => {
      const copy = unread(file('poster (conflict).psd', 'P'));
      const busy = unread(file('busy.mov', 'B'));
      expect(plan([copy, busy], [], { conflictCopies: new Set([copy.relPath]), busy: new Set([busy.relPath]) }).operations).toEqual([]);
    });
  });

  it('is deterministic whatever the order of its inputs', () => {
    const entries = Array.from({ length: 30 }, (_, index) => file(`d${index % 3}/f${index}.txt`, `H${index % 7}`));
    const syncedEntries = entries.slice(0, 20).map((entry, index) => synced(entry, `asset-${index}`));
    const moved = entries.map((entry, index) => (index % 4 === 0 ? { ...entry, relPath: `moved/${entry.relPath}` } : entry));
    const first = plan(moved, syncedEntries);
    const second = plan([...moved].reverse(), [...syncedEntries].reverse());
    expect(second).toEqual(first);
  });
});
