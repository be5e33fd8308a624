import { describe, expect, it } from 'vitest';
import { openStateDb } from '../db/open-state-db.js';
import { snapshotsRepo } from '../db/snapshots-repo.js';
import { folderRows, pathRows } from './scan-rows.js';

const file = (relPath: string, md5: string | null = 'm') => ({ relPath, size: 1, mtimeMs: 1, ino: 1, dev: 1, md5 });

/** Root r with local rows at `local` and synced rows at `synced`. */
function snapshotsWith(local: string[], synced: string[]) {
  const db = openStateDb(':memory:');
  db.prepare("INSERT INTO roots (id, path, server, remote_path, date_created) VALUES ('r', '/sync', 'http://127.0.0.1:1', '/', 'now')").run();
  const snapshots = snapshotsRepo(db);
  for (const relPath of local) snapshots.putLocal('r', file(relPath));
  for (const relPath of synced) snapshots.putSynced('r', { ...file(relPath), md5: 'm', assetId: 'x' });
  return { db, snapshots };
}

describe('the rows a scan asks about, read many at a time', () => {
  it('answers as a lookup per path would, a folder or a list at a time', () => {
    const local = ['top.txt', 'A/a.txt', 'A/b.txt', 'A/B/c.txt'];
    const { db, snapshots } = snapshotsWith(local, ['A/a.txt', 'A/B/c.txt']);
    try {
      const asked = ['top.txt', 'A/a.txt', 'A/b.txt', 'A/B/c.txt', 'A/new.txt', 'new.txt', 'C/new.txt'];
      for (const rows of [folderRows(snapshots, 'r'), pathRows(snapshots, 'r', ['A/a.txt', 'new.txt'])]) {
        for (const relPath of asked) {
          // A folder's row also says whether it is synced; the entry's fields are a lookup's.
          const expected = snapshots.localEntry('r', relPath);
          expect(rows.previous(relPath), relPath).toEqual(expected === undefined ? undefined : expect.objectContaining(expected));
          expect(rows.hasSynced(relPath), relPath).toBe(snapshots.syncedEntry('r', relPath) !== undefined);
        }
      }
    } finally {
      db.close();
    }
  });

  it('reads each folder once while the walk is in it, and again only after it was let go', () => {
    const local = Array.from({ length: 40 }, (_, index) => `F${index}/a.txt`);
    const { db, snapshots } = snapshotsWith(local, ['F3/a.txt', 'F5/gone.txt']);
    try {
      const reads: string[] = [];
      const syncedReads: string[] = [];
      const counted = {
        ...snapshots,
        folderRowsIn: (rootId: string, relDir: string) => (reads.push(relDir), snapshots.folderRowsIn(rootId, relDir)),
        syncedIn: (rootId: string, relDir: string) => (syncedReads.push(relDir), snapshots.syncedIn(rootId, relDir)),
      };
      const rows = folderRows(counted, 'r');
      for (const relPath of local) {
        rows.previous(relPath);
        rows.previous(relPath.replace('a.txt', 'b.txt'));
      }
      // One statement a folder for its rows; an unchanged file never asks whether it is synced, so the
      // synced table is not read.
      expect(reads).toEqual(local.map((relPath) => relPath.split('/')[0]));
      expect(syncedReads).toEqual([]);
      // A file that asks has the folder's synced paths read, once.
      expect(rows.hasSynced('F39/a.txt')).toBe(false);
      expect(rows.hasSynced('F39/new.txt')).toBe(false);
      expect(rows.hasSynced('F39/other.txt')).toBe(false);
      expect(syncedReads).toEqual(['F39']);
      // F0 was let go (more folders than are kept): held, it is not known; asked again, it is read again, still right.
      expect(rows.held('F0/a.txt')).toBeUndefined();
      expect(reads).toHaveLength(40);
      expect(rows.previous('F0/a.txt')).toMatchObject(file('F0/a.txt'));
      expect(rows.held('F0/a.txt')).toMatchObject(file('F0/a.txt'));
      expect(reads).toHaveLength(41);
      expect(rows.hasSynced('F3/a.txt')).toBe(true);
      expect(rows.hasSynced('F5/gone.txt')).toBe(true);
    } finally {
      db.close();
    }
  });

  it("names the rows a full scan did not see: in the folders it reported in, and all of those it reported nothing in", () => {
    const local = ['top.txt', 'keep.txt', 'A/a.txt', 'A/b.txt', 'A/B/c.txt', 'Gone/x.txt', 'Gone/Deeper/y.txt', 'Empty/z.txt'];
    const { db, snapshots } = snapshotsWith(local, []);
    try {
      const rows = folderRows(snapshots, 'r');
      // As the walk reports them: a file is looked up before it is reported, a folder or a report is not.
      for (const relPath of ['keep.txt', 'A/a.txt', 'A/B/c.txt', 'A/new.txt']) {
        rows.previous(relPath);
        rows.seen(relPath);
      }
      for (const relPath of ['A/B', 'Empty', 'Gone/Deeper/y.txt']) rows.seen(relPath);
      expect(rows.unseen().sort()).toEqual(['A/b.txt', 'Empty/z.txt', 'Gone/x.txt', 'top.txt']);
    } finally {
      db.close();
    }
  });

  it('reads no path one by one when every row is in a folder the scan reported in', () => {
    const local = ['A/a.txt', 'B/b.txt'];
    const { db, snapshots } = snapshotsWith(local, []);
    try {
      let iterated = 0;
      const counted = {
        ...snapshots,
        eachLocalPath: (rootId: string) => {
          iterated++;
          return snapshots.eachLocalPath(rootId);
        },
      };
      const rows = folderRows(counted, 'r');
      for (const relPath of ['A/a.txt', 'B/other.txt']) {
        rows.previous(relPath);
        rows.seen(relPath);
      }
      expect(rows.unseen()).toEqual(['B/b.txt']);
      expect(iterated).toBe(0);
    } finally {
      db.close();
    }
  });
});
