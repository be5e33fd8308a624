import { describe, expect, it } from 'vitest';
import { openStateDb } from './open-state-db.js';
import { foldersRepo } from './folders-repo.js';

/**
 * Seed 80824 (`--steps 30 --disk 15 --case-folders --names case-insensitive`): a client made the option
 * `B`, and another client renamed it `b` before this one had listed it. The walk then met the option
 * as a new folder `b`, and the cache kept `B` → the option beside `b` → the option. A new `B/café.txt`
 * went up filed, in the journal, under the option now named `b`, while the job's path `/B/café.txt`
 * made a new option `B` on the service: its answer lost, the asset was looked for in `b`, and the
 * job's empty asset stayed live in the new `B`.
 */
describe('the folder cache', () => {
  const setUp = () => {
    const db = openStateDb(':memory:');
    db.prepare("INSERT INTO roots (id, path, server, remote_path, date_created) VALUES ('r', '/sync', 'http://127.0.0.1:1', '/', 'now')").run();
    return foldersRepo(db);
  };

  it('knows an option at one directory: remembered at another, the old one and all below it are forgotten', () => {
    const folders = setUp();
    folders.remember('r', 'B', 'option-B');
    folders.remember('r', 'B/C', 'option-C');
    folders.remember('r', 'Bx', 'option-Bx');
    folders.remember('r', 'b', 'option-B');
    expect(folders.optionOf('r', 'b')).toBe('option-B');
    expect(folders.optionOf('r', 'B')).toBeUndefined();
    expect(folders.optionOf('r', 'B/C')).toBeUndefined();
    expect(folders.optionOf('r', 'Bx')).toBe('option-Bx');
    expect(folders.dirOf('r', 'option-B')).toBe('b');
  });

  it('keeps the top level and the other directories of a root as they were', () => {
    const folders = setUp();
    folders.remember('r', '', null);
    folders.remember('r', 'A', 'option-A');
    folders.remember('r', 'A', 'option-A');
    folders.remember('r', 'D', 'option-D');
    expect(folders.optionOf('r', '')).toBeNull();
    expect(folders.optionOf('r', 'A')).toBe('option-A');
    expect(folders.optionOf('r', 'D')).toBe('option-D');
  });
});
