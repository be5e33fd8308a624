import { describe, expect, it } from 'vitest';
import { TransferProgress } from './transfer-progress.js';

const MB = 1_000_000;

describe('TransferProgress', () => {
  it('counts the files still being written in the time left, not in the bar', () => {
    let time = 1_000_000;
    const progress = new TransferProgress(() => time);
    progress.planned({ send: { files: 1, bytes: 10 * MB }, receive: { files: 0, bytes: 0 }, waiting: { files: 1, bytes: 300 * MB } });
    for (let step = 0; step < 30; step++) {
      time += 100;
      progress.bytes('send', 0.25 * MB);
    }
    const view = progress.view();
    expect(view.send).toEqual({ filesDone: 0, filesPlanned: 1, bytesDone: 7.5 * MB, bytesPlanned: 10 * MB });
    // 2.5 MB of the pass and the 300 MB file still to come, at 2.5 MB/s.
    expect(view.etaSeconds).toBe(121);
    expect(progress.running).toBe(true);
  });

  it('is not running for a pass that only waits for files being written', () => {
    const progress = new TransferProgress(() => 0);
    progress.planned({ send: { files: 0, bytes: 0 }, receive: { files: 0, bytes: 0 }, waiting: { files: 1, bytes: 5 } });
    expect(progress.running).toBe(false);
    expect(progress.view().etaSeconds).toBeNull();
  });
});
