/**
 * A local folder where the service has a file of the same name (another client replaced the folder by
 * a file), run through the whole engine and the real service without faults: what seed 193 found. An
 * empty folder holds nothing to lose and gives way to the file; a folder with anything in it is never
 * removed, and the file is reported not synced instead of failing as "changed on disk" forever. A
 * folder holding only empty folders counts as empty, whether the file comes as a download (seed 30131)
 * or as a rename of a file already here (seed 33000).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { NO_FAULTS } from './faults.js';
import { closeSimService, runSeed } from './run-seed.js';
import type { Step } from './scenario.js';
import { syncs, treeOf, write } from './scenario-trace.js';

describe('a local folder where the service has a file', { timeout: 120_000 }, () => {
  afterAll(closeSimService);

  it('gives way to the file when it is empty (seed 193)', async () => {
    const scenario: Step[] = [
      ...syncs(0, 1),
      write(1, 'B/c.txt', 'written and deleted before a sync'),
      { kind: 'local-delete', client: 1, path: 'B/c.txt' },
      write(0, 'B/a.txt', 'in the folder'),
      { kind: 'folder-to-file', client: 0, dir: 'B', content: 'now a file' },
      ...syncs(0, 1, 0, 1),
    ];
    const result = await runSeed(193, { scenario, rates: NO_FAULTS });
    expect(result.failures).toEqual([]);
    expect(treeOf(result.trace, 1)).toEqual({ B: 'now a file' });
  });

  it('gives way to the file when it holds only empty folders (seed 30131)', async () => {
    const scenario: Step[] = [
      ...syncs(0, 1),
      write(1, 'B/E/F/c.txt', 'written and deleted before a sync'),
      { kind: 'local-delete', client: 1, path: 'B/E/F/c.txt' },
      write(1, 'B/G/c.txt', 'written and deleted before a sync'),
      { kind: 'local-delete', client: 1, path: 'B/G/c.txt' },
      write(0, 'B/a.txt', 'in the folder'),
      { kind: 'folder-to-file', client: 0, dir: 'B', content: 'now a file' },
      ...syncs(0, 1, 0, 1),
    ];
    const result = await runSeed(30131, { scenario, rates: NO_FAULTS });
    expect(result.failures).toEqual([]);
    expect(result.trace).not.toContainEqual(expect.stringContaining('PATH_BLOCKED'));
    expect(treeOf(result.trace, 1)).toEqual({ B: 'now a file' });
  });

  it('never removes a folder with a file in it: the file waits, reported, until the names settle', async () => {
    const scenario: Step[] = [
      ...syncs(0, 1),
      write(1, 'B/mine.txt', 'written meanwhile'),
      write(0, 'B/a.txt', 'in the folder'),
      { kind: 'folder-to-file', client: 0, dir: 'B', content: 'now a file' },
      ...syncs(0, 1, 0, 1),
    ];
    const result = await runSeed(194, { scenario, rates: NO_FAULTS });
    expect(result.failures).toEqual([]);
    expect(result.trace).toContainEqual(expect.stringContaining('[c1] warn B: PATH_BLOCKED: B is a folder with files in it'));
    // Once the folder is on the service too, the file takes a name of its own beside it.
    expect(treeOf(result.trace, 1)).toEqual({ 'B/mine.txt': 'written meanwhile', 'B (2)': 'now a file' });
  });

  it('gives way to a file the service renamed to its name when it holds only empty folders (seed 33000)', async () => {
    const scenario: Step[] = [
      { kind: 'remote-write', path: 'a.txt', content: 'renamed on the service' },
      ...syncs(0, 1),
      write(0, 'b.txt/E/x.txt', 'written and deleted before a sync'),
      { kind: 'local-delete', client: 0, path: 'b.txt/E/x.txt' },
      { kind: 'remote-rename', path: 'a.txt', name: 'b.txt' },
      ...syncs(0, 1, 0, 1),
    ];
    const result = await runSeed(33000, { scenario, rates: NO_FAULTS, names: ['exact', 'exact'] });
    expect(result.failures).toEqual([]);
    expect(treeOf(result.trace, 0)).toEqual({ 'b.txt': 'renamed on the service' });
  });

  it('never removes a folder with a file in it for a rename: the renamed file takes a name of its own', async () => {
    const scenario: Step[] = [
      { kind: 'remote-write', path: 'a.txt', content: 'renamed on the service' },
      ...syncs(0, 1),
      write(0, 'b.txt/E/x.txt', 'kept'),
      { kind: 'remote-rename', path: 'a.txt', name: 'b.txt' },
      ...syncs(0, 1, 0, 1),
    ];
    const result = await runSeed(33000, { scenario, rates: NO_FAULTS, names: ['exact', 'exact'] });
    expect(result.failures).toEqual([]);
    expect(treeOf(result.trace, 0)).toEqual({ 'b.txt/E/x.txt': 'kept', 'b (2).txt': 'renamed on the service' });
  });
});
