import { existsSync, readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp-dir.js';
import { openStateDb } from '../db/open-state-db.js';
import { stateOwnerRepo } from '../db/state-owner-repo.js';
import { openStateStore, type StateStore } from './state-store.js';
import { openStateFile, stateFile } from './state-dir.js';
import { accountsDir, type StateOwner } from './state-owner.js';

const alice: StateOwner = { service: 'https://one.example', userId: 'u-alice', server: 'https://one.example' };
const bob: StateOwner = { service: 'https://one.example', userId: 'u-bob', server: 'https://one.example' };
const elsewhere: StateOwner = { service: 'https://two.example', userId: 'u-alice', server: 'https://two.example' };
const local: StateOwner = { service: 'local', userId: 'admin', server: 'http://127.0.0.1:4780' };

const open = (stateDir: string, owner?: StateOwner): StateStore => openStateStore(openStateFile(stateDir, owner));

/** A state with one folder that has synced one file and holds one deletion. */
function seeded(stateDir: string, owner: StateOwner | undefined, server = owner?.server ?? 'https://one.example'): string {
  const store = open(stateDir, owner);
  const row = store.repos.roots.upsert({ path: '/home/d/Asset Sync', server, remotePath: '/Brand', publishLive: true }, 'then');
  store.repos.snapshots.putSynced(row.id, { relPath: 'logo.png', assetId: 'asset-1', md5: 'm', size: 3, mtimeMs: 1, ino: 1, dev: 1 });
  store.repos.issues.holdDeletes(row.id, [{ relPath: 'logo.png', assetId: 'asset-1' }]);
  store.close();
  return row.id;
}

describe('sync state belongs to one service and user', () => {
  it('gives another account a fresh state with the same folders, and the first one its own state back', () => {
    const stateDir = tempDir();
    const rootId = seeded(stateDir, alice);

    const second = open(stateDir, elsewhere);
    expect(second.roots()).toMatchObject([{ id: rootId, path: '/home/d/Asset Sync', remote_path: '/Brand', publish_live: 1, server: 'https://two.example', stopped: null }]);
    expect(second.synced(rootId).size).toBe(0);
    expect(second.heldDeletes(rootId)).toEqual([]);
    second.repos.roots.upsert({ path: '/home/d/Design', server: elsewhere.server, remotePath: '/Design', publishLive: false }, 'now');
    second.close();

    const first = open(stateDir, alice);
    expect(first.roots().map((row) => row.path)).toEqual(['/home/d/Asset Sync']);
    expect([...first.synced(rootId).keys()]).toEqual(['logo.png']);
    expect(first.heldDeletes(rootId).map((row) => row.rel_path)).toEqual(['logo.png']);
    first.close();

    expect(open(stateDir, elsewhere).roots().map((row) => row.path)).toEqual(['/home/d/Asset Sync', '/home/d/Design']);
  });

  it('keeps users of one server apart, and a user not known yet (offline) gets the state there as it is', () => {
    const stateDir = tempDir();
    const rootId = seeded(stateDir, alice);
    const other = open(stateDir, bob);
    expect(other.synced(rootId).size).toBe(0);
    other.close();
    const offline = open(stateDir, { ...alice, userId: null });
    expect(offline.synced(rootId).size).toBe(0);
    offline.close();
    const back = open(stateDir, alice);
    expect(back.synced(rootId).size).toBe(1);
    back.close();
  });

  it('knows the local library by name, whatever port it answers at', () => {
    const stateDir = tempDir();
    const rootId = seeded(stateDir, local);
    const moved = open(stateDir, { ...local, server: 'http://127.0.0.1:5999' });
    expect(moved.synced(rootId).size).toBe(1);
    expect(moved.roots()[0]?.server).toBe('http://127.0.0.1:4780');
    moved.close();
  });

  it('lets the first account claim a state from before owners were kept when its folders point at that server', () => {
    const stateDir = tempDir();
    const rootId = seeded(stateDir, undefined, 'https://one.example');
    const claimed = open(stateDir, alice);
    expect(claimed.synced(rootId).size).toBe(1);
    claimed.close();

    const otherDir = tempDir();
    const otherRoot = seeded(otherDir, undefined, 'https://two.example');
    const fresh = open(otherDir, alice);
    expect(fresh.synced(otherRoot).size).toBe(0);
    fresh.close();
    const owner = openStateDb(join(accountsDir(otherDir), readdirSync(accountsDir(otherDir))[0] ?? ''));
    expect(stateOwnerRepo(owner).get()).toEqual({ service: 'https://two.example', server: 'https://two.example', user_id: null });
    owner.close();
    const returning = open(otherDir, elsewhere);
    expect(returning.synced(otherRoot).size).toBe(1);
    returning.close();
  });

  it('finishes a switch that stopped between its two renames', () => {
    const stateDir = tempDir();
    const rootId = seeded(stateDir, alice);
    open(stateDir, elsewhere).close();
    // Stopped after setting aside the state being left, before bringing in the other.
    renameSync(stateFile(stateDir), join(accountsDir(stateDir), 'midway.db'));
    expect(existsSync(stateFile(stateDir))).toBe(false);
    const resumed = open(stateDir, alice);
    expect(resumed.synced(rootId).size).toBe(1);
    resumed.close();
    const other = open(stateDir, elsewhere);
    expect(other.roots().length).toBe(1);
    other.close();
  });
});
