import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import type { Db } from './open-database.js';
import { WriteBatches } from './write-batches.js';
import { tempDir } from '../../../test/support/temp-dir.js';

describe('WriteBatches', () => {
  let file: string;
  let db: Db;
  /** Transactions begun at the top level (savepoints inside one do not count). */
  let transactions: number;
  let writes: WriteBatches;
  const rows = (): string[] => db.prepare<[], { name: string }>('SELECT name FROM t ORDER BY rowid').all().map((row) => row.name);
  const insert = (name: string) => (): string => {
    db.prepare('INSERT INTO t (name) VALUES (?)').run(name);
    return name;
  };

  beforeEach(() => {
    file = join(tempDir('write-batches-'), 'test.db');
    db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (name TEXT NOT NULL UNIQUE)');
    transactions = 0;
    const counting = new Proxy(db, {
      get(target, property) {
        if (property !== 'transaction') return Reflect.get(target, property) as unknown;
        return (fn: () => unknown) => {
          const run = target.transaction(fn);
          return () => {
            if (!target.inTransaction) transactions++;
            return run();
          };
        };
      },
    });
    writes = new WriteBatches(counting);
  });
  afterEach(() => {
    db.close();
  });

  it('commits the writes asked for in one turn together, and each gets its own answer', async () => {
    const answers = await Promise.all([writes.run(insert('a')), writes.run(insert('b')), writes.run(insert('c'))]);
    expect(answers).toEqual(['a', 'b', 'c']);
    expect(transactions).toBe(1);
    expect(rows()).toEqual(['a', 'b', 'c']);
  });

  it('commits writes asked for in different turns separately', async () => {
    await writes.run(insert('a'));
    await writes.run(insert('b'));
    expect(transactions).toBe(2);
    expect(rows()).toEqual(['a', 'b']);
  });

  it('rolls back a write that throws, alone', async () => {
    db.prepare("INSERT INTO t (name) VALUES ('taken')").run();
    const failing = (): never => {
      insert('half-done')();
      insert('taken')();
      throw new Error('not reached');
    };
    const outcomes = await Promise.allSettled([writes.run(insert('a')), writes.run(failing), writes.run(insert('b'))]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(outcomes[1]).toMatchObject({ reason: { code: 'SQLITE_CONSTRAINT_UNIQUE' } });
    expect(rows()).toEqual(['taken', 'a', 'b']);

    await expect(writes.run(failing)).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_UNIQUE' });
    expect(rows()).toEqual(['taken', 'a', 'b']);
  });

  it('settles a write only once it is committed: another connection already sees it', async () => {
    const other = new Database(file, { readonly: true });
    try {
      const seen = await writes.run(insert('a')).then(() => other.prepare<[], { n: number }>('SELECT count(*) AS n FROM t').get()?.n);
      expect(seen).toBe(1);
    } finally {
      other.close();
    }
  });

  it('rejects every write of a batch whose commit fails', async () => {
    const pending = [writes.run(insert('a')), writes.run(insert('b'))];
    // The connection is gone by the time the batch runs: nothing can commit.
    db.close();
    const outcomes = await Promise.allSettled(pending);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    db = new Database(file);
    expect(rows()).toEqual([]);
  });
});
