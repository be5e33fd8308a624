/**
 * Crashes inside the engine's state-database commits. TEMP triggers on the engine's connection call
 * back into the harness on every row written to the tables an executor step journals in (the upload
 * journal, the synced snapshot, conflicts, folder mappings, local files, held deletions). There the
 * seed draws, from a stream of its own (so the draws of the other faults stay as they were):
 * - crash before commit: the write throws, SQLite rolls the whole transaction back (better-sqlite3's
 *   `transaction` does on a throw; a single statement undoes itself), and the process is dead;
 * - crash after commit: the transaction goes through and the process dies at its next step (the next
 *   file system or service call), or at the end of the sync if there is none.
 * Once dead, every write to any table of the state database throws, so what a restarted engine finds
 * on disk is exactly what was committed before the crash: no image needs taking.
 */
import type { StateDb } from '../src/main/db/open-state-db.js';
import { SimCrash, type Faults } from './faults.js';
import type { Prng } from './prng.js';

/** Tables whose rows an executor step commits (a draw per row written there). */
const JOURNALLED: ReadonlySet<string> = new Set(['uploads', 'synced', 'conflicts', 'folders', 'local_files', 'held_deletes']);
const CHANGES = ['INSERT', 'UPDATE', 'DELETE'] as const;

export class CommitFaults {
  constructor(
    private readonly random: Prng,
    private readonly faults: Faults,
    /** Chance of a crash per journalled row written (half before its commit, half after). */
    private readonly rate: number,
    private readonly trace: (line: string) => void,
  ) {}

  /** A row written to `table` (by `change`): where a crash may be drawn (or, once dead, the write refused). */
  point(table: string, change: string): void {
    // A dead process writes nothing more.
    if (this.faults.crashed) throw new SimCrash(`crashed earlier; ${change} ${table}`);
    if (!this.faults.active || !JOURNALLED.has(table) || this.faults.pendingDeath !== undefined || !this.random.chance(this.rate)) return;
    if (this.random.chance(0.5)) {
      this.faults.crashed = true;
      this.trace(`CRASH before the commit of a ${change} on ${table} (rolled back)`);
      throw new SimCrash(`crash before the commit of ${change} ${table}`);
    }
    this.faults.pendingDeath = `after the commit of a ${change} on ${table}`;
  }
}

/**
 * TEMP triggers on every table of the connection that call `point` for each row written, in one
 * transaction (a schema change commits once instead of once per trigger). A connection is armed once:
 * a trigger lives as long as its connection.
 */
export function armCommitPoints(db: StateDb, point: (table: string, change: string) => void): void {
  db.function('sim_commit_point', { deterministic: false }, (table: unknown, change: unknown) => {
    point(String(table), String(change));
    return null;
  });
  const tables = db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all();
  const triggers = tables.flatMap(({ name }) =>
    CHANGES.map((change) => `CREATE TEMP TRIGGER "sim_${name}_${change}" AFTER ${change} ON main."${name}" BEGIN SELECT sim_commit_point('${name}', '${change}'); END;`),
  );
  db.transaction(() => db.exec(triggers.join('\n')))();
}
