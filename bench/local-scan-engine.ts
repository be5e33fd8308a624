/**
 * Benchmark: the engine's local side on a 1,000,000-file tree (10 × 1,000 folders of 100 small files),
 * as a user runs it: its state database holding a row per file (local and synced), the watcher running
 * (NativeWatcher: a watch per folder on Linux), and a whole-root rescan of the unchanged tree, as the
 * periodic reconcile runs it. Measured against a plain async walk (readdir + lstat, bench/local-scan.ts
 * `plainWalk`) in the same run, walk and rescan taking turns. Targets: peak RSS < 150 MB, rescan ≤ 1×
 * the walk.
 *
 * The engine runs in a child process (local-scan-engine-child.ts), bundled and run with plain `node`
 * as the built app is, so its RSS is its own. The tree lives in the OS temp dir (the root file
 * system here) and is removed at the end; free space and inodes are checked first.
 * Run alone: `npm run bench -- local-scan-1m` (`BENCH_FOLDERS_EACH=100` for 100,000 files;
 * `BENCH_TREE=DIR` measures a tree of the same shape made before, and leaves it in place).
 */
import { fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import type { ChildMessage, MemoryFigures, ParentMessage } from './local-scan-engine-child.js';
import { FOLDERS_TOP, makeTree, plainWalk, syncWalk, timed } from './local-scan.js';

const FILES_PER_FOLDER = 100;
/** ext4 gives each small file a 4 KiB block; the state database and slack besides. */
const BYTES_PER_FILE = 4096;
const SPARE_BYTES = 2 * 1024 ** 3;

export interface EngineScanBenchResult {
  files: number;
  directories: number;
  makeTreeMs: number;
  initialScanMs: number;
  walkMs: number;
  rescanMs: number;
  ratio: number;
  watchReadyMs: number;
  hintMs: number;
  hintedRefreshMs: number;
  memory: { afterStart: MemoryFigures; afterRescans: MemoryFigures; atEnd: MemoryFigures };
}

/**
 * Bundles the child with its sources, so plain `node` runs it. Inside the repo (gitignored
 * .bench-tmp/), where node_modules resolve; its packages stay outside the bundle.
 */
export async function bundleChild(): Promise<string> {
  const entry = fileURLToPath(new URL('./local-scan-engine-child.ts', import.meta.url));
  const outDir = fileURLToPath(new URL('../.bench-tmp/local-scan-engine/', import.meta.url));
  await build({
    configFile: false,
    logLevel: 'warn',
    build: { ssr: entry, outDir, emptyOutDir: false, minify: false, rollupOptions: { output: { format: 'es', entryFileNames: 'child.mjs' } } },
  });
  return join(outDir, 'child.mjs');
}

class Child {
  private readonly child;
  private readonly queue: ChildMessage[] = [];
  private waiting: ((message: ChildMessage) => void) | undefined;
  private readonly exited: Promise<number | null>;

  constructor(script: string, args: string[]) {
    this.child = fork(script, args, { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.child.on('message', (message: ChildMessage) => {
      const waiting = this.waiting;
      this.waiting = undefined;
      if (waiting === undefined) this.queue.push(message);
      else waiting(message);
    });
    this.exited = new Promise((resolve) => this.child.once('exit', resolve));
  }

  async next<K extends ChildMessage['kind']>(kind: K): Promise<Extract<ChildMessage, { kind: K }>> {
    const message =
      this.queue.shift() ??
      (await Promise.race([
        new Promise<ChildMessage>((resolve) => (this.waiting = resolve)),
        this.exited.then((code) => {
          throw new Error(`the engine child exited with ${code} before "${kind}"`);
        }),
      ]));
    if (message.kind !== kind) throw new Error(`the engine child said "${message.kind}", expected "${kind}"`);
    return message as Extract<ChildMessage, { kind: K }>;
  }

  send(message: ParentMessage): void {
    this.child.send(message);
  }

  async exit(): Promise<void> {
    const code = await this.exited;
    if (code !== 0) throw new Error(`the engine child exited with ${code}`);
  }
}

function checkRoom(dir: string, files: number): void {
  const stats = statfsSync(dir);
  const freeBytes = stats.bavail * stats.bsize;
  const needBytes = files * BYTES_PER_FILE + SPARE_BYTES;
  if (freeBytes < needBytes) throw new Error(`${dir} has ${(freeBytes / 1024 ** 3).toFixed(1)} GiB free; the bench needs ${(needBytes / 1024 ** 3).toFixed(1)}`);
  if (stats.ffree < files * 1.1) throw new Error(`${dir} has ${stats.ffree} free inodes; the bench needs ${Math.ceil(files * 1.1)}`);
}

export async function benchEngineScan(foldersEach = Number(process.env.BENCH_FOLDERS_EACH ?? 1000), rounds = 3): Promise<EngineScanBenchResult> {
  const files = FOLDERS_TOP * foldersEach * FILES_PER_FOLDER;
  const directories = FOLDERS_TOP + FOLDERS_TOP * foldersEach;
  const given = process.env.BENCH_TREE;
  if (given === undefined) checkRoom(tmpdir(), files);
  const base = mkdtempSync(join(tmpdir(), 'asset-sync-bench-engine-scan-'));
  const root = given ?? join(base, 'tree');
  const stateDir = join(base, 'state');
  try {
    mkdirSync(stateDir);
    const script = await bundleChild();
    const made = await timed(() => {
      if (given !== undefined) return;
      mkdirSync(root);
      makeTree(root, FILES_PER_FOLDER, foldersEach);
    });
    syncWalk(root); // warm the dentry cache evenly for everyone

    const indexer = new Child(script, ['index', root, stateDir]);
    const indexed = await indexer.next('indexed');
    await indexer.exit();
    if (indexed.files !== files) throw new Error(`the first scan recorded ${indexed.files} files, expected ${files}`);

    const engine = new Child(script, ['watch', root, stateDir]);
    const ready = await engine.next('ready');
    let walkMs = Infinity;
    let rescanMs = Infinity;
    let afterRescans = ready.memory;
    for (let round = 0; round < rounds; round++) {
      const walk = await timed(() => plainWalk(root));
      if (walk.value !== files + directories) throw new Error(`walk found ${walk.value} entries`);
      walkMs = Math.min(walkMs, walk.ms);
      engine.send('rescan');
      const rescanned = await engine.next('rescanned');
      rescanMs = Math.min(rescanMs, rescanned.ms);
      afterRescans = rescanned.memory;
    }
    engine.send('touch');
    const touched = await engine.next('touched');
    engine.send('done');
    const done = await engine.next('done');
    await engine.exit();
    return {
      files,
      directories,
      makeTreeMs: made.ms,
      initialScanMs: indexed.scanMs,
      walkMs,
      rescanMs,
      ratio: rescanMs / walkMs,
      watchReadyMs: ready.watchReadyMs,
      hintMs: touched.hintMs,
      hintedRefreshMs: touched.refreshMs,
      memory: { afterStart: ready.memory, afterRescans, atEnd: done.memory },
    };
  } finally {
    // A tree made before is left as it was found.
    if (given !== undefined) rmSync(join(given, 'top-3', 'folder-42', 'new-0.png'), { force: true });
    const started = performance.now();
    rmSync(base, { recursive: true, force: true });
    process.stderr.write(`(the tree removed in ${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
  }
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

export function formatEngineScanBench(result: EngineScanBenchResult): string[] {
  const { afterStart, afterRescans, atEnd } = result.memory;
  const peak = atEnd.peakRssBytes;
  const breakdown = (figures: MemoryFigures): string =>
    `RSS ${mb(figures.rssBytes)}: JS heap ${mb(figures.heapUsedBytes)} used of ${mb(figures.heapTotalBytes)}, external ${mb(figures.externalBytes)} (array buffers ${mb(figures.arrayBuffersBytes)}), the rest native (SQLite, code, watches)`;
  return [
    `${result.files} files in ${result.directories} folders (made in ${(result.makeTreeMs / 1000).toFixed(0)} s); the state database holds a local and a synced row per file`,
    `  baseline: plain async readdir + lstat walk: ${result.walkMs.toFixed(0)} ms`,
    `  engine, whole-root rescan of the unchanged tree (watcher running): ${result.rescanMs.toFixed(0)} ms`,
    `      ratio ${(result.rescanMs / result.walkMs).toFixed(2)} (target ≤ 1.00)${result.ratio <= 1 ? '' : '  ABOVE TARGET'}`,
    `  engine peak RSS: ${mb(peak)} (target < 150 MB)${peak < 150 * 1024 * 1024 ? '' : '  ABOVE TARGET'}`,
    `      after the watcher started: ${breakdown(afterStart)}`,
    `      after the rescans: ${breakdown(afterRescans)}`,
    `  first scan, every row written: ${(result.initialScanMs / 1000).toFixed(1)} s; watcher ready after ${result.watchReadyMs.toFixed(0)} ms; a write hinted after ${result.hintMs.toFixed(0)} ms, its rescan ${result.hintedRefreshMs.toFixed(0)} ms`,
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const line of formatEngineScanBench(await benchEngineScan())) process.stdout.write(`${line}\n`);
}
