/**
 * A file moved to another folder and renamed here is two calls to the service: the Folders edit, then
 * the rename. A process that died between them left the asset in its new folder under its old name,
 * and the restart read that as a move on both sides, where the service's place wins: the user's
 * rename was undone on disk (nothing lost). The move is written ahead (move-journal.ts) and the
 * restart finishes it before it plans. Real service on 127.0.0.1, real temp folders; the death is a
 * call whose answer never comes.
 */
import { mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncedPairDyingAfter } from '../support/dying-api.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { assetAt, client } from '../support/two-way.js';

describe('a move and rename on the service cut short', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.dispose();
  });

  it.each(['editMetadata', 'changeAsset'] as const)('dies after %s: the restart finishes the move, the user\'s name kept', async (call) => {
    const remotePath = `/MoveCrash-${call}`;
    const { harness: first, asset, dying } = await syncedPairDyingAfter(service, remotePath, call);
    let current = first;
    try {
      mkdirSync(join(first.folder, 'E'));
      renameSync(join(first.folder, 'A/a.txt'), join(first.folder, 'E/logo.txt'));

      expect(await dying.dies(first.engine)).toBe(true);
      current = await first.restart();
      const again = client(current);
      expect((await again.once()).converged).toBe(true);

      expect(again.tree()).toEqual({ 'A/b.txt': 'stays', 'E/logo.txt': 'first' });
      expect(await assetAt(current, `${remotePath}/E/logo.txt`)).toBe(asset);
      expect((await current.assets()).filter(({ path }) => path.startsWith(`${remotePath}/`)).map(({ path }) => path).sort()).toEqual([`${remotePath}/A/b.txt`, `${remotePath}/E/logo.txt`]);
    } finally {
      await current.dispose();
    }
  });
});
