import { describe, expect, it } from 'vitest';
import { CommitFaults } from './db-faults.js';
import { Faults, NO_FAULTS, SimCrash } from './faults.js';
import { Prng } from './prng.js';
import { acquireStateDb } from './state-dbs.js';

const rootRow = (id: string): [string, string, string, string, string] => [id, `/home/user/${id}`, 'http://sim.invalid', '/', '2026-01-01T00:00:00.000Z'];
const INSERT_ROOT = 'INSERT INTO roots (id, path, server, remote_path, date_created) VALUES (?, ?, ?, ?, ?)';

function client(): { faults: Faults; commits: CommitFaults } {
  const faults = new Faults(new Prng(1), NO_FAULTS, () => undefined);
  return { faults, commits: new CommitFaults(new Prng(2), faults, 0, () => undefined) };
}

describe('the clients\' state databases', () => {
  it('outlive an engine: closed, the connection keeps what was committed and its prepared statements', () => {
    const { commits } = client();
    const state = acquireStateDb(commits);
    state.db.prepare(INSERT_ROOT).run(...rootRow('r1'));
    state.db.close();
    expect(state.db.open).toBe(true);
    expect(state.db.prepare('SELECT id FROM roots').all()).toEqual([{ id: 'r1' }]);
    expect(state.db.prepare('SELECT id FROM roots')).toBe(state.db.prepare('SELECT id FROM roots'));
    state.release();
  });

  it('refuse every write once the engine is dead, so a restart finds what was committed before the crash', () => {
    const { faults, commits } = client();
    const state = acquireStateDb(commits);
    state.db.prepare(INSERT_ROOT).run(...rootRow('r1'));
    faults.crashed = true;
    expect(() => state.db.prepare(INSERT_ROOT).run(...rootRow('r2'))).toThrow(SimCrash);
    expect(() => state.db.transaction(() => state.db.prepare('DELETE FROM roots').run())()).toThrow(SimCrash);
    faults.crashed = false;
    expect(state.db.prepare('SELECT id FROM roots').all()).toEqual([{ id: 'r1' }]);
    state.release();
  });

  it('come back empty, as migrated, for a client of a later seed, and hear only that client', () => {
    const first = client();
    const state = acquireStateDb(first.commits);
    state.db.prepare(INSERT_ROOT).run(...rootRow('r1'));
    state.db.prepare("INSERT INTO local_files (root_id, rel_path, size, mtime_ms, ino, dev, md5) VALUES ('r1', 'a.txt', 1, 0, 1, 1, 'x')").run();
    const version = state.db.pragma('user_version', { simple: true });
    state.release();
    // The first client is dead now; the connection no longer answers to it.
    first.faults.crashed = true;
    const second = client();
    const again = acquireStateDb(second.commits);
    expect(again.db.prepare('SELECT count(*) AS n FROM roots').get()).toEqual({ n: 0 });
    expect(again.db.prepare('SELECT count(*) AS n FROM local_files').get()).toEqual({ n: 0 });
    expect(again.db.pragma('user_version', { simple: true })).toBe(version);
    again.db.prepare(INSERT_ROOT).run(...rootRow('r1'));
    again.release();
  });
});
