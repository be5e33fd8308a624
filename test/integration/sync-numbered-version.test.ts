/**
 * A new version of a file the engine numbered apart from a namesake, against the real service on
 * loopback and real folders. Two assets `logo.png` in `A` are `A/logo.png` and `A/logo (2).png` on disk.
 * An upload item's name renames the asset (API.md §4), and the version of `logo (2).png` carried the
 * local name: the service called the asset `logo (2).png`, a number only this disk needed, and every
 * colleague saw it (simulation seed 100767). The version keeps the service's name.
 */
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/test-service.js';
import { colleague, startTwoClients } from '../support/two-way.js';

describe('a version of a file numbered apart from its namesake', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.dispose();
  });

  const pathsUnder = async (h: { assets(): Promise<{ id: string; path: string }[]> }, prefix: string): Promise<Map<string, string>> =>
    new Map((await h.assets()).filter((asset) => asset.path.startsWith(prefix)).map((asset) => [asset.id, asset.path]));

  it('keeps the name the service gave the asset', async () => {
    const { a, b, settle, dispose } = await startTwoClients(service, '/Numbered');
    try {
      const them = colleague(service, a.h.api);
      const first = await them.upload('/Numbered/A/logo.png', 'first');
      const second = await them.upload('/Numbered/A/logo.png', 'second');
      await settle();
      expect(Object.keys(a.tree()).sort()).toEqual(['A/logo (2).png', 'A/logo.png']);

      a.write('A/logo (2).png', 'edited here');
      await settle();

      const paths = await pathsUnder(a.h, '/Numbered/');
      expect(paths.get(first)).toBe('/Numbered/A/logo.png');
      expect(paths.get(second)).toBe('/Numbered/A/logo.png');
      expect(a.read('A/logo (2).png')).toBe('edited here');
      expect(b.tree()).toEqual(a.tree());
    } finally {
      await dispose();
    }
  });

  it('keeps the name the service gave the asset when its folder moved here too', async () => {
    const { a, b, settle, dispose } = await startTwoClients(service, '/NumberedMoved');
    try {
      const them = colleague(service, a.h.api);
      await them.upload('/NumberedMoved/A/logo.png', 'first');
      await them.upload('/NumberedMoved/A/logo.png', 'second');
      await settle();
      const numbered = a.tree()['A/logo (2).png'];

      renameSync(join(a.h.folder, 'A'), join(a.h.folder, 'B'));
      a.write('B/logo (2).png', `${numbered ?? ''} edited`);
      await settle();

      expect([...(await pathsUnder(a.h, '/NumberedMoved/')).values()].sort()).toEqual(['/NumberedMoved/B/logo.png', '/NumberedMoved/B/logo.png']);
      expect(b.tree()).toEqual(a.tree());
    } finally {
      await dispose();
    }
  });

  // The edit wins over the colleague's bin (DESIGN.md §3): the file goes up as a new asset. Named as
  // on this disk, it took the number for everyone (simulation seed 102721).
  it('gives a file that outlives its binned asset that asset\'s name', async () => {
    const { a, b, settle, dispose } = await startTwoClients(service, '/NumberedBinned');
    try {
      const them = colleague(service, a.h.api);
      const first = await them.upload('/NumberedBinned/A/logo.png', 'first');
      const second = await them.upload('/NumberedBinned/A/logo.png', 'second');
      await settle();
      const numbered = a.tree()['A/logo (2).png'];
      expect(['first', 'second']).toContain(numbered);
      const [binned, kept] = numbered === 'first' ? [first, 'second'] : [second, 'first'];

      await them.bin([binned]);
      a.write('A/logo (2).png', 'edited here');
      await settle();

      const live = await pathsUnder(a.h, '/NumberedBinned/');
      expect(live.has(binned)).toBe(false);
      expect([...live.values()]).toEqual(['/NumberedBinned/A/logo.png', '/NumberedBinned/A/logo.png']);
      expect(Object.values(a.tree()).sort()).toEqual(['edited here', kept]);
      expect(b.tree()).toEqual(a.tree());
    } finally {
      await dispose();
    }
  });
});
