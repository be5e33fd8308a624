import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from './open-database.js';
import { statementCache } from './statement-cache.js';

describe('statementCache', () => {
  let db: Db;

  beforeEach(() => {
    db = new Database(':memory:');
    db.exec('CREATE TABLE t (n INTEGER)');
    db.exec('INSERT INTO t (n) VALUES (1), (2), (3)');
  });
  afterEach(() => db.close());

  it('prepares a text once and runs it with any parameters', () => {
    const prepare = statementCache<{ n: number }>(db);
    const first = prepare('SELECT n FROM t WHERE n > ? ORDER BY n');
    expect(prepare('SELECT n FROM t WHERE n > ? ORDER BY n')).toBe(first);
    expect(first.all(1).map((row) => row.n)).toEqual([2, 3]);
    expect(first.all(2).map((row) => row.n)).toEqual([3]);
  });

  it('forgets the least recently used text beyond its size', () => {
    const prepare = statementCache<{ n: number }>(db, 2);
    const one = prepare('SELECT 1 AS n');
    const two = prepare('SELECT 2 AS n');
    expect(prepare('SELECT 1 AS n')).toBe(one);
    prepare('SELECT 3 AS n');
    // "SELECT 2" was used least recently: prepared anew; "SELECT 1" was kept.
    expect(prepare('SELECT 1 AS n')).toBe(one);
    expect(prepare('SELECT 2 AS n')).not.toBe(two);
  });
});
