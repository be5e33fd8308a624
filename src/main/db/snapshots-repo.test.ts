import { describe, expect, it } from 'vitest';
import { openStateDb } from './open-state-db.js';
import { snapshotsRepo } from './snapshots-repo.js';

const file = (relPath: string) => ({ relPath, size: 1, mtimeMs: 1, ino: 1, dev: 1, md5: null });

describe('the local and synced snapshots, read many rows at a time', () => {
  it("answers a folder's own rows, a list of paths' rows and the rows below folders, as one row at a time would", () => {
    const db = openStateDb(':memory:');
    try {
      for (const id of ['r1', 'r2']) db.prepare("INSERT INTO roots (id, path, server, remote_path, date_created) VALUES (?, ?, 'http://127.0.0.1:1', '/', 'now')").run(id, `/sync-${id}`);
      const repo = snapshotsRepo(db);
      // Astral names sort after every BMP one in SQLite's byte order, and count one character there, two in JS.
      const paths = ['top.txt', '🎨.txt', 'A/a.txt', 'A/🎨.txt', 'A/B/b.txt', 'A!/x.txt', 'A0/y.txt', '🎨/z.txt', '🎨/deeper/w.txt'];
      for (const relPath of paths) repo.putLocal('r1', file(relPath));
      repo.putLocal('r2', file('A/other-root.txt'));
      for (const relPath of ['top.txt', 'A/a.txt', '🎨/z.txt']) repo.putSynced('r1', { ...file(relPath), assetId: 'x', md5: 'm' });
      const ownOf = (relDir: string): string[] => paths.filter((relPath) => (relDir === '' ? !relPath.includes('/') : relPath.startsWith(`${relDir}/`) && !relPath.slice(relDir.length + 1).includes('/')));

      for (const relDir of ['', 'A', 'A/B', '🎨', 'A!', 'none']) {
        expect(repo.localIn('r1', relDir).map((entry) => entry.relPath).sort(), relDir).toEqual(ownOf(relDir).sort());
      }
      for (const relDir of ['', 'A', 'A/B', '🎨', 'A!', 'none']) {
        const rows = repo.folderRowsIn('r1', relDir);
        expect(rows.map((row) => row.relPath).sort(), relDir).toEqual(ownOf(relDir).sort());
        for (const row of rows) expect(row, row.relPath).toEqual(repo.localEntry('r1', row.relPath));
      }
      // A folder's own synced paths, with a local row or without (its local row gone).
      repo.putSynced('r1', { ...file('A/gone.txt'), assetId: 'y', md5: 'm' });
      expect(repo.syncedIn('r1', 'A').sort()).toEqual(['A/a.txt', 'A/gone.txt']);
      repo.deleteSynced('r1', 'A/gone.txt');
      expect(repo.syncedIn('r1', '').sort()).toEqual(['top.txt']);
      expect(repo.syncedIn('r1', 'A')).toEqual(['A/a.txt']);
      expect(repo.syncedIn('r1', '🎨')).toEqual(['🎨/z.txt']);

      expect(repo.localAmong('r1', ['A/a.txt', 'gone.txt', '🎨.txt'])).toEqual([file('A/a.txt'), file('🎨.txt')]);
      expect(repo.localAmong('r1', [])).toEqual([]);
      expect(repo.syncedAmong('r1', ['A/a.txt', 'A/🎨.txt', 'top.txt']).sort()).toEqual(['A/a.txt', 'top.txt']);

      expect(repo.localBelowAny('r1', ['A', '🎨']).sort()).toEqual(['A/B/b.txt', 'A/a.txt', 'A/🎨.txt', '🎨/deeper/w.txt', '🎨/z.txt'].sort());
      expect(repo.localBelowAny('r1', ['top.txt'])).toEqual([]);
      expect(repo.localBelowAny('r1', [])).toEqual([]);
    } finally {
      db.close();
    }
  });
});
