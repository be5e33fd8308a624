import { describe, expect, it } from 'vitest';
import { issuesRepo } from './issues-repo.js';
import { openStateDb, type StateDb } from './open-state-db.js';

/** A state database with root r1. */
function withRoot(): { db: StateDb } {
  const db = openStateDb(':memory:');
  db.prepare("INSERT INTO roots (id, path, server, remote_path, date_created) VALUES ('r1', '/sync', 'http://127.0.0.1:1', '/', 'now')").run();
  return { db };
}

describe('the not-synced reports', () => {
  it('looks up and clears only paths that may have a report, and a clear rolled back leaves the report clearable', () => {
    const { db } = withRoot();
    try {
      const issues = issuesRepo(db);
      issues.failed('r1', 'a.txt', 'UNREADABLE', 'EACCES', null);
      const changes = (): number => (db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
      const before = changes();
      issues.cleared('r1', 'never-failed.txt');
      expect(issues.notSyncedEntry('r1', 'never-failed.txt')).toBeUndefined();
      expect(changes()).toBe(before);

      // Cleared inside a transaction that then fails: the row comes back, and the next clear still runs.
      expect(() =>
        db.transaction(() => {
          issues.cleared('r1', 'a.txt');
          throw new Error('rolled back');
        })(),
      ).toThrow('rolled back');
      expect(issues.notSyncedEntry('r1', 'a.txt')?.reason).toBe('UNREADABLE');
      issues.cleared('r1', 'a.txt');
      expect(issues.notSynced('r1')).toEqual([]);

      // A report cleared by reason inside a transaction rolled back is still known.
      issues.failed('r1', 'b.txt', 'SYMLINK', 'a link', null);
      const fresh = issuesRepo(db);
      expect(() =>
        db.transaction(() => {
          fresh.clearedReason('r1', 'SYMLINK');
          throw new Error('rolled back');
        })(),
      ).toThrow('rolled back');
      expect(fresh.notSyncedEntry('r1', 'b.txt')?.reason).toBe('SYMLINK');
      fresh.cleared('r1', 'b.txt');
      expect(fresh.notSynced('r1')).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('sees a report another connection wrote once it lists the root again', () => {
    const { db } = withRoot();
    try {
      const issues = issuesRepo(db);
      expect(issues.notSynced('r1')).toEqual([]);
      // Another writer (a second repo stands in for another process's store).
      issuesRepo(db).failed('r1', 'c.txt', 'UNREADABLE', 'EACCES', null);
      issues.notSynced('r1');
      issues.cleared('r1', 'c.txt');
      expect(issues.notSynced('r1')).toEqual([]);
    } finally {
      db.close();
    }
  });
});
