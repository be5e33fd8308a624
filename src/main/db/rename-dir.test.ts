import { describe, expect, it } from 'vitest';
import { openStateDb } from './open-state-db.js';
import { snapshotsRepo } from './snapshots-repo.js';
import { foldersRepo } from './folders-repo.js';
import { conflictsRepo } from './conflicts-repo.js';
import { uploadJournal } from './upload-journal.js';
import { successorsRepo } from './successors-repo.js';
import { renameDirRows } from './rename-dir.js';

/**
 * Seed 70179 (`--steps 40 --case-folders --network 20 --crash 8`): on a disk that keeps case, `B` and
 * `b` were two folders, each holding a `Logo.png` of its own asset. The service renamed `B` to `D`; the
 * rows below `B` were matched with `LIKE 'B/%'`, which folds ASCII case, so `b/Logo.png`'s synced row
 * went to `D/Logo.png` over `B/Logo.png`'s. The planner then moved `B`'s file into `b` as the other
 * asset, and uploaded the file it found in the way as a third.
 */
describe('the rows below a folder, matched byte for byte', () => {
  const file = (relPath: string, ino: number) => ({ relPath, size: 3, mtimeMs: 1.5, ino, dev: 1, md5: 'abc' });
  const setUp = () => {
    const db = openStateDb(':memory:');
    db.prepare("INSERT INTO roots (id, path, server, remote_path, date_created) VALUES ('r', '/sync', 'http://127.0.0.1:1', '/', 'now')").run();
    const snapshots = snapshotsRepo(db);
    const folders = foldersRepo(db);
    const conflicts = conflictsRepo(db);
    const journal = uploadJournal(db);
    const successors = successorsRepo(db);
    for (const [dir, ino] of [['B', 1], ['b', 2]] as const) {
      snapshots.putLocal('r', file(`${dir}/Logo.png`, ino));
      snapshots.putSynced('r', { ...file(`${dir}/Logo.png`, ino), assetId: `asset-${dir}` });
      folders.remember('r', dir, `option-${dir}`);
      folders.remember('r', `${dir}/C`, `option-${dir}-C`);
      journal.begin('r', 'NEW', `${dir}/new.txt`, file(`${dir}/new.txt`, ino + 10), null, 'now');
      successors.outlives('r', `${dir}/edited.txt`, `binned-${dir}`);
      conflicts.add('r', { relPath: `${dir}/Logo.png`, copyPath: `${dir}/Logo (conflict).png`, assetId: `asset-${dir}`, local: { md5: 'l', size: 1, mtimeMs: 1 }, remote: { md5: 'r', size: 1, fileId: 'f', dateModified: 'now' }, dateCreated: 'now' });
    }
    return { db, snapshots, folders, conflicts, journal, successors };
  };

  it('renames the rows of B only, leaving b\'s where they are', () => {
    const { db, snapshots, folders, conflicts, journal, successors } = setUp();
    try {
      renameDirRows(db)('r', 'B', 'D');
      expect([...snapshots.synced('r').values()].map((entry) => `${entry.relPath}@${entry.assetId}`).sort()).toEqual(['D/Logo.png@asset-B', 'b/Logo.png@asset-b']);
      expect([...snapshots.local('r').values()].map((entry) => `${entry.relPath}#${String(entry.ino)}`).sort()).toEqual(['D/Logo.png#1', 'b/Logo.png#2']);
      expect(['D', 'D/C', 'b', 'b/C', 'B', 'B/C'].map((dir) => folders.optionOf('r', dir))).toEqual(['option-B', 'option-B-C', 'option-b', 'option-b-C', undefined, undefined]);
      expect(journal.all('r').map((entry) => entry.relPath).sort()).toEqual(['D/new.txt', 'b/new.txt']);
      expect(['D/edited.txt', 'b/edited.txt', 'B/edited.txt'].map((relPath) => successors.outlived('r').get(relPath))).toEqual(['binned-B', 'binned-b', undefined]);
      expect(conflicts.ofRoot('r').map((conflict) => `${conflict.relPath}|${conflict.copyPath}`).sort()).toEqual(['D/Logo.png|D/Logo (conflict).png', 'b/Logo.png|b/Logo (conflict).png']);
    } finally {
      db.close();
    }
  });

  it('forgets, deletes and follows below B only', () => {
    const { db, snapshots, folders, conflicts } = setUp();
    try {
      conflicts.renameDir('r', 'B', 'D');
      expect(conflicts.ofRoot('r').map((conflict) => `${conflict.relPath}|${conflict.copyPath}`).sort()).toEqual(['D/Logo.png|D/Logo (conflict).png', 'b/Logo.png|b/Logo (conflict).png']);
      folders.forget('r', 'B');
      expect(['B', 'B/C', 'b', 'b/C'].map((dir) => folders.optionOf('r', dir))).toEqual([undefined, undefined, 'option-b', 'option-b-C']);
      snapshots.deleteLocalTree('r', 'B');
      expect([...snapshots.local('r').keys()]).toEqual(['b/Logo.png']);
    } finally {
      db.close();
    }
  });
});
