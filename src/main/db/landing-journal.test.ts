import { describe, expect, it } from 'vitest';
import { landingJournal } from './landing-journal.js';
import { openStateDb } from './open-state-db.js';

describe('the download journal (migration 0004)', () => {
  it('keeps a landing until it is finished, per root, and goes with its root', () => {
    const db = openStateDb(':memory:');
    try {
      for (const id of ['r1', 'r2']) db.prepare("INSERT INTO roots (id, path, server, remote_path, date_created) VALUES (?, ?, 'http://127.0.0.1:1', '/', 'now')").run(id, `/sync-${id}`);
      const journal = landingJournal(db);
      const landing = (relPath: string, assetId: string) => ({ local: { relPath, size: 3, mtimeMs: 1.5, ino: 7, dev: 1, md5: 'abc' }, assetId, tempPath: `/sync/.asset-sync/downloads/${assetId}.part` });
      journal.landing('r1', landing('B/b.txt', 'a2'));
      journal.landing('r1', landing('a.txt', 'a1'));
      journal.landing('r2', landing('a.txt', 'a3'));
      // Written again for the same path (a later download of it): one row, the latest.
      journal.landing('r1', landing('a.txt', 'a4'));

      expect(journal.all('r1')).toEqual([landing('B/b.txt', 'a2'), landing('a.txt', 'a4')]);
      journal.finish('r1', 'a.txt');
      expect(journal.all('r1')).toEqual([landing('B/b.txt', 'a2')]);
      db.prepare("DELETE FROM roots WHERE id = 'r1'").run();
      expect(journal.all('r1')).toEqual([]);
      expect(journal.all('r2')).toEqual([landing('a.txt', 'a3')]);
    } finally {
      db.close();
    }
  });

  it('keeps a move\'s synced row and bytes with its landing (migration 0007)', () => {
    const db = openStateDb(':memory:');
    try {
      db.prepare("INSERT INTO roots (id, path, server, remote_path, date_created) VALUES ('r', '/sync', 'http://127.0.0.1:1', '/', 'now')").run();
      const journal = landingJournal(db);
      const move = { local: { relPath: 'A/café (2).txt', size: 3, mtimeMs: 1.5, ino: 7, dev: 1, md5: 'edited' }, assetId: 'a1', tempPath: '/sync/A/c.txt', moved: { from: 'A/c.txt', md5: 'synced' } };
      journal.landing('r', move);
      expect(journal.all('r')).toEqual([move]);
    } finally {
      db.close();
    }
  });
});
