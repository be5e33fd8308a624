/**
 * Concurrent edits of one file (DESIGN.md §3 "both changed"): the service's version takes the name, ours
 * stays beside it as `name (conflict YYYY-MM-DD HHMMSS).ext`, is not uploaded, and one conflict is
 * listed (`asset-sync conflicts`, `status`). Each resolution through the CLI: mine (a new version of the
 * asset, no copy left), theirs (the copy to the trash), both (the copy becomes an asset of its own).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli-runner.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { assetAt, startTwoClients, total, type Client } from '../support/two-way.js';

const COPY = /^(.*) \(conflict \d{4}-\d\d-\d\d \d{6}\)(\.txt)$/;

describe('conflicts', () => {
  let service: TestService;
  let a: Client;
  let b: Client;
  let settle: () => Promise<void>;
  let dispose: () => Promise<void>;
  const conflicts = async (): Promise<{ id: number; relPath: string; copyPath: string; local: { md5: string }; remote: { md5: string } }[]> =>
    JSON.parse((await cli(['conflicts', '--state', b.h.stateDir, '--json'])).out).conflicts;

  beforeAll(async () => {
    service = await startTestService();
    ({ a, b, settle, dispose } = await startTwoClients(service, '/Conflicts'));
    for (const name of ['mine', 'theirs', 'both']) a.write(`Docs/${name}.txt`, `${name}: base`);
    await settle();
    // Both edit all three; A syncs first, so B finds each file changed on both sides.
    for (const name of ['mine', 'theirs', 'both']) {
      a.write(`Docs/${name}.txt`, `${name}: A's edit`);
      b.write(`Docs/${name}.txt`, `${name}: B's edit`);
    }
    await a.once();
  });
  afterAll(async () => {
    await dispose();
    await service.dispose();
  });

  it('keeps both versions, lists one conflict per file, and uploads neither copy', async () => {
    const result = await b.once();
    expect(total(result, 'conflicts')).toBe(3);
    expect(result.converged).toBe(false);
    const files = b.tree();
    for (const name of ['mine', 'theirs', 'both']) {
      expect(files[`Docs/${name}.txt`]).toBe(`${name}: A's edit`);
      const copies = Object.keys(files).filter((path) => COPY.exec(path)?.[1] === `Docs/${name}`);
      expect(copies).toHaveLength(1);
      expect(files[copies[0] ?? '']).toBe(`${name}: B's edit`);
    }
    const listed = await conflicts();
    expect(listed.map((conflict) => conflict.relPath).sort()).toEqual(['Docs/both.txt', 'Docs/mine.txt', 'Docs/theirs.txt']);
    const status = JSON.parse((await cli(['status', '--state', b.h.stateDir, '--json'])).out).roots[0];
    expect(status.state).toBe('NEEDS_ATTENTION');
    expect(status.conflicts).toHaveLength(3);
    // The copies stay local: nothing named "conflict" on the service, and more passes change nothing.
    expect((await b.once()).reports.every((report) => report.operations === 0)).toBe(true);
    expect((await b.h.assets()).some((asset) => asset.path.includes('conflict'))).toBe(false);
  });

  it('mine: uploads our copy as a new version of the same asset and leaves no copy', async () => {
    const conflict = (await conflicts()).find((entry) => entry.relPath === 'Docs/mine.txt');
    const id = await assetAt(b.h, '/Conflicts/Docs/mine.txt');
    const resolved = await cli(['resolve', String(conflict?.id), '--keep', 'mine', '--state', b.h.stateDir], { XDG_DATA_HOME: join(b.h.trashDir, '..') });
    expect(resolved.code, resolved.err).toBe(0);
    await b.once();
    expect(b.read('Docs/mine.txt')).toBe("mine: B's edit");
    expect(existsSync(join(b.h.folder, conflict?.copyPath ?? ''))).toBe(false);
    expect(await assetAt(b.h, '/Conflicts/Docs/mine.txt')).toBe(id);
    const versions = await b.h.api.listAssetFiles(id);
    expect(versions).toHaveLength(3);
    await a.once();
    expect(a.read('Docs/mine.txt')).toBe("mine: B's edit");
  });

  it('theirs: sends our copy to the trash and keeps the service version', async () => {
    const conflict = (await conflicts()).find((entry) => entry.relPath === 'Docs/theirs.txt');
    const copyName = conflict?.copyPath.slice('Docs/'.length) ?? '';
    // The CLI trashes into $XDG_DATA_HOME/Trash: here the harness's trash, never the user's.
    const resolved = await cli(['resolve', String(conflict?.id), '--keep', 'theirs', '--state', b.h.stateDir], { XDG_DATA_HOME: join(b.h.trashDir, '..') });
    expect(resolved.code, resolved.err).toBe(0);
    expect(existsSync(join(b.h.folder, conflict?.copyPath ?? ''))).toBe(false);
    expect(readFileSync(join(b.h.trashDir, 'files', copyName), 'utf8')).toBe("theirs: B's edit");
    await b.once();
    expect(b.read('Docs/theirs.txt')).toBe("theirs: A's edit");
    expect((await b.h.assets()).some((asset) => asset.path.includes('theirs (conflict'))).toBe(false);
  });

  it('both: the copy becomes an asset of its own beside the original and syncs like any file', async () => {
    const conflict = (await conflicts()).find((entry) => entry.relPath === 'Docs/both.txt');
    expect((await cli(['resolve', String(conflict?.id), '--keep', 'both', '--state', b.h.stateDir], { XDG_DATA_HOME: join(b.h.trashDir, '..') })).code).toBe(0);
    await settle();
    const copy = conflict?.copyPath ?? '';
    expect(a.read(copy)).toBe("both: B's edit");
    expect(a.read('Docs/both.txt')).toBe("both: A's edit");
    expect(await assetAt(a.h, `/Conflicts/${copy}`)).not.toBe(await assetAt(a.h, '/Conflicts/Docs/both.txt'));
    expect(await conflicts()).toEqual([]);
    expect(b.tree()).toEqual(a.tree());
    expect(readFileSync(join(b.h.folder, copy), 'utf8')).toBe("both: B's edit");
  });
});
