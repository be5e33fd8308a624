import { describe, expect, it } from 'vitest';
import { moveJournal } from './move-journal.js';
import { openStateDb } from './open-state-db.js';

describe('the moves written ahead (migration 0009)', () => {
  it('keeps a move until it is finished, per root, one per synced row, and goes with its root', () => {
    const db = openStateDb(':memory:');
    try {
      for (const id of ['r1', 'r2']) db.prepare("INSERT INTO roots (id, path, server, remote_path, date_created) VALUES (?, ?, 'http://127.0.0.1:1', '/', 'now')").run(id, `/sync-${id}`);
      const journal = moveJournal(db);
      const move = (from: string, to: string, assetId: string, restore = true) => ({ from, assetId, local: { relPath: to, size: 5, mtimeMs: 1.5, ino: 9, dev: 2, md5: 'mine' }, restore });
      journal.ahead('r1', move('A/b.txt', 'A/C/logo.png', 'a1'));
      journal.ahead('r1', move('A/a.txt', 'E/a.txt', 'a2', false));
      journal.ahead('r2', move('A/b.txt', 'D/b.txt', 'a3'));
      // Written again for the same row (a later attempt, elsewhere): one entry, the latest.
      journal.ahead('r1', move('A/b.txt', 'A/D/logo.png', 'a1'));

      expect(journal.all('r1')).toEqual([move('A/a.txt', 'E/a.txt', 'a2', false), move('A/b.txt', 'A/D/logo.png', 'a1')]);
      journal.finish('r1', 'A/a.txt');
      expect(journal.all('r1')).toEqual([move('A/b.txt', 'A/D/logo.png', 'a1')]);
      db.prepare("DELETE FROM roots WHERE id = 'r1'").run();
      expect(journal.all('r1')).toEqual([]);
      expect(journal.all('r2')).toEqual([move('A/b.txt', 'D/b.txt', 'a3')]);
    } finally {
      db.close();
    }
  });
});
