import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp-dir.js';
import { openStateDb } from '../db/open-state-db.js';
import type { SyncedEntry } from '../model/file-entry.js';
import type { ActivityEntry } from '../../shared/bridge/app-events.js';
import { openStateStore, type StateStore } from './state-store.js';
import { openStateFile, readStateDir, withStateDir } from './state-dir.js';

const synced = (relPath: string, assetId: string): SyncedEntry => ({ relPath, assetId, md5: 'md5', size: 3, mtimeMs: 1.5, ino: 7, dev: 1 });

describe('the state store\'s queries and user requests', () => {
  let store: StateStore;
  beforeEach(() => {
    store = openStateStore(openStateDb(':memory:'));
    store.repos.roots.upsert({ path: '/sync', server: 'http://127.0.0.1:1', remotePath: '/', publishLive: false }, 'now');
  });
  afterEach(() => store.close());
  const rootId = (): string => store.roots()[0]?.id ?? '';

  it('answers the roots by id and path, and their status', () => {
    const id = rootId();
    expect(store.root(id)?.path).toBe('/sync');
    expect(store.rootByPath('/sync')?.id).toBe(id);
    expect(store.status()).toMatchObject([{ id, path: '/sync', state: 'NEVER_SYNCED', localFiles: 0, syncedFiles: 0 }]);
  });

  it('retries a root\'s failed paths, or one of them, now', () => {
    const id = rootId();
    const { issues } = store.repos;
    issues.failed(id, 'a.txt', 'NETWORK', 'down', 5_000);
    issues.failed(id, 'b.txt', 'NETWORK', 'down', 5_000);
    store.retryNow(id, 'a.txt');
    expect(issues.notSynced(id).map((row) => [row.rel_path, row.retry_at])).toEqual([['a.txt', null], ['b.txt', 5_000]]);
    store.retryNow(id);
    expect(issues.notSynced(id).map((row) => row.retry_at)).toEqual([null, null]);
  });

  it('confirms held deletions, or restores them by forgetting their synced rows', () => {
    const id = rootId();
    const { issues, snapshots } = store.repos;
    snapshots.putSynced(id, synced('a.txt', 'a1'));
    snapshots.putSynced(id, synced('b.txt', 'a2'));
    issues.holdDeletes(id, [{ relPath: 'a.txt', assetId: 'a1' }]);
    expect(store.heldDeletes(id).map((row) => row.rel_path)).toEqual(['a.txt']);
    expect(store.confirmDeletes(id)).toBe(1);
    expect(store.heldDeletes(id)[0]?.confirmed).toBe(1);
    store.restoreHeldDeletions(id);
    expect(store.heldDeletes(id)).toEqual([]);
    expect([...store.synced(id).keys()]).toEqual(['b.txt']);
  });

  it('relinks a root to a new path or lets it run again, and forgets a root with its state', () => {
    const id = rootId();
    store.repos.roots.setStopped(id, 'MISSING_MARKER');
    const row = store.root(id);
    if (row === undefined) throw new Error('no root');
    store.relinkRoot(row, '/sync');
    expect(store.root(id)).toMatchObject({ path: '/sync', stopped: null });
    store.repos.roots.setStopped(id, 'MISSING_ROOT');
    store.relinkRoot(row, '/moved');
    expect(store.root(id)).toMatchObject({ path: '/moved', stopped: null });
    store.repos.snapshots.putSynced(id, synced('a.txt', 'a1'));
    store.forgetRoot(id);
    expect(store.roots()).toEqual([]);
    expect(store.synced(id).size).toBe(0);
  });

  it('hands conflict resolution its conflicts, snapshots and roots', () => {
    const id = rootId();
    const conflictId = store.resolution.conflicts.add(id, {
      relPath: 'a.txt',
      copyPath: 'a (conflict).txt',
      assetId: 'a1',
      local: { md5: 'mine', size: 1, mtimeMs: 1 },
      remote: { md5: 'theirs', size: 2, fileId: 'f1', dateModified: 'then' },
      dateCreated: 'now',
    });
    expect(store.conflicts().map((conflict) => conflict.id)).toEqual([conflictId]);
    expect(store.resolution.root(id)?.path).toBe('/sync');
  });

  it('changes its state version with every write', () => {
    const before = store.stateVersion();
    expect(store.stateVersion()).toBe(before);
    store.retryNow(rootId());
    store.repos.issues.failed(rootId(), 'a.txt', 'NETWORK', 'down', null);
    expect(store.stateVersion()).not.toBe(before);
  });

  it('keeps the app\'s activity: by id, the newest only, and without waking a resting root', () => {
    const entry = (id: number, overrides: Partial<ActivityEntry> = {}): ActivityEntry => ({
      id, folderId: rootId(), relPath: `${id}.png`, kind: 'upload', status: 'done', from: null, bytesDone: 3, bytesTotal: 3, at: 'now', error: null, ...overrides,
    });
    const version = store.stateVersion();
    store.keepActivity([entry(1, { status: 'running', bytesDone: 0 }), entry(2, { kind: 'trash', bytesDone: 0, bytesTotal: null })], 3);
    // The plan reads nothing of it: a root resting on this version goes on resting.
    expect(store.stateVersion()).toBe(version);
    store.keepActivity([entry(1), entry(3, { kind: 'move', from: '0.png' }), entry(4, { status: 'failed', error: { name: 'ApiError', code: 'SERVICE_UNREACHABLE', message: 'down' } })], 3);
    expect(store.recentActivity(10)).toEqual([
      entry(4, { status: 'failed', error: { name: 'ApiError', code: 'SERVICE_UNREACHABLE', message: 'down' } }),
      entry(3, { kind: 'move', from: '0.png' }),
      entry(2, { kind: 'trash', bytesDone: 0, bytesTotal: null }),
    ]);
    expect(store.recentActivity(1).map((row) => row.id)).toEqual([4]);
    // A batch is one transaction: all of it is kept, or none.
    expect(() => store.keepActivity([entry(5), { ...entry(6), relPath: null as unknown as string }], 3)).toThrow(/NOT NULL/);
    expect(store.recentActivity(10).map((row) => row.id)).toEqual([4, 3, 2]);
  });
});

describe('a state directory\'s store', () => {
  it('answers nothing where no state is, and opens the state an engine left', async () => {
    const stateDir = join(tempDir('asset-sync-store-'), 'state');
    expect(readStateDir(stateDir, (store) => store.roots())).toBeUndefined();
    expect(await withStateDir(stateDir, (store) => Promise.resolve(store.roots()))).toBeUndefined();
    const engineStore = openStateStore(openStateFile(stateDir));
    engineStore.repos.roots.upsert({ path: '/sync', server: 'http://127.0.0.1:1', remotePath: '/', publishLive: false }, 'now');
    engineStore.close();
    expect(readStateDir(stateDir, (store) => store.roots().map((row) => row.path))).toEqual(['/sync']);
    expect(await withStateDir(stateDir, (store) => Promise.resolve(store.status().length))).toBe(1);
  });
});
