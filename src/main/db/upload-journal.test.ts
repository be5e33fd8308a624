import { describe, expect, it } from 'vitest';
import { openStateDb } from './open-state-db.js';
import { renameDirRows } from './rename-dir.js';
import { snapshotsRepo } from './snapshots-repo.js';
import { uploadJournal } from './upload-journal.js';

describe('the upload journal: entries the snapshots no longer back', () => {
  it('answers the new files with no local file at their path as spelled, or another asset synced there, and no other', () => {
    const db = openStateDb(':memory:');
    try {
      for (const id of ['r1', 'r2']) db.prepare("INSERT INTO roots (id, path, server, remote_path, date_created) VALUES (?, ?, 'http://127.0.0.1:1', '/', 'now')").run(id, `/sync-${id}`);
      const journal = uploadJournal(db);
      const snapshots = snapshotsRepo(db);
      const file = (relPath: string) => ({ relPath, size: 3, mtimeMs: 1.5, ino: 7, dev: 1, md5: null });
      const begin = (rootId: string, relPath: string, kind: 'NEW' | 'VERSION', assetId: string | null, onDisk: boolean): void => {
        journal.begin(rootId, kind, relPath, file(relPath), assetId, 'now');
        if (onDisk) snapshots.putLocal(rootId, file(relPath));
      };
      begin('r1', 'waiting.txt', 'NEW', null, true);
      begin('r1', 'own.txt', 'NEW', 'a-own', true);
      snapshots.putSynced('r1', { ...file('own.txt'), md5: 'abc', assetId: 'a-own' });
      begin('r1', 'deleted.txt', 'NEW', 'a-deleted', false);
      // Renamed in case only: the snapshot holds `Logo.png`, the journal `logo.png`.
      begin('r1', 'logo.png', 'NEW', null, false);
      snapshots.putLocal('r1', file('Logo.png'));
      begin('r1', 'taken.txt', 'NEW', null, true);
      snapshots.putSynced('r1', { ...file('taken.txt'), md5: 'abc', assetId: 'a-theirs' });
      begin('r1', 'edited.txt', 'VERSION', 'a-edited', false);
      begin('r2', 'elsewhere.txt', 'NEW', null, false);

      const unbacked = journal.unbacked('r1').map(({ entry, holder }) => ({ relPath: entry.relPath, assetId: entry.assetId, holder }));
      expect(unbacked.sort((a, b) => (a.relPath < b.relPath ? -1 : 1))).toEqual([
        { relPath: 'deleted.txt', assetId: 'a-deleted', holder: undefined },
        { relPath: 'logo.png', assetId: null, holder: undefined },
        { relPath: 'taken.txt', assetId: null, holder: 'a-theirs' },
      ]);
      expect(journal.unbacked('r2').map(({ entry }) => entry.relPath)).toEqual(['elsewhere.txt']);
    } finally {
      db.close();
    }
  });
});

describe("the upload journal: a new file's job folder", () => {
  it('keeps the option the job filed the asset under through the job, the upload and a folder rename', () => {
    const db = openStateDb(':memory:');
    try {
      db.prepare("INSERT INTO roots (id, path, server, remote_path, date_created) VALUES ('r1', '/sync-r1', 'http://127.0.0.1:1', '/', 'now')").run();
      const journal = uploadJournal(db);
      journal.begin('r1', 'NEW', 'f0', { relPath: 'A/C/logo.png', size: 3, mtimeMs: 1.5, ino: 7, dev: 1, md5: null }, null, 'now', 'option-c');
      journal.begin('r1', 'NEW', 'f1', { relPath: 'top.txt', size: 3, mtimeMs: 1.5, ino: 8, dev: 1, md5: null }, null, 'now');
      journal.jobCreated('r1', ['A/C/logo.png'], 'job-1');
      journal.uploadCreated('r1', 'A/C/logo.png', 'asset-1', 'upload-1', 5);
      renameDirRows(db)('r1', 'A/C', 'A/D');
      expect(journal.get('r1', 'A/D/logo.png')).toMatchObject({ jobId: 'job-1', assetId: 'asset-1', folderOption: 'option-c' });
      expect(journal.get('r1', 'top.txt')?.folderOption).toBeNull();
    } finally {
      db.close();
    }
  });
});
