import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStateDb } from '../db/open-state-db.js';
import type { HashedEntry, SyncedEntry } from '../model/file-entry.js';
import type { Landing } from '../model/landing.js';
import { openStateStore, type StateStore } from './state-store.js';

const file = (relPath: string, md5 = 'md5-a', ino = 7): HashedEntry => ({ relPath, size: 3, mtimeMs: 1.5, ino, dev: 1, md5 });
const synced = (relPath: string, assetId: string, md5 = 'md5-a', ino = 7): SyncedEntry => ({ ...file(relPath, md5, ino), assetId });
const conflict = (relPath: string, assetId: string) => ({
  relPath,
  copyPath: `${relPath} (conflict)`,
  assetId,
  local: { md5: 'mine', size: 1, mtimeMs: 1 },
  remote: { md5: 'theirs', size: 2, fileId: 'f1', dateModified: '2026-01-01T00:00:00.000Z' },
  dateCreated: '2026-01-01T00:00:00.000Z',
});

describe('the state store\'s sync records', () => {
  let store: StateStore;
  beforeEach(() => {
    const db = openStateDb(':memory:');
    db.prepare("INSERT INTO roots (id, path, server, remote_path, date_created) VALUES ('r', '/sync', 'http://127.0.0.1:1', '/', 'now')").run();
    store = openStateStore(db);
  });
  afterEach(() => store.close());

  it('records downloads that landed: local and synced rows, the report cleared, the landing finished', async () => {
    const { repos, records } = store;
    await records.landingWritten('r', { local: file('a.txt'), assetId: 'a1', tempPath: '/sync/.asset-sync/a1.part' });
    repos.issues.failed('r', 'a.txt', 'NETWORK', 'down', null);
    records.downloadsLanded('r', [{ local: file('a.txt'), assetId: 'a1' }]);
    expect(repos.snapshots.localEntry('r', 'a.txt')).toEqual(file('a.txt'));
    expect(repos.snapshots.syncedEntry('r', 'a.txt')).toEqual(synced('a.txt', 'a1'));
    expect(repos.issues.notSynced('r')).toEqual([]);
    expect(repos.landings.all('r')).toEqual([]);
  });

  it('records a recovered landing as its batch would have, keeping a scanner\'s report and clearing any other', () => {
    const { repos, records } = store;
    const plain: Landing = { local: file('b.txt', 'md5-b'), assetId: 'a2', tempPath: '/sync/.asset-sync/a2.part' };
    const unreadable: Landing = { local: file('c.txt', 'md5-c', 8), assetId: 'a3', tempPath: '/sync/.asset-sync/a3.part' };
    for (const landing of [plain, unreadable]) repos.landings.landing('r', landing);
    repos.snapshots.putLocal('r', { ...plain.local, md5: null });
    repos.issues.failed('r', 'b.txt', 'NETWORK', 'down', null);
    repos.issues.failed('r', 'c.txt', 'UNREADABLE', 'EACCES', null);
    records.landingsRecovered('r', [plain, unreadable]);
    expect(repos.snapshots.syncedEntry('r', 'b.txt')).toEqual(synced('b.txt', 'a2', 'md5-b'));
    // The unread local row takes the landed file's MD5.
    expect(repos.snapshots.localEntry('r', 'b.txt')?.md5).toBe('md5-b');
    expect(repos.issues.notSynced('r').map((row) => [row.rel_path, row.reason])).toEqual([['c.txt', 'UNREADABLE']]);
    expect(repos.landings.all('r')).toEqual([]);
  });

  it('moves the synced row of a recovered move, with its conflict, unless another asset holds the old path', () => {
    const { repos, records } = store;
    repos.snapshots.putSynced('r', synced('A/c.txt', 'a1', 'synced'));
    repos.snapshots.putSynced('r', synced('B/d.txt', 'other', 'x', 9));
    repos.conflicts.add('r', conflict('A/c.txt', 'a1'));
    const moved: Landing = { local: file('A/c (2).txt', 'edited'), assetId: 'a1', tempPath: '/sync/A/c.txt', moved: { from: 'A/c.txt', md5: 'synced' } };
    const overOther: Landing = { local: file('B/e.txt', 'y', 10), assetId: 'a4', tempPath: '/sync/B/d.txt', moved: { from: 'B/d.txt', md5: 'y' } };
    records.landingsRecovered('r', [moved, overOther]);
    const rows = store.synced('r');
    expect(rows.get('A/c.txt')).toBeUndefined();
    // A move's record keeps the synced bytes' MD5.
    expect(rows.get('A/c (2).txt')).toEqual({ ...file('A/c (2).txt'), md5: 'synced', assetId: 'a1' });
    expect(store.conflicts().map((row) => row.relPath)).toEqual(['A/c (2).txt']);
    expect(rows.get('B/d.txt')?.assetId).toBe('other');
    expect(rows.get('B/e.txt')?.assetId).toBe('a4');
  });

  it('records the engine\'s local moves, removals and conflict copies', () => {
    const { repos, records } = store;
    repos.snapshots.putLocal('r', file('a.txt'));
    repos.snapshots.putSynced('r', synced('a.txt', 'a1'));
    repos.landings.landing('r', { local: file('b.txt'), assetId: 'a1', tempPath: '/sync/a.txt', moved: { from: 'a.txt', md5: 'md5-a' } });
    records.localMoved('r', 'a.txt', file('b.txt'), 'a.txt', synced('b.txt', 'a1'));
    expect(repos.snapshots.localPaths('r')).toEqual(['b.txt']);
    expect([...store.synced('r').keys()]).toEqual(['b.txt']);
    expect(repos.landings.all('r')).toEqual([]);

    records.conflictCopied('r', 'b.txt', file('b (conflict).txt'));
    expect(repos.snapshots.localPaths('r')).toEqual(['b (conflict).txt']);
    expect([...store.synced('r').keys()]).toEqual(['b.txt']);

    repos.snapshots.putLocal('r', file('b.txt'));
    records.localRemoved('r', 'b.txt');
    expect(repos.snapshots.localPaths('r')).toEqual(['b (conflict).txt']);
    expect(store.synced('r').size).toBe(0);
  });

  it('records a placement\'s move with the move written ahead of it', () => {
    const { repos, records } = store;
    repos.snapshots.putSynced('r', synced('a.txt', 'a1'));
    records.movingAhead('r', { from: 'a.txt', assetId: 'a1', local: file('B/a.txt'), restore: true }, synced('a.txt', 'a1', 'restored'));
    expect(store.synced('r').get('a.txt')?.md5).toBe('restored');
    expect(repos.movesAhead.all('r')).toEqual([{ from: 'a.txt', assetId: 'a1', local: file('B/a.txt'), restore: true }]);
    records.placementMoved('r', 'a.txt', synced('B/a.txt', 'a1'));
    expect([...store.synced('r').keys()]).toEqual(['B/a.txt']);
    expect(repos.movesAhead.all('r')).toEqual([]);
  });

  it('commits the uploads that finish in one turn together: synced row, unread MD5, journal and report', async () => {
    const { repos, records } = store;
    for (const relPath of ['a.txt', 'b.txt']) {
      repos.snapshots.putLocal('r', { ...file(relPath), md5: null });
      repos.journal.begin('r', 'NEW', 'f0', { ...file(relPath), md5: null }, null, 'now');
      repos.issues.failed('r', relPath, 'NETWORK', 'down', null);
    }
    await Promise.all([records.uploadCommitted('r', synced('a.txt', 'a1')), records.uploadCommitted('r', synced('b.txt', 'a2'))]);
    expect([...store.synced('r').keys()].sort()).toEqual(['a.txt', 'b.txt']);
    expect(repos.snapshots.localEntry('r', 'a.txt')?.md5).toBe('md5-a');
    expect(repos.journal.all('r')).toEqual([]);
    expect(repos.issues.notSynced('r')).toEqual([]);
  });

  it('records all of an executor\'s writes run atomically, or none', () => {
    const { repos, records } = store;
    expect(() =>
      records.atomically(() => {
        repos.snapshots.putSynced('r', synced('a.txt', 'a1'));
        throw new Error('the work failed halfway');
      }),
    ).toThrow('halfway');
    expect(store.synced('r').size).toBe(0);
  });

  it('remaps a root: `leave` forgets what it held in the service and keeps the disk\'s rows; `move` keeps them all', () => {
    const { repos, records } = store;
    const fill = (): void => {
      repos.snapshots.putLocal('r', file('a.txt'));
      repos.snapshots.putSynced('r', synced('a.txt', 'a1'));
      repos.folders.remember('r', '', 'opt-root');
      repos.issues.holdDeletes('r', [{ relPath: 'a.txt', assetId: 'a1' }]);
      repos.conflicts.add('r', conflict('a.txt', 'a1'));
    };
    fill();
    records.rootRemapped('r', '/Moved', 'move');
    expect(repos.roots.byId('r')?.remote_path).toBe('/Moved');
    expect([repos.snapshots.syncedEntry('r', 'a.txt'), repos.folders.optionOf('r', ''), repos.issues.heldDeletes('r').length, repos.conflicts.ofRoot('r').length]).toEqual([synced('a.txt', 'a1'), 'opt-root', 1, 1]);

    records.rootRemapped('r', '/Fresh', 'leave');
    expect(repos.roots.byId('r')?.remote_path).toBe('/Fresh');
    // Nothing synced is left, so the next pass uploads what is on disk and deletes nothing.
    expect([repos.snapshots.syncedEntry('r', 'a.txt'), repos.folders.optionOf('r', ''), repos.issues.heldDeletes('r').length, repos.conflicts.ofRoot('r').length]).toEqual([undefined, undefined, 0, 0]);
    expect(repos.snapshots.localEntry('r', 'a.txt')).toEqual(file('a.txt'));
  });
});
