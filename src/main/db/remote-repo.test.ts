import { describe, expect, it } from 'vitest';
import { openStateDb } from './open-state-db.js';
import { remoteRepo, type RemoteAssetRow, type RemoteFolderRow } from './remote-repo.js';

const asset = (assetId: string, md5 = 'aaa'): RemoteAssetRow => ({ assetId, fileId: `f-${assetId}`, filename: `${assetId}.txt`, md5, size: 3, dateModified: '2026-01-01T00:00:00.000Z', dateAdded: '', folders: ['o1'] });
const folder = (optionId: string, relDir: string): RemoteFolderRow => ({ optionId, parentId: null, value: relDir, relDir });

describe('the remote snapshot (migration 0002)', () => {
  it('replaces the assets and folders of a root writing only what differs, and nothing when a listing found what was stored', () => {
    const db = openStateDb(':memory:');
    try {
      for (const id of ['r1', 'r2']) db.prepare("INSERT INTO roots (id, path, server, remote_path, date_created) VALUES (?, ?, 'http://127.0.0.1:1', '/', 'now')").run(id, `/sync-${id}`);
      const repo = remoteRepo(db);
      const changes = (): number => (db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
      repo.replaceAssets('r1', [asset('a'), asset('b'), asset('c')]);
      repo.replaceAssets('r2', [asset('a')]);
      repo.replaceFolders('r1', [folder('o1', 'A'), folder('o2', 'B')]);

      const before = changes();
      repo.replaceAssets('r1', [asset('c'), asset('a'), asset('b')]);
      repo.replaceFolders('r1', [folder('o2', 'B'), folder('o1', 'A')]);
      expect(changes()).toBe(before);

      // One asset gone, one changed, one new; one folder renamed, one gone, one new: five rows and three rows.
      repo.replaceAssets('r1', [asset('a'), asset('b', 'bbb'), asset('d')]);
      repo.replaceFolders('r1', [folder('o1', 'A2'), folder('o3', 'C')]);
      expect(changes()).toBe(before + 6);
      expect(repo.assets('r1').sort((x, y) => x.assetId.localeCompare(y.assetId))).toEqual([asset('a'), asset('b', 'bbb'), asset('d')]);
      expect(repo.folders('r1')).toEqual([folder('o1', 'A2'), folder('o3', 'C')]);
      // Another root's rows are its own.
      expect(repo.assets('r2')).toEqual([asset('a')]);
    } finally {
      db.close();
    }
  });
});
