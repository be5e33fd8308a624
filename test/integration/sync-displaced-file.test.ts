/**
 * A synced file moved away with a new file made at its old path (a folder renamed `B` → `A2`, then a
 * new `B/a.txt` written), against the real service on loopback and real folders: the asset follows its
 * file (same inode) to `A2/a.txt`, edits and all, and the new file is a new asset at `B/a.txt`. Read by
 * path, the new file went to the asset as an edit and the moved one up as a second asset (simulation
 * seeds 73031 and 73069); the new file waits for the pass after the move, so its upload never meets the
 * asset still at its name. Another synced file moved onto the path the first one left (`A/C` renamed
 * `D`, then `B/b.txt` renamed `A/C/Logo.png`) is a move too, in the pass after the first one's: read as
 * a deletion, its asset was binned and the file went up again as a second asset (seed 86001).
 */
import { appendFileSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/test-service.js';
import { assetAt, colleague, startTwoClients } from '../support/two-way.js';

describe('a synced file moved away with a new file at its old path', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('moved and edited, the service unchanged: the asset follows the file, the new file is new', async () => {
    const { a, b, settle, dispose } = await startTwoClients(service, '/Displaced');
    try {
      a.write('B/a.txt', 'the original');
      a.write('B/keep.txt', 'kept');
      await settle();
      const asset = await assetAt(a.h, '/Displaced/B/a.txt');

      renameSync(join(a.h.folder, 'B'), join(a.h.folder, 'A2'));
      appendFileSync(join(a.h.folder, 'A2/a.txt'), ', edited');
      a.write('B/a.txt', 'a new file');
      await settle();

      expect(await assetAt(a.h, '/Displaced/A2/a.txt')).toBe(asset);
      expect((await a.h.assets()).map((entry) => entry.path).filter((path) => path.startsWith('/Displaced/')).sort()).toEqual(['/Displaced/A2/a.txt', '/Displaced/A2/keep.txt', '/Displaced/B/a.txt']);
      expect(b.tree()).toEqual({ 'A2/a.txt': 'the original, edited', 'A2/keep.txt': 'kept', 'B/a.txt': 'a new file' });
    } finally {
      await dispose();
    }
  });

  it('moved while a colleague moved its asset elsewhere: the colleague\'s place wins, the new file is new', async () => {
    const { a, b, settle, dispose } = await startTwoClients(service, '/DisplacedMoved');
    try {
      a.write('B/a.txt', 'the original');
      await settle();
      const asset = await assetAt(a.h, '/DisplacedMoved/B/a.txt');

      renameSync(join(a.h.folder, 'B'), join(a.h.folder, 'A2'));
      appendFileSync(join(a.h.folder, 'A2/a.txt'), ', edited');
      a.write('B/a.txt', 'a new file');
      await colleague(service, a.h.api).move(asset, '/DisplacedMoved/D');
      await settle();

      expect(await assetAt(a.h, '/DisplacedMoved/D/a.txt')).toBe(asset);
      expect((await a.h.assets()).map((entry) => entry.path).filter((path) => path.startsWith('/DisplacedMoved/')).sort()).toEqual(['/DisplacedMoved/B/a.txt', '/DisplacedMoved/D/a.txt']);
      expect(a.tree()).toEqual({ 'B/a.txt': 'a new file', 'D/a.txt': 'the original, edited' });
      expect(b.tree()).toEqual(a.tree());
    } finally {
      await dispose();
    }
  });

  it('another synced file moved onto the path it left: each asset follows its file, no second asset (seed 86001)', async () => {
    const { a, b, settle, dispose } = await startTwoClients(service, '/DisplacedChain');
    try {
      a.write('A/C/Logo.png', 'the logo');
      a.write('B/b.txt', 'bee');
      await settle();
      const logo = await assetAt(a.h, '/DisplacedChain/A/C/Logo.png');
      const bee = await assetAt(a.h, '/DisplacedChain/B/b.txt');

      renameSync(join(a.h.folder, 'A/C'), join(a.h.folder, 'D'));
      mkdirSync(join(a.h.folder, 'A/C'));
      renameSync(join(a.h.folder, 'B/b.txt'), join(a.h.folder, 'A/C/Logo.png'));
      await settle();

      expect(await assetAt(a.h, '/DisplacedChain/D/Logo.png')).toBe(logo);
      expect(await assetAt(a.h, '/DisplacedChain/A/C/Logo.png')).toBe(bee);
      expect((await a.h.assets()).map((entry) => entry.path).filter((path) => path.startsWith('/DisplacedChain/')).sort()).toEqual(['/DisplacedChain/A/C/Logo.png', '/DisplacedChain/D/Logo.png']);
      expect(b.tree()).toEqual({ 'A/C/Logo.png': 'bee', 'D/Logo.png': 'the logo' });
    } finally {
      await dispose();
    }
  });
});
