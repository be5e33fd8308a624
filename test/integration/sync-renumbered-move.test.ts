/**
 * A file moved on disk while the service only numbered it apart anew, against the real service on
 * loopback and real folders. Two assets `logo.png` in `A` are `A/logo.png` and `A/logo (2).png` on disk;
 * the user renames `A` to `A2` and writes a new `A/logo.png` while a colleague moves the namesake out of
 * `A`, so the service lists the other one as `A/logo.png`: a path that changed, though nobody moved or
 * renamed that asset. Read as the service's move, it won over the user's: its path was held by the new
 * file, the new file went up, the service numbered the two the other way round, and each waited for the
 * other's path on every pass (simulation seed 86076). The user's move goes up.
 */
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/test-service.js';
import { assetAt, colleague, startTwoClients } from '../support/two-way.js';

describe('a file moved here whose name the service only numbered anew', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('goes where the user moved it; the new file at its old name is a new asset', async () => {
    const { a, b, settle, dispose } = await startTwoClients(service, '/Renumbered');
    try {
      const them = colleague(service, a.h.api);
      const first = await them.upload('/Renumbered/A/logo.png', 'first');
      const second = await them.upload('/Renumbered/A/logo.png', 'second');
      await settle();
      const tree = a.tree();
      expect(Object.keys(tree).sort()).toEqual(['A/logo (2).png', 'A/logo.png']);
      // Numbered by asset id: which one is `(2)` is the service's choice.
      const [numbered, namesake] = tree['A/logo (2).png'] === 'second' ? [second, first] : [first, second];
      const numberedBytes = tree['A/logo (2).png'];

      renameSync(join(a.h.folder, 'A'), join(a.h.folder, 'A2'));
      a.write('A/logo.png', 'a new file');
      await them.move(namesake, '/Renumbered/E');
      await settle();

      expect(await assetAt(a.h, '/Renumbered/A2/logo.png')).toBe(numbered);
      expect(await assetAt(a.h, '/Renumbered/E/logo.png')).toBe(namesake);
      expect((await a.h.assets()).map((entry) => entry.path).filter((path) => path.startsWith('/Renumbered/')).sort()).toEqual(['/Renumbered/A/logo.png', '/Renumbered/A2/logo.png', '/Renumbered/E/logo.png']);
      expect(a.tree()).toEqual({ 'A/logo.png': 'a new file', 'A2/logo.png': numberedBytes, 'E/logo.png': tree['A/logo.png'] });
      expect(b.tree()).toEqual(a.tree());
    } finally {
      await dispose();
    }
  });
});
