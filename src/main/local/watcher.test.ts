import { appendFileSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChokidarWatcher } from './chokidar-watcher.js';
import { systemClock } from './clock.js';
import { IgnoreRules } from './ignore-rules.js';
import { NativeWatcher } from './native-watcher.js';
import { isSameOrInside } from './rel-path.js';
import type { Watcher, WatcherOptions } from './watcher.js';
import { until } from '../../../test/support/until.js';
import { tempDir } from '../../../test/support/temp-dir.js';

const watchHandles = (): number => process.getActiveResourcesInfo().filter((type) => type === 'FSEventWrap').length;

/** A bound for a failing test: a watcher hints in well under a second. */
const HINT_WAIT_MS = 5000;

const implementations: [string, (options: WatcherOptions) => Watcher][] = [
  ['ChokidarWatcher', (options) => new ChokidarWatcher(options)],
  ['NativeWatcher', (options) => new NativeWatcher(options)],
];

describe.each(implementations)('%s on a real directory', (_name, create) => {
  let root: string;
  let watcher: Watcher | undefined;
  let hints: string[];

  beforeEach(() => {
    root = tempDir('asset-sync-watch-');
    mkdirSync(join(root, 'existing'));
    writeFileSync(join(root, 'existing/old.png'), 'old');
    hints = [];
  });

  afterEach(async () => {
    await watcher?.close();
  });

  const start = async (): Promise<Watcher> => {
    watcher = create({ root, rules: () => new IgnoreRules('*.psd'), clock: systemClock, batch: { debounceMs: 50, maxDelayMs: 200 } });
    await watcher.start((paths) => void hints.push(...paths));
    return watcher;
  };
  const hinted = (relPath: string): boolean => hints.some((hint) => isSameOrInside(hint, relPath));

  it('hints creates, modifications, renames and deletes as NFC relPaths', async () => {
    await start();
    expect(hints).toEqual([]); // no initial events: the scanner does the first pass
    expect(watcher?.lastEventAt()).toBeUndefined();
    const before = Date.now();
    writeFileSync(join(root, 'a.txt'), 'a');
    await until('create', () => hinted('a.txt'), { timeoutMs: HINT_WAIT_MS });
    expect(watcher?.lastEventAt()).toBeGreaterThanOrEqual(before);
    hints.length = 0;
    appendFileSync(join(root, 'a.txt'), 'more');
    await until('modify', () => hinted('a.txt'), { timeoutMs: HINT_WAIT_MS });
    hints.length = 0;
    renameSync(join(root, 'a.txt'), join(root, 'existing/b.txt'));
    await until('rename', () => hinted('a.txt') && hinted('existing/b.txt'), { timeoutMs: HINT_WAIT_MS });
    hints.length = 0;
    rmSync(join(root, 'existing/b.txt'));
    await until('delete', () => hinted('existing/b.txt'), { timeoutMs: HINT_WAIT_MS });
    mkdirSync(join(root, 'new folder'));
    writeFileSync(join(root, 'new folder/Re\u0301sume\u0301.pdf'), 'cv');
    await until('a file in a new folder', () => hinted('new folder/R\u00e9sum\u00e9.pdf'), { timeoutMs: HINT_WAIT_MS });
    hints.length = 0;
    rmSync(join(root, 'existing'), { recursive: true });
    await until('a deleted folder', () => hinted('existing/old.png'), { timeoutMs: HINT_WAIT_MS });
  });

  it('keeps watching a folder under its new name after a rename, and folders moved in', async () => {
    await start();
    renameSync(join(root, 'existing'), join(root, 'renamed'));
    await until('the folder rename', () => hinted('existing') && hinted('renamed'), { timeoutMs: HINT_WAIT_MS });
    await new Promise((resolve) => setTimeout(resolve, 300)); // let the watches follow
    hints.length = 0;
    writeFileSync(join(root, 'renamed/inside.png'), 'x');
    await until('a write in the renamed folder', () => hinted('renamed/inside.png'), { timeoutMs: HINT_WAIT_MS });
    expect(hints.some((hint) => hint.startsWith('existing'))).toBe(false);

    const outside = tempDir('asset-sync-outside-');
    mkdirSync(join(outside, 'tree/deep'), { recursive: true });
    renameSync(join(outside, 'tree'), join(root, 'moved-in'));
    rmSync(outside, { recursive: true });
    await until('a folder moved in', () => hinted('moved-in'), { timeoutMs: HINT_WAIT_MS });
    await new Promise((resolve) => setTimeout(resolve, 300));
    hints.length = 0;
    writeFileSync(join(root, 'moved-in/deep/new.png'), 'x');
    await until('a write deep in the moved-in folder', () => hinted('moved-in/deep/new.png'), { timeoutMs: HINT_WAIT_MS });
  });

  it("hints '' when the root itself goes away (an unmounted drive)", async () => {
    await start();
    rmSync(root, { recursive: true });
    await until('the root hint', () => hints.includes(''), { timeoutMs: HINT_WAIT_MS });
  });

  it('drops ignored paths, and does not watch inside ignored folders', async () => {
    await until('earlier watchers to be released', () => watchHandles() === 0, { timeoutMs: HINT_WAIT_MS });
    await start();
    writeFileSync(join(root, '.DS_Store'), 'x');
    writeFileSync(join(root, 'draft.tmp'), 'x');
    writeFileSync(join(root, 'art.psd'), 'x');
    mkdirSync(join(root, '.asset-sync'));
    writeFileSync(join(root, '.asset-sync/download.partial'), 'x');
    writeFileSync(join(root, 'marker.txt'), 'x'); // written last: once it is hinted, the others would have been
    await until('the marker', () => hinted('marker.txt'), { timeoutMs: HINT_WAIT_MS });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(hints.filter((hint) => hint !== 'marker.txt')).toEqual([]);
    expect(watchHandles()).toBe(2); // the root and existing/, not .asset-sync/
  });

  it('close() releases every watch handle and delivers nothing afterwards', async () => {
    // libuv closes handles on the loop's next close phase, so earlier tests' handles may still be going.
    await until('earlier watchers to be released', () => watchHandles() === 0, { timeoutMs: HINT_WAIT_MS });
    const running = await start();
    expect(watchHandles()).toBeGreaterThanOrEqual(2); // the root and existing/: one watch per directory
    await running.close();
    watcher = undefined;
    await until('the watch handles to be released', () => watchHandles() === 0, { timeoutMs: 1000 });
    writeFileSync(join(root, 'after.txt'), 'x');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(hints).toEqual([]);
  });
});

describe('NativeWatcher set-up on Linux (a watch per folder)', () => {
  // Only Linux watches folder by folder (inotify has no recursive watch); macOS and Windows take one
  // recursive watch of the root, so there is no per-folder set-up to count.
  it.skipIf(process.platform !== 'linux')('watches every folder of a tree wider and deeper than its listings in flight, each once', async () => {
    const root = tempDir('asset-sync-watch-tree-');
    const folders: string[] = [];
    for (let a = 0; a < 6; a++) for (let b = 0; b < 6; b++) for (let c = 0; c < 3; c++) folders.push(join(root, `a${a}`, `b${b}`, `c${c}`));
    for (const folder of folders) {
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, 'x.png'), 'x');
    }
    const hints: string[] = [];
    const watcher = new NativeWatcher({ root, rules: () => new IgnoreRules(), clock: systemClock, batch: { debounceMs: 50, maxDelayMs: 200 } });
    try {
      await watcher.start((paths) => void hints.push(...paths));
      // The root, 6 + 36 + 108 folders.
      expect(watcher.watchCount).toBe(1 + 6 + 36 + 108);
      writeFileSync(join(root, 'a5', 'b5', 'c2', 'new.png'), 'new');
      await until('the deepest write to be hinted', () => hints.includes('a5/b5/c2/new.png'), { timeoutMs: HINT_WAIT_MS });
    } finally {
      await watcher.close();
    }
  });
});
