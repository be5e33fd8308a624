import { describe, expect, it } from 'vitest';
import { openStateDb } from '../db/open-state-db.js';
import { snapshotsRepo } from '../db/snapshots-repo.js';
import { MemoryFileSystem, memoryLocalDisk } from '../local/index.js';
import { executeRemoteChanges, type RemoteChangeOp } from './execute-remote-changes.js';
import { LocalChangeExecutor } from './local-change-executor.js';

/**
 * Seed 70547 (`--steps 60`): the service renamed folder `A/C` to `D` while the client's own rename had
 * already moved the files, so the plan forgot each file at `A/C/…` and adopted it at `D/…`. A crash at
 * the adoption's commit, after the forgetting's own had gone through, left `D/café (2).txt` synced
 * nowhere: the next pass uploaded it as a second asset of the same bytes.
 */
describe('the service\'s changes: adoptions and forgettings', () => {
  it('records them all or none, so a crash between them never leaves a file synced nowhere', async () => {
    const db = openStateDb(':memory:');
    try {
      db.prepare("INSERT INTO roots (id, path, server, remote_path, date_created) VALUES ('r', '/sync', 'http://127.0.0.1:1', '/', 'now')").run();
      const snapshots = snapshotsRepo(db);
      const file = { size: 12, mtimeMs: 1.5, ino: 14, dev: 1, md5: 'c0ffee' };
      snapshots.putSynced('r', { ...file, relPath: 'A/C/café (2).txt', assetId: 'asset-2' });
      const disk = new MemoryFileSystem();
      const local = new LocalChangeExecutor({
        fs: disk,
        disk: memoryLocalDisk(disk),
        trash: async () => {},
        nowIso: () => 'now',
        moved: () => {},
        removed: () => {},
        addConflict: () => 0,
        dropConflict: () => {},
        copied: () => {},
        // The process dies as the adoption is written.
        putSynced: () => {
          throw new Error('crashed at the commit');
        },
        deleteSynced: (rootId, relPath) => snapshots.deleteSynced(rootId, relPath),
        outlives: () => {},
        atomically: (work) => db.transaction(work)(),
        landed: () => {},
        landings: { landing: () => {}, finish: () => {} },
      });
      const ops: RemoteChangeOp[] = [
        { kind: 'FORGET', relPath: 'A/C/café (2).txt', assetId: 'asset-2' },
        { kind: 'ADOPT', relPath: 'D/café (2).txt', assetId: 'asset-2', local: { ...file, relPath: 'D/café (2).txt' }, md5: 'c0ffee' },
      ];
      const failed: string[] = [];
      const counters = await executeRemoteChanges({ id: 'r', path: '/sync', remotePath: '/', publishLive: false }, ops, { local, downloads: { download: async () => [] }, failed: (relPath) => failed.push(relPath), cleared: () => {} });
      expect(counters.failed).toBe(2);
      expect(failed).toEqual(['A/C/café (2).txt', 'D/café (2).txt']);
      // Still synced where it was: the next pass plans the same adoption again.
      expect([...snapshots.synced('r').values()].map((entry) => `${entry.relPath}@${entry.assetId}`)).toEqual(['A/C/café (2).txt@asset-2']);
    } finally {
      db.close();
    }
  });
});
