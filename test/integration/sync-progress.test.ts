import { describe, expect, it } from 'vitest';
import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import type { TransferEvent } from '../../src/shared/sync/transfer-event.js';
import { serviceForBlock, startSyncHarness } from '../support/sync-harness.js';
import { client } from '../support/two-way.js';

/** What a progress display is told: every event, and the bytes summed as the engine reports them. */
function recorder() {
  const seen = { events: [] as TransferEvent[], bytes: 0 };
  return {
    seen,
    progress: {
      onBytes: (_relPath: string, bytes: number) => void (seen.bytes += bytes),
      onTransfer: (event: TransferEvent) => void seen.events.push(event),
    },
  };
}

describe('sync progress: what the engine tells a progress display', () => {
  const block = serviceForBlock();
  const { harnesses } = block;

  it('announces each pass’s uploads and downloads, counts every byte once, and each file as it lands', async () => {
    // 20 MiB goes up in two parts sent at once: their byte counts must add up, not pile up.
    const files = { 'video/big.bin': Buffer.alloc(20 * 1024 * 1024, 3), 'a.txt': 'alpha', 'b/c.txt': 'charlie' };
    const total = Object.values(files).reduce((sum, content) => sum + Buffer.byteLength(content), 0);

    const sender = recorder();
    const me = client(await startSyncHarness(block.service, { remotePath: '/Progress', progress: sender.progress }));
    harnesses.push(me.h);
    // Written long ago as far as the stability gate can tell, so all three are planned in one pass
    // whatever the machine's load (the gate's own timing has its tests in stability-gate.test.ts).
    const written = new Date(Date.now() - 60 * 60 * 1000);
    for (const [relPath, content] of Object.entries(files)) {
      me.write(relPath, content);
      utimesSync(join(me.h.folder, relPath), written, written);
    }
    const up = await me.once();
    expect(up.converged, JSON.stringify(up.reports)).toBe(true);
    expect(sender.seen.events.filter((event) => event.kind === 'planned')).toEqual([
      { kind: 'planned', rootId: expect.any(String), send: { files: 3, bytes: total }, receive: { files: 0, bytes: 0 }, waiting: { files: 0, bytes: 0 } },
    ]);
    const sent = sender.seen.events.flatMap((event) => (event.kind === 'file-done' ? [`${event.direction} ${event.relPath}`] : []));
    expect(sent.sort()).toEqual(['send a.txt', 'send b/c.txt', 'send video/big.bin']);
    expect(sender.seen.bytes).toBe(total);

    const receiver = recorder();
    const colleague = client(await startSyncHarness(block.service, { remotePath: '/Progress', progress: receiver.progress }));
    harnesses.push(colleague.h);
    expect((await colleague.once()).converged).toBe(true);
    expect(receiver.seen.events.filter((event) => event.kind === 'planned')).toEqual([
      { kind: 'planned', rootId: expect.any(String), send: { files: 0, bytes: 0 }, receive: { files: 3, bytes: total }, waiting: { files: 0, bytes: 0 } },
    ]);
    const received = receiver.seen.events.flatMap((event) => (event.kind === 'file-done' ? [`${event.direction} ${event.relPath}`] : []));
    expect(received.sort()).toEqual(['receive a.txt', 'receive b/c.txt', 'receive video/big.bin']);
    expect(receiver.seen.bytes).toBe(total);
  });

  it('counts a large file still being written as waiting in the pass that sends the rest, then sends it', async () => {
    const sender = recorder();
    const me = client(await startSyncHarness(block.service, { remotePath: '/Waiting', progress: sender.progress }));
    harnesses.push(me.h);
    const big = Buffer.alloc(6 * 1024 * 1024, 5);
    me.write('old.txt', 'written long ago');
    // Last written an hour ago: settled at first sight. The big file was written just now: it settles first.
    const anHourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(join(me.h.folder, 'old.txt'), anHourAgo, anHourAgo);
    me.write('film.mov', big);
    const result = await me.once();
    expect(result.converged, JSON.stringify(result.reports)).toBe(true);
    expect(sender.seen.events.filter((event) => event.kind === 'planned')).toEqual([
      { kind: 'planned', rootId: expect.any(String), send: { files: 1, bytes: 16 }, receive: { files: 0, bytes: 0 }, waiting: { files: 1, bytes: big.length } },
      { kind: 'planned', rootId: expect.any(String), send: { files: 1, bytes: big.length }, receive: { files: 0, bytes: 0 }, waiting: { files: 0, bytes: 0 } },
    ]);
  });
});
