/**
 * One name spelled two ways on a Linux disk (DESIGN.md §3: paths are compared NFC-normalised; the
 * service stores names NFC): `café.txt` composed (NFC, as Linux and Windows programs write it) beside
 * `café.txt` decomposed (NFD, as files copied from a Mac arrive). The service can hold only one name for
 * both: the composed one syncs, the other is reported "not synced" at its own path with a reason that
 * says what to do, and once the user removes the composed one the other becomes the name and syncs.
 * Against the real service, on a real temp folder.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notSyncedViews } from '../../src/main/app/folder-view.js';
import { startSyncHarness } from '../support/sync-harness.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { client, type Client } from '../support/two-way.js';
import { md5Hex } from '../support/checksums.js';

const NFC = 'Menu/caf\u00e9.txt';
const NFD = NFC.normalize('NFD');

describe('a name spelled composed and decomposed side by side', () => {
  let service: TestService;
  let me: Client;

  beforeAll(async () => {
    service = await startTestService();
    me = client(await startSyncHarness(service, { remotePath: '/Spellings' }));
  });
  afterAll(async () => {
    await me.h.dispose();
    await service.dispose();
  });

  it('syncs the composed one, reports the other where "not synced" files are listed, and syncs it once it is alone', async () => {
    me.write(NFD, 'decomposed');
    me.write(NFC, 'composed');
    const first = await me.once();
    // Not converged: a file waits for the user, and says so.
    expect(first.converged).toBe(false);
    expect((await me.h.assets()).map((asset) => [asset.path, asset.checksum])).toEqual([[`/Spellings/${NFC}`, md5Hex('composed')]]);
    const [status] = me.h.engine.store.status();
    expect(status?.notSynced).toEqual([expect.objectContaining({ relPath: NFD, reason: 'NAME_CLASH', detail: expect.stringContaining('rename or remove this one') })]);
    expect(notSyncedViews(me.h.engine.store.status())).toEqual([expect.objectContaining({ relPath: NFD, reason: expect.stringContaining('same name'), fix: 'Rename one of them.' })]);
    // Nothing more to do while both are there, and the report stays as it was.
    const again = await me.once();
    expect(again.reports.every((report) => report.operations === 0)).toBe(true);
    expect(me.h.engine.store.status()[0]?.notSynced.map((issue) => issue.relPath)).toEqual([NFD]);

    // The composed one removed: the decomposed one is the name now, a new version of the same asset.
    const [asset] = await me.h.assets();
    me.remove(NFC);
    const alone = await me.once();
    expect(alone.converged).toBe(true);
    expect(me.h.engine.store.status()[0]?.notSynced).toEqual([]);
    expect((await me.h.assets()).map((entry) => [entry.path, entry.id, entry.checksum])).toEqual([[`/Spellings/${NFC}`, asset?.id, md5Hex('decomposed')]]);
  });
});
