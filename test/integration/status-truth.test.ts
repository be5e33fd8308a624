/**
 * Issue 15.7: `status` says only what is true. Against the real service: a folder that never reached
 * the service is not "up to date"; after `resolve --keep mine` the upload it leads to is shown waiting;
 * "synced" never exceeds "local" (synced rows of files deleted locally, deletions held, used to count);
 * an item the scanner could not read counts as local and not synced.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeFileSystem } from '../../src/main/local/index.js';
import { cli } from '../support/cli-runner.js';
import { DenyingFileSystem } from '../support/denying-file-system.js';
import { startSyncHarness } from '../support/sync-harness.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { client, startTwoClients, type Client } from '../support/two-way.js';

interface StatusJson {
  state: string;
  localFiles: number;
  syncedFiles: number;
  pendingUploads: number;
  reachedService: boolean;
}

async function status(me: Client): Promise<{ json: StatusJson; text: string }> {
  const json = JSON.parse((await cli(['status', '--state', me.h.stateDir, '--json'])).out).roots[0] as StatusJson;
  const text = (await cli(['status', '--state', me.h.stateDir])).out;
  return { json, text };
}

describe('status tells the truth', () => {
  let service: TestService;
  const disposers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    for (const dispose of disposers) await dispose();
    await service.dispose();
  });

  it('a folder that never reached the service is not up to date', { timeout: 60_000 }, async () => {
    const other = await startTestService();
    const me = client(await startSyncHarness(other, { remotePath: '/Never' }));
    disposers.push(() => me.h.dispose());
    await other.stop();
    try {
      expect((await me.once()).converged).toBe(false);
      const { json, text } = await status(me);
      expect(json).toMatchObject({ state: 'NEVER_SYNCED', reachedService: false, localFiles: 0, syncedFiles: 0 });
      expect(text).toContain('never synced: the service has not been reached yet · 0 synced of 0 local files');
      expect(text).not.toContain('up to date');
    } finally {
      await other.dispose();
    }
  });

  it('after resolve --keep mine the upload waits, until the next sync sends it', { timeout: 60_000 }, async () => {
    const { a, b, settle, dispose } = await startTwoClients(service, '/Mine');
    disposers.push(dispose);
    a.write('brief.txt', 'base');
    await settle();
    a.write('brief.txt', "A's edit");
    b.write('brief.txt', "B's edit");
    await a.once();
    await b.once();
    const conflicts = JSON.parse((await cli(['conflicts', '--state', b.h.stateDir, '--json'])).out).conflicts as { id: number }[];
    expect(conflicts).toHaveLength(1);
    const resolved = await cli(['resolve', String(conflicts[0]?.id), '--keep', 'mine', '--state', b.h.stateDir], { XDG_DATA_HOME: join(b.h.trashDir, '..') });
    expect(resolved.code, resolved.err).toBe(0);

    const waiting = await status(b);
    expect(waiting.json).toMatchObject({ state: 'SYNCING', localFiles: 1, syncedFiles: 0, pendingUploads: 1 });
    expect(waiting.text).toContain('syncing · 0 synced of 1 local file · 1 file waiting to upload');

    expect((await b.once()).converged).toBe(true);
    const after = await status(b);
    expect(after.json).toMatchObject({ state: 'UP_TO_DATE', localFiles: 1, syncedFiles: 1, pendingUploads: 0 });
    expect(after.text).toContain('up to date · 1 synced of 1 local file');
  });

  it('never counts more synced files than local ones', { timeout: 60_000 }, async () => {
    const me = client(await startSyncHarness(service, { remotePath: '/Counts' }));
    disposers.push(() => me.h.dispose());
    for (let index = 0; index < 12; index++) me.write(`file-${index}.txt`, `file ${index}`);
    expect((await me.once()).converged).toBe(true);
    // Half deleted at once: the mass-delete guard holds them, their synced rows stay.
    for (let index = 0; index < 6; index++) me.remove(`file-${index}.txt`);
    expect((await me.once()).converged).toBe(false);
    const { json, text } = await status(me);
    expect(json).toMatchObject({ state: 'NEEDS_ATTENTION', localFiles: 6, syncedFiles: 6 });
    expect(text).toContain('needs attention · 6 synced of 6 local files');
    expect(text).toContain('6 deletions wait for `asset-sync confirm-deletes`');
  });

  it('counts what it could not read as local and not synced', { timeout: 60_000 }, async () => {
    const fs = new DenyingFileSystem(new NodeFileSystem());
    const me = client(await startSyncHarness(service, { remotePath: '/Unreadable', fs }));
    disposers.push(() => me.h.dispose());
    me.write('open.txt', 'anyone may read this');
    me.write('secret.txt', 'not for now');
    fs.deny(join(me.h.folder, 'secret.txt'));
    expect((await me.once()).converged).toBe(false);
    const { json, text } = await status(me);
    expect(json).toMatchObject({ state: 'NEEDS_ATTENTION', localFiles: 2, syncedFiles: 1 });
    expect(text).toContain('needs attention · 1 synced of 2 local files');
    expect(text).toContain('not synced: secret.txt: UNREADABLE');
  });
});
