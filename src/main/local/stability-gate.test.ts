import { describe, expect, it } from 'vitest';
import { IgnoreRules } from './ignore-rules.js';
import { LocalScanner } from './local-scanner.js';
import { ManualClock } from './manual-clock.js';
import { MemoryFileSystem } from './memory-file-system.js';
import { MemoryWatcher } from './memory-watcher.js';
import type { LocalFile, PreviousFile } from './observations.js';
import { MTIME_SLACK_MS, StabilityGate } from './stability-gate.js';
import { md5Hex } from '../../../test/support/checksums.js';

/** When the tests' ManualClock starts: a file written then is new to the gate. */
const START = new ManualClock().now();
const sig = (size: number, mtimeMs = START, ino = 7) => ({ size, mtimeMs, ino });

describe('StabilityGate', () => {
  it('calls a file stable only after the same size, mtime and inode twice, stableMs apart', () => {
    const clock = new ManualClock();
    const gate = new StabilityGate(clock, { stableMs: 1500 });
    expect(gate.observe('a', sig(10))).toBe('settling');
    clock.advance(1000);
    expect(gate.observe('a', sig(10))).toBe('settling');
    expect(gate.due()).toEqual([]);
    expect(gate.nextCheckAt()).toBe(clock.now() + 500);
    clock.advance(500);
    expect(gate.due()).toEqual(['a']);
    expect(gate.observe('a', sig(10))).toBe('stable');
    expect(gate.isSettling('a')).toBe(false);
    expect(gate.nextCheckAt()).toBeUndefined();
  });

  it('looks at files that began settling moments apart together, and not a later one', () => {
    const clock = new ManualClock();
    const gate = new StabilityGate(clock, { stableMs: 1500 });
    gate.observe('a', sig(1));
    clock.advance(3);
    gate.observe('b', sig(2));
    clock.advance(97);
    gate.observe('c', sig(3));
    clock.advance(1);
    gate.observe('late', sig(4));
    // a is due at +1500, b at +1503, c at +1600 (the most a may wait), late at +1601.
    expect(gate.nextCheckAt()).toBe(START + 1600);
    clock.advance(1499);
    expect(gate.due()).toEqual(['a', 'b', 'c']);
    for (const [relPath, size] of [['a', 1], ['b', 2], ['c', 3]] as const) expect(gate.observe(relPath, sig(size))).toBe('stable');
    expect(gate.nextCheckAt()).toBe(START + 1601);
  });

  it('keeps a growing file settling, and restarts the wait on any change of size, mtime or inode', () => {
    const clock = new ManualClock();
    const gate = new StabilityGate(clock);
    let written = START;
    for (let size = 1; size <= 20; size++) {
      written = clock.now();
      expect(gate.observe('copy.mov', sig(size * 1_000_000, written))).toBe('settling');
      clock.advance(1000);
    }
    expect(gate.observe('copy.mov', sig(20_000_000, written))).toBe('settling'); // first seen 1 s ago
    clock.advance(500);
    expect(gate.observe('copy.mov', sig(20_000_000, written, 8))).toBe('settling'); // replaced: new inode
    clock.advance(1500);
    expect(gate.observe('copy.mov', sig(20_000_000, written, 8))).toBe('stable');
  });

  it('calls a file stable at first sight once its mtime is stableMs plus the slack old, and not a moment sooner', () => {
    const clock = new ManualClock();
    const gate = new StabilityGate(clock, { stableMs: 1500 });
    clock.advance(1500 + MTIME_SLACK_MS);
    expect(gate.observe('old.psd', sig(10))).toBe('stable');
    expect(gate.isSettling('old.psd')).toBe(false);
    expect(gate.observe('recent.psd', sig(10, START + 1))).toBe('settling');
    // A copy that keeps its original time (cp -p, Finder) settles like any file while its bytes go in,
    // and is stable at once when it ends with the old time.
    expect(gate.observe('copied.psd', sig(5, clock.now()))).toBe('settling');
    expect(gate.observe('copied.psd', sig(10, START - 86_400_000))).toBe('stable');
    expect(gate.isSettling('copied.psd')).toBe(false);
  });

  it('keeps a file with an mtime in the future settling like a new one', () => {
    const clock = new ManualClock();
    const gate = new StabilityGate(clock, { stableMs: 0 });
    const ahead = sig(10, START + 60_000);
    expect(gate.observe('skewed.psd', ahead)).toBe('settling');
    expect(gate.observe('skewed.psd', ahead)).toBe('stable');
  });

  it('forgets a path and everything below it', () => {
    const clock = new ManualClock();
    const gate = new StabilityGate(clock);
    gate.observe('dir/a', sig(1));
    gate.observe('dir/sub/b', sig(1));
    gate.observe('dirt', sig(1));
    gate.forget('dir');
    expect(gate.settlingCount).toBe(1);
    expect(gate.isSettling('dirt')).toBe(true);
  });
});

/** A small engine loop: watcher hints and due paths are rescanned, files feed a snapshot. */
function harness() {
  const clock = new ManualClock();
  const fs = new MemoryFileSystem({ clock });
  fs.mkdirpSync('/root');
  const rules = new IgnoreRules();
  const gate = new StabilityGate(clock, { stableMs: 1500 });
  const scanner = new LocalScanner({ fs });
  const snapshot = new Map<string, PreviousFile>();
  const ready: LocalFile[] = [];
  const hinted: string[][] = [];
  const watcher = new MemoryWatcher(fs, { root: '/root', rules: () => rules, clock, batch: { debounceMs: 100 } });
  const look = async (paths: string[]): Promise<void> => {
    if (paths.length === 0) return;
    await scanner.rescan('/root', paths, (observation) => {
      if (observation.kind === 'file') {
        if (snapshot.get(observation.relPath)?.md5 !== observation.md5) ready.push(observation);
        snapshot.set(observation.relPath, observation);
      } else if (observation.kind === 'gone') {
        snapshot.delete(observation.relPath);
        gate.forget(observation.relPath);
      }
    }, { rules, previous: (relPath) => snapshot.get(relPath), isSettled: gate.isSettled });
  };
  /** Lets `ms` pass in steps, rescanning hinted and due paths as the engine would. */
  const run = async (ms: number): Promise<void> => {
    for (let passed = 0; passed < ms; passed += 100) {
      await clock.advanceAsync(100);
      await look(hinted.splice(0).flat());
      await look(gate.due());
    }
  };
  return { clock, fs, gate, ready, snapshot, watcher, run, start: () => watcher.start((paths) => void hinted.push(paths)) };
}

describe('StabilityGate with the scanner and a watcher', () => {
  it('never yields a copy in progress: a file growing for 10 s is ready once, whole, 1.5 s after it stops', async () => {
    const { fs, ready, watcher, run, start, clock } = harness();
    await start();
    let content = '';
    fs.writeFile('/root/film.mov', '');
    for (let second = 0; second < 10; second++) {
      for (let chunk = 0; chunk < 4; chunk++) {
        const data = `chunk ${second}.${chunk};`;
        content += data;
        fs.appendFile('/root/film.mov', data);
        await run(250);
      }
    }
    expect(ready).toEqual([]);
    const stoppedAt = clock.now();
    await run(2000);
    expect(ready).toHaveLength(1);
    expect(ready[0]).toMatchObject({ relPath: 'film.mov', size: content.length, md5: md5Hex(content) });
    expect(clock.now() - stoppedAt).toBeGreaterThanOrEqual(1500);
    await watcher.close();
  });

  it('a safe-save (temp file written, renamed over the original) ends with only the final name ready', async () => {
    const { fs, ready, watcher, run, start, snapshot, gate } = harness();
    await start();
    fs.writeFile('/root/poster.psd', 'version 1');
    await run(2000);
    expect(ready.map((file) => file.relPath)).toEqual(['poster.psd']);

    fs.writeFile('/root/poster.psd.sb-4f2a', 'version 2, first half');
    await run(400);
    fs.appendFile('/root/poster.psd.sb-4f2a', ' and second half');
    await run(300);
    await fs.rename('/root/poster.psd.sb-4f2a', '/root/poster.psd');
    await run(3000);

    expect(ready.map((file) => file.relPath)).toEqual(['poster.psd', 'poster.psd']);
    expect(ready[1]?.md5).toBe(md5Hex('version 2, first half and second half'));
    expect([...snapshot.keys()]).toEqual(['poster.psd']);
    expect(gate.settlingCount).toBe(0);
    await watcher.close();
  });
});
