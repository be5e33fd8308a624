import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { CommitBatches } from './commit-batches.js';

describe('CommitBatches', () => {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (v INTEGER NOT NULL CHECK (v >= 0))');
  let commits = 0;
  const countCommits = (): void => {
    commits++;
  };
  afterEach(() => {
    db.exec('DELETE FROM t');
    commits = 0;
  });
  const insert = db.prepare<[number]>('INSERT INTO t (v) VALUES (?)');
  const rows = (): number[] => db.prepare<[], { v: number }>('SELECT v FROM t ORDER BY v').all().map(({ v }) => v);

  it('commits the writes of one turn together, and settles each only once committed', async () => {
    const batches = new CommitBatches<number>(db, (v) => {
      insert.run(v);
    });
    const settled: number[] = [];
    const writes = [1, 2, 3].map((v) => batches.commit(v).then(() => settled.push(v)));
    // Nothing runs until the turn's I/O callbacks are done.
    expect(rows()).toEqual([]);
    await Promise.all(writes);
    expect(rows()).toEqual([1, 2, 3]);
    expect(settled).toEqual([1, 2, 3]);
    // A later write is a batch of its own.
    await batches.commit(4);
    expect(rows()).toEqual([1, 2, 3, 4]);
  });

  it('lets a write that fails fail alone; the others of its batch commit', async () => {
    const batches = new CommitBatches<number>(db, (v) => {
      countCommits();
      insert.run(v);
    });
    const outcomes = await Promise.allSettled([batches.commit(5), batches.commit(-1), batches.commit(6)]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toContain('CHECK constraint failed');
    expect(rows()).toEqual([5, 6]);
    // Tried together once (two writes, then the failing one), then each alone.
    expect(commits).toBe(2 + 3);
  });
});
