import { describe, expect, it } from 'vitest';
import { HintBatcher } from './hint-batcher.js';
import { IgnoreRules } from './ignore-rules.js';
import { ManualClock } from './manual-clock.js';
import { MemoryFileSystem } from './memory-file-system.js';
import { MemoryWatcher } from './memory-watcher.js';
import { touchesIgnoreFile } from './watcher.js';

function batcher(options = {}) {
  const clock = new ManualClock();
  const batches: string[][] = [];
  const hints = new HintBatcher(clock, (paths) => void batches.push(paths), { debounceMs: 200, maxDelayMs: 1000, ...options });
  return { clock, batches, hints };
}

describe('HintBatcher', () => {
  it('delivers once events pause for debounceMs, merged, deduplicated and sorted', () => {
    const { clock, batches, hints } = batcher();
    hints.add('b.txt');
    clock.advance(150);
    hints.add('a.txt');
    hints.add('b.txt');
    hints.add('dir/x');
    hints.add('dir');
    clock.advance(150);
    expect(batches).toEqual([]);
    clock.advance(50);
    expect(batches).toEqual([['a.txt', 'b.txt', 'dir']]);
    expect(clock.pendingTimers).toBe(0);
  });

  it('knows when the last event came, before its batch is delivered', () => {
    const { clock, batches, hints } = batcher();
    expect(hints.lastEventAt).toBeUndefined();
    hints.add('a.txt');
    clock.advance(150);
    hints.add('b.txt');
    expect(batches).toEqual([]);
    expect(hints.lastEventAt).toBe(clock.now());
  });

  it('never holds a hint longer than maxDelayMs while events keep coming', () => {
    const { clock, batches, hints } = batcher();
    for (let ms = 0; ms < 2500; ms += 50) {
      hints.add(`file-${ms}`);
      clock.advance(50);
    }
    expect(batches.length).toBeGreaterThanOrEqual(2);
    expect(batches[0]).toHaveLength(20); // 1000 ms of events, one every 50 ms
  });

  it('collapses to the whole root past maxPaths, and delivers nothing after close', () => {
    const { clock, batches, hints } = batcher({ maxPaths: 100 });
    for (let index = 0; index < 500; index++) hints.add(`f${index}`);
    clock.advance(200);
    expect(batches).toEqual([['']]);
    hints.add('late');
    hints.close();
    clock.advance(5000);
    expect(batches).toHaveLength(1);
  });

  it('flushes on demand', () => {
    const { batches, hints } = batcher();
    hints.add('a');
    hints.flush();
    hints.flush();
    expect(batches).toEqual([['a']]);
  });
});

describe('MemoryWatcher', () => {
  it('hints relPaths of changes under its root, NFC, without ignored paths, and lets the ignore file through', async () => {
    const clock = new ManualClock();
    const fs = new MemoryFileSystem({ clock });
    fs.mkdirpSync('/root');
    const batches: string[][] = [];
    const watcher = new MemoryWatcher(fs, { root: '/root', rules: () => new IgnoreRules(), clock, batch: { debounceMs: 100 } });
    await watcher.start((paths) => void batches.push(paths));
    fs.writeFile('/root/Re\u0301sume\u0301.pdf', 'x');
    fs.writeFile('/root/.DS_Store', 'x');
    fs.writeFile('/root/.asset-sync/tmp/download.partial', 'x');
    fs.writeFile('/root/.assetsyncignore', '*.psd');
    fs.writeFile('/elsewhere/file', 'x');
    await fs.rename('/root/R\u00e9sum\u00e9.pdf'.normalize('NFD'), '/root/cv.pdf');
    clock.advance(100);
    expect(batches).toEqual([['.assetsyncignore', 'R\u00e9sum\u00e9.pdf', 'cv.pdf']]);
    expect(touchesIgnoreFile(batches[0] ?? [])).toBe(true);
    await watcher.close();
    fs.writeFile('/root/after-close', 'x');
    clock.advance(1000);
    expect(batches).toHaveLength(1);
  });
});
