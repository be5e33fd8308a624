/**
 * A conflict copy the user moves (DESIGN.md §3 "both changed"; simulation seed 3): moved without a new
 * name (its folder renamed), it is still our side of the conflict, listed at its new path and not
 * uploaded; renamed, it is the user's file and syncs like any other, its conflict resolved as "both".
 */
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli-runner.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { startTwoClients, type Client } from '../support/two-way.js';

describe('a conflict copy the user moves', () => {
  let service: TestService;
  let a: Client;
  let b: Client;
  let dispose: () => Promise<void>;
  const conflicts = async (): Promise<{ relPath: string; copyPath: string }[]> => JSON.parse((await cli(['conflicts', '--state', b.h.stateDir, '--json'])).out).conflicts;

  beforeAll(async () => {
    service = await startTestService();
    let settle: () => Promise<void>;
    ({ a, b, settle, dispose } = await startTwoClients(service, '/MovedCopies'));
    for (const name of ['kept', 'renamed']) a.write(`Docs/${name}.txt`, `${name}: base`);
    await settle();
    for (const name of ['kept', 'renamed']) {
      a.write(`Docs/${name}.txt`, `${name}: A's edit`);
      b.write(`Docs/${name}.txt`, `${name}: B's edit`);
    }
    await a.once();
    await b.once();
  });
  afterAll(async () => {
    await dispose();
    await service.dispose();
  });

  it('keeps a copy moved with its folder waiting, and lets a renamed copy sync as a file of its own', async () => {
    const before = await conflicts();
    expect(before.map((conflict) => conflict.relPath).sort()).toEqual(['Docs/kept.txt', 'Docs/renamed.txt']);
    const keptCopy = before.find((conflict) => conflict.relPath === 'Docs/kept.txt')?.copyPath ?? '';
    const renamedCopy = before.find((conflict) => conflict.relPath === 'Docs/renamed.txt')?.copyPath ?? '';
    renameSync(join(b.h.folder, renamedCopy), join(b.h.folder, 'Docs/renamed, mine.txt'));
    renameSync(join(b.h.folder, 'Docs'), join(b.h.folder, 'Archive'));

    await b.once();
    await a.once();
    const movedCopy = keptCopy.replace(/^Docs\//, 'Archive/');
    // The original moved with the folder, and the conflict names it there (issue 19, fourth round).
    expect(await conflicts()).toEqual([expect.objectContaining({ relPath: 'Archive/kept.txt', copyPath: movedCopy })]);
    expect(b.read(movedCopy)).toBe("kept: B's edit");
    // Nothing named as a conflict copy on the service, on the other client neither; the renamed copy is there.
    expect((await b.h.assets()).filter((asset) => asset.path.startsWith('/MovedCopies/')).map((asset) => asset.path).sort()).toEqual([
      '/MovedCopies/Archive/kept.txt',
      '/MovedCopies/Archive/renamed, mine.txt',
      '/MovedCopies/Archive/renamed.txt',
    ]);
    expect(a.tree()).toEqual({ 'Archive/kept.txt': "kept: A's edit", 'Archive/renamed, mine.txt': "renamed: B's edit", 'Archive/renamed.txt': "renamed: A's edit" });
    // More passes change nothing: the copy stays where the user put it, local.
    expect((await b.once()).reports.every((report) => report.operations === 0)).toBe(true);
    expect(b.exists(movedCopy)).toBe(true);
  });
});
