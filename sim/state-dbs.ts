/**
 * The clients' state databases: in-memory SQLite connections that outlive the engines using them, the
 * way a state.db file outlives its process. A crashed engine's connection refuses every write from the
 * crash on (db-faults.ts), so what the restarted engine finds is what was committed before the crash,
 * on the same connection: no image is taken and none opened again. Its statements are kept by SQL, so a
 * restarted engine prepares none again (a statement is a compiled query and holds no state of the
 * engine that prepared it; the engine uses none in a mode or mid-iteration). At a seed's end the
 * connection is emptied and waits for a client of the next seed: opening, migrating, arming the
 * commit triggers and preparing a client's hundred statements cost about 6 ms, four times a seed.
 */
import type Database from 'better-sqlite3';
import { openStateDb, type StateDb } from '../src/main/db/open-state-db.js';
import { armCommitPoints, type CommitFaults } from './db-faults.js';

export interface SimStateDb {
  /** What the engine is given: the connection, whose `close` leaves it open (a crash closes nothing on disk). */
  readonly db: StateDb;
  /** At the seed's end: the connection is emptied and waits for a client of a later seed. */
  release(): void;
}

interface Pooled {
  db: StateDb;
  /** Hears each row written (db-faults.ts), for the client that holds the connection now. */
  commits: CommitFaults | undefined;
  empty: () => void;
}

const idle: Pooled[] = [];

/** A connection holding an empty, migrated state database whose writes pass through `commits`. */
export function acquireStateDb(commits: CommitFaults): SimStateDb {
  const pooled = idle.pop() ?? openPooled();
  pooled.commits = commits;
  let released = false;
  return {
    db: pooled.db,
    release: () => {
      if (released) return;
      released = true;
      // Emptying writes rows: no client hears them.
      pooled.commits = undefined;
      pooled.empty();
      idle.push(pooled);
    },
  };
}

function openPooled(): Pooled {
  const connection = openStateDb(':memory:');
  const statements = new Map<string, Database.Statement>();
  const db = new Proxy(connection, {
    get(target, property) {
      if (property === 'prepare') {
        return (sql: string): Database.Statement => {
          const known = statements.get(sql);
          if (known !== undefined) return known;
          const statement = target.prepare(sql);
          statements.set(sql, statement);
          return statement;
        };
      }
      if (property === 'close') return () => target;
      const value: unknown = Reflect.get(target, property, target);
      // better-sqlite3's methods only work on the connection itself, not on this stand-in.
      return typeof value === 'function' ? (...args: unknown[]): unknown => Reflect.apply(value, target, args) : value;
    },
  });
  const pooled: Pooled = { db, commits: undefined, empty: () => undefined };
  armCommitPoints(connection, (table, change) => pooled.commits?.point(table, change));
  const deletes = connection
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND (name NOT LIKE 'sqlite_%' OR name = 'sqlite_sequence') ORDER BY name")
    .all()
    .map((row) => connection.prepare(`DELETE FROM "${row.name.replaceAll('"', '""')}"`));
  pooled.empty = connection.transaction(() => {
    // Foreign keys are checked at the commit, when every table is empty.
    connection.pragma('defer_foreign_keys = ON');
    for (const statement of deletes) statement.run();
  });
  return pooled;
}
