/**
 * Benchmark: the local side on a 100,000-file tree (1,000 folders of 100 small files). Measures
 *   (a) a plain recursive readdir + lstat walk (async, per-folder Promise.all): the baseline,
 *   (b) the initial scan, hashing every file,
 *   (c) a scan of the unchanged tree given the previous snapshot (target ≤ 2× the walk),
 *   (d) peak RSS of a process that holds the 100,000-entry snapshot and watches the tree (target
 *       < 300 MB), once with chokidar and once with NativeWatcher (fs.watch, bounded set-up).
 * A synchronous walk is printed too, as the floor of what any walk on this machine costs. The lead
 * registers it in bench/run.ts: `{ name: 'local-scan-100k', run: async () => formatLocalScanBench(await
 * benchLocalScan()) }`. Run alone: `node --import tsx bench/local-scan.ts`.
 */
import { spawn } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ChokidarWatcher } from '../src/main/local/chokidar-watcher.js';
import { systemClock } from '../src/main/local/clock.js';
import { IgnoreRules } from '../src/main/local/ignore-rules.js';
import { LocalScanner } from '../src/main/local/local-scanner.js';
import { NativeWatcher } from '../src/main/local/native-watcher.js';
import { NodeFileSystem } from '../src/main/local/node-file-system.js';
import type { PreviousFile } from '../src/main/local/observations.js';
import { peakRss } from './support/processes.js';

export interface LocalScanBenchResult {
  files: number;
  directories: number;
  walkMs: number;
  walkSyncMs: number;
  initialScanMs: number;
  rescanMs: number;
  ratio: number;
  watchers: Record<WatcherKind, WatchFigures>;
}

type WatcherKind = 'chokidar' | 'native';

interface WatchFigures {
  peakRssBytes: number | undefined;
  /** Peak RSS after the scan, before the watcher started. */
  scanRssBytes: number | undefined;
  watchReadyMs: number;
  hintMs: number;
}

export const FOLDERS_TOP = 10;
const FOLDERS_EACH = 100;

/** `FOLDERS_TOP` folders of `foldersEach` folders of `filesPerFolder` small files each. */
export function makeTree(root: string, filesPerFolder: number, foldersEach = FOLDERS_EACH): void {
  for (let top = 0; top < FOLDERS_TOP; top++) {
    for (let folder = 0; folder < foldersEach; folder++) {
      const dir = join(root, `top-${top}`, `folder-${folder}`);
      mkdirSync(dir, { recursive: true });
      for (let file = 0; file < filesPerFolder; file++) writeFileSync(join(dir, `image-${file}.png`), `file ${top}/${folder}/${file}`);
    }
  }
}

/** (a) The baseline: what a straightforward async walk costs. */
export async function plainWalk(dir: string): Promise<number> {
  const names = await readdir(dir);
  const stats = await Promise.all(names.map((name) => lstat(join(dir, name))));
  let count = names.length;
  for (const [index, stat] of stats.entries()) if (stat.isDirectory()) count += await plainWalk(join(dir, names[index] ?? ''));
  return count;
}

export function syncWalk(dir: string): number {
  let count = 0;
  for (const name of readdirSync(dir)) {
    count++;
    if (lstatSync(join(dir, name)).isDirectory()) count += syncWalk(join(dir, name));
  }
  return count;
}

export async function timed<T>(run: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await run();
  return { ms: performance.now() - started, value };
}

async function scanInto(root: string, snapshot: Map<string, PreviousFile> | undefined): Promise<Map<string, PreviousFile>> {
  const next = new Map<string, PreviousFile>();
  const scanner = new LocalScanner({ fs: new NodeFileSystem() });
  await scanner.scan(
    root,
    (observation) => {
      if (observation.kind === 'file') next.set(observation.relPath, { size: observation.size, mtimeMs: observation.mtimeMs, ino: observation.ino, md5: observation.md5 });
    },
    { rules: new IgnoreRules(), previous: snapshot === undefined ? undefined : (relPath) => snapshot.get(relPath) },
  );
  return next;
}

/** (d) In its own process so RSS is the local side's alone: index the tree, watch it, see one hint. */
async function childMain(root: string, kind: WatcherKind): Promise<void> {
  const snapshot = await scanInto(root, undefined);
  const scanRssBytes = await peakRss(process.pid);
  const options = { root, rules: () => new IgnoreRules(), clock: systemClock, batch: { debounceMs: 100 } };
  const watcher = kind === 'chokidar' ? new ChokidarWatcher(options) : new NativeWatcher(options);
  let hinted: (() => void) | undefined;
  const ready = await timed(() => watcher.start(() => hinted?.()));
  const hint = await timed(
    () =>
      new Promise<void>((resolve) => {
        hinted = resolve;
        writeFileSync(join(root, 'top-3', 'folder-42', `new-${kind}.png`), 'new');
      }),
  );
  const peakRssBytes = await peakRss(process.pid);
  await watcher.close();
  const figures: WatchFigures & { files: number } = { files: snapshot.size, peakRssBytes, scanRssBytes, watchReadyMs: ready.ms, hintMs: hint.ms };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

function runChild(root: string, kind: WatcherKind): Promise<WatchFigures> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', root, kind], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      const line = output.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !line.startsWith('{')) reject(new Error(`the watch child exited with ${code}: ${output}`));
      else resolve(JSON.parse(line));
    });
  });
}

export async function benchLocalScan(filesPerFolder = Number(process.env.BENCH_FILES_PER_FOLDER ?? 100), rounds = 3): Promise<LocalScanBenchResult> {
  const root = mkdtempSync(join(tmpdir(), 'asset-sync-bench-scan-'));
  try {
    makeTree(root, filesPerFolder);
    const files = FOLDERS_TOP * FOLDERS_EACH * filesPerFolder;
    const directories = FOLDERS_TOP + FOLDERS_TOP * FOLDERS_EACH;
    syncWalk(root); // warm the dentry cache evenly for everyone

    const initial = await timed(() => scanInto(root, undefined));
    if (initial.value.size !== files) throw new Error(`scan found ${initial.value.size} files, expected ${files}`);
    let walkMs = Infinity;
    let walkSyncMs = Infinity;
    let rescanMs = Infinity;
    for (let round = 0; round < rounds; round++) {
      const walk = await timed(() => plainWalk(root));
      if (walk.value !== files + directories) throw new Error(`walk found ${walk.value} entries`);
      walkMs = Math.min(walkMs, walk.ms);
      rescanMs = Math.min(rescanMs, (await timed(() => scanInto(root, initial.value))).ms);
      walkSyncMs = Math.min(walkSyncMs, (await timed(() => syncWalk(root))).ms);
    }
    const watchers = { chokidar: await runChild(root, 'chokidar'), native: await runChild(root, 'native') };
    return { files, directories, walkMs, walkSyncMs, initialScanMs: initial.ms, rescanMs, ratio: rescanMs / walkMs, watchers };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const mb = (bytes: number | undefined): string => (bytes === undefined ? 'n/a' : `${(bytes / 1024 / 1024).toFixed(0)} MB`);

export function formatLocalScanBench(result: LocalScanBenchResult): string[] {
  const perFile = (ms: number): string => `${((ms * 1000) / result.files).toFixed(1)} µs/file`;
  const watchLine = (label: string, figures: WatchFigures): string[] => {
    const rss = figures.peakRssBytes;
    const over = rss !== undefined && rss >= 300 * 1024 * 1024;
    return [
      `  (d) peak RSS, snapshot held + ${label}: ${mb(rss)} (target < 300 MB)${over ? '  ABOVE TARGET' : ''}`,
      `      (${mb(figures.scanRssBytes)} after the scan; ready after ${figures.watchReadyMs.toFixed(0)} ms; a write hinted after ${figures.hintMs.toFixed(0)} ms)`,
    ];
  };
  return [
    `${result.files} files in ${result.directories} folders`,
    `  (a) baseline: plain async readdir + lstat walk: ${result.walkMs.toFixed(0)} ms (${perFile(result.walkMs)})`,
    `      reference: synchronous walk (blocks the loop): ${result.walkSyncMs.toFixed(0)} ms`,
    `  (b) initial scan, hashing every file: ${result.initialScanMs.toFixed(0)} ms (${perFile(result.initialScanMs)})`,
    `  (c) scan of the unchanged tree with snapshot: ${result.rescanMs.toFixed(0)} ms (${perFile(result.rescanMs)})`,
    `      ratio (c)/(a) ${result.ratio.toFixed(2)} (target ≤ 2.00)${result.ratio <= 2 ? '' : '  ABOVE TARGET'}`,
    ...watchLine('ChokidarWatcher', result.watchers.chokidar),
    ...watchLine('NativeWatcher', result.watchers.native),
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [flag, childRoot, kind] = process.argv.slice(2);
  if (flag === '--child' && childRoot !== undefined) await childMain(childRoot, kind === 'chokidar' ? 'chokidar' : 'native');
  else for (const line of formatLocalScanBench(await benchLocalScan())) process.stdout.write(`${line}\n`);
}
