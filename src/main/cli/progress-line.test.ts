import { describe, expect, it } from 'vitest';
import { recordingIo } from '../../../test/support/fake-io.js';
import type { PassReport } from '../sync/root-sync.js';
import { ProgressLine, formatBytes, plural } from './progress-line.js';

const MB = 1_000_000;

/** A terminal: what the live line showed, in order ('' = cleared), beside the plain lines. */
function terminal() {
  let time = 1_700_000_000_000;
  const io = recordingIo();
  const live: string[] = [];
  io.live = (text) => void live.push(text);
  return {
    io,
    live,
    now: () => time,
    advance(ms: number) {
      time += ms;
    },
  };
}

const planned = (send: { files: number; bytes: number }, receive = { files: 0, bytes: 0 }, waiting = { files: 0, bytes: 0 }) => ({ kind: 'planned' as const, rootId: 'r1', send, receive, waiting });

function report(changes: Partial<PassReport>): PassReport {
  return { rootId: 'r1', scanned: true, uploaded: 0, versions: 0, moved: 0, removed: 0, failed: 0, bytesSent: 0, heldDeletes: 0, settling: 0, operations: 0, downloaded: 0, bytesReceived: 0, localMoved: 0, trashed: 0, conflicts: 0, ...changes };
}

describe('ProgressLine on a terminal', () => {
  it('shows files and bytes of the plan, the rate, and an ETA once the rate has settled', () => {
    const t = terminal();
    const progress = new ProgressLine(t.io, t.now);
    progress.transfer(planned({ files: 24, bytes: 340 * MB }));
    expect(t.live.at(-1)).toBe('↑ 0/24 files · 0 B of 340.0 MB');

    progress.bytes(256 * 1024);
    // 40 MB/s, reported every 250 ms (each report redraws).
    const quarterSeconds = (count: number): void => {
      for (let step = 0; step < count; step++) {
        t.advance(250);
        progress.bytes(10 * MB);
      }
    };
    quarterSeconds(1);
    expect(t.live.at(-1)).toBe('↑ 0/24 files · 10.3 MB of 340.0 MB');
    quarterSeconds(3);
    expect(t.live.at(-1)).toBe('↑ 0/24 files · 40.3 MB of 340.0 MB · 40.0 MB/s');
    quarterSeconds(3);
    // Under two seconds of transfer: too little to go on.
    expect(t.live.at(-1)).not.toContain('ETA');
    progress.transfer({ kind: 'file-done', rootId: 'r1', relPath: 'big/b1.bin', direction: 'send' });
    quarterSeconds(5);
    // 120.26 MB moved at 40 MB/s; 219.7 MB to go.
    expect(t.live.at(-1)).toBe('↑ 1/24 files · 120.3 MB of 340.0 MB · 40.0 MB/s · ETA 6s');
    quarterSeconds(20);
    expect(t.live.at(-1)).toBe('↑ 1/24 files · 320.3 MB of 340.0 MB · 40.0 MB/s · ETA 1s');
    quarterSeconds(4);
    expect(t.live.at(-1)).toBe('↑ 1/24 files · 340.0 MB of 340.0 MB · 40.0 MB/s');
  });

  it('says which ways a pass moves files, and hides the ETA when nothing is left', () => {
    const t = terminal();
    const progress = new ProgressLine(t.io, t.now);
    progress.transfer(planned({ files: 1, bytes: 10 * MB }, { files: 2, bytes: 20 * MB }));
    expect(t.live.at(-1)).toBe('↑↓ 0/3 files · 0 B of 30.0 MB');
    progress.bytes(0);
    for (let step = 0; step < 40; step++) {
      t.advance(100);
      progress.bytes(1 * MB);
    }
    expect(t.live.at(-1)).toBe('↑↓ 0/3 files · 30.0 MB of 30.0 MB · 10.0 MB/s');
    progress.transfer(planned({ files: 0, bytes: 0 }, { files: 1, bytes: 1000 }));
    expect(t.live.at(-1)).toBe('↓ 0/1 file · 0 B of 1.00 kB');
  });

  it('counts a large file still being written in the ETA, and says it is coming', () => {
    const t = terminal();
    const progress = new ProgressLine(t.io, t.now);
    // 20 MB go now; a 400 MB film is still being copied in and goes in a later pass.
    progress.transfer(planned({ files: 2, bytes: 20 * MB }, undefined, { files: 1, bytes: 400 * MB }));
    expect(t.live.at(-1)).toBe('↑ 0/2 files · 0 B of 20.0 MB · + 1 file still being written, 400.0 MB');
    progress.bytes(0);
    for (let step = 0; step < 30; step++) {
      t.advance(100);
      progress.bytes(0.5 * MB);
    }
    // 15 MB at 5 MB/s: 5 MB of the pass and the film's 400 MB still to come, 81 s, not 1 s.
    expect(t.live.at(-1)).toBe('↑ 0/2 files · 15.0 MB of 20.0 MB · + 1 file still being written, 400.0 MB · 5.00 MB/s · ETA 1m 21s');
    for (let step = 0; step < 12; step++) {
      t.advance(100);
      progress.bytes(0.5 * MB);
    }
    // The pass's bytes are all sent (and a retried 1 MB): the ETA is the film's.
    expect(progress.line()).toBe('↑ 0/2 files · 20.0 MB of 20.0 MB · + 1 file still being written, 400.0 MB · 5.00 MB/s · ETA 1m 20s');
  });

  it('redraws at most four times a second', () => {
    const t = terminal();
    const progress = new ProgressLine(t.io, t.now);
    progress.transfer(planned({ files: 1, bytes: 100 * MB }));
    for (let step = 0; step < 100; step++) {
      t.advance(10);
      progress.bytes(1000);
    }
    expect(t.live).toHaveLength(1 + 4);
  });

  it('clears the line for a message, and starts over after a pass', () => {
    const t = terminal();
    const progress = new ProgressLine(t.io, t.now);
    progress.transfer(planned({ files: 2, bytes: 2 * MB }));
    progress.note('warning: a.psd: still being written');
    expect(t.live).toEqual(['↑ 0/2 files · 0 B of 2.00 MB', '']);
    expect(t.io.errLines).toEqual(['warning: a.psd: still being written']);

    progress.pass(report({ uploaded: 2, operations: 2, bytesSent: 2 * MB }), '/tmp/art');
    expect(t.io.errLines.at(-1)).toBe('/tmp/art: 2 new · 2.00 MB sent');
    // Bytes outside a plan (an upload resumed after a restart): no totals to count down, so no ETA.
    t.advance(1000);
    progress.bytes(5 * MB);
    expect(t.live.at(-1)).toBe('5.00 MB');
    t.advance(1000);
    progress.bytes(5 * MB);
    expect(t.live.at(-1)).toBe('10.0 MB · 5.00 MB/s');
    progress.done();
    expect(t.live.at(-1)).toBe('');
  });
});

describe('ProgressLine in a pipe', () => {
  it('prints only the plain line of each pass that did something', () => {
    const io = recordingIo();
    let time = 0;
    const progress = new ProgressLine(io, () => time);
    progress.transfer(planned({ files: 1, bytes: 5 * MB }));
    for (let step = 0; step < 50; step++) {
      time += 100;
      progress.bytes(100_000);
    }
    progress.transfer({ kind: 'file-done', rootId: 'r1', relPath: 'a.psd', direction: 'send' });
    progress.pass(report({ uploaded: 1, operations: 1, bytesSent: 5 * MB }), '/tmp/art');
    progress.pass(report({}), '/tmp/art');
    progress.done();
    expect(io.errLines).toEqual(['/tmp/art: 1 new · 5.00 MB sent']);
  });
});

describe('counted nouns', () => {
  it('says "1 conflict" and "1 file", and plurals for other counts', () => {
    const io = recordingIo();
    const progress = new ProgressLine(io, () => 0);
    progress.pass(report({ conflicts: 1, heldDeletes: 1 }), '/tmp/art');
    progress.pass(report({ conflicts: 2, heldDeletes: 3 }), '/tmp/art');
    expect(io.errLines).toEqual(['/tmp/art: 1 conflict, 1 deletion held', '/tmp/art: 2 conflicts, 3 deletions held']);
    expect([0, 1, 2].map((count) => plural(count, 'file'))).toEqual(['0 files', '1 file', '2 files']);
  });
});

describe('formatBytes', () => {
  it.each([
    [512, '512 B'],
    [512.4, '512 B'],
    [4100, '4.10 kB'],
    [12_300_000, '12.3 MB'],
    [340_000_000, '340.0 MB'],
    [1_070_000_000, '1.07 GB'],
  ])('%d → %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});
