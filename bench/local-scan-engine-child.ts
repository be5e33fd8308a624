/**
 * The engine's local side in a process of its own, for bench/local-scan-engine.ts: its state database
 * (openStateStore), the root's pass's LocalRefresh with its scanner and stability gate, and a
 * NativeWatcher, wired as create-engine.ts wires them. The parent bundles this file and runs it with
 * plain `node` (tsx alone adds ~40 MB of RSS), and drives it over IPC:
 *
 *   `index <root> <stateDir>`: the first scan of the tree (every row written), then every file marked
 *     synced as a client that uploaded them would have it (its MD5 known, a synced row), and exits.
 *   `watch <root> <stateDir>`: opens the database, starts the watcher, and answers the parent's
 *     messages: `rescan` (a whole-root scan, as the periodic reconcile does), `touch` (writes a file and
 *     waits for the watcher's hint and its rescan), `done` (its figures, then exits).
 *
 * The gate's clock runs an hour ahead: the tree was written seconds ago, and a user's files have settled.
 */
import { writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openStateDb } from '../src/main/db/open-state-db.js';
import { LocalScanner, NativeWatcher, NodeFileSystem, StabilityGate, IgnoreRules, systemClock } from '../src/main/local/index.js';
import { openStateStore, type StateStore } from '../src/main/store/state-store.js';
import { LocalRefresh } from '../src/main/sync/local-refresh.js';

export interface MemoryFigures {
  peakRssBytes: number;
  rssBytes: number;
  heapUsedBytes: number;
  heapTotalBytes: number;
  externalBytes: number;
  arrayBuffersBytes: number;
}

export type ChildMessage =
  | { kind: 'indexed'; files: number; scanMs: number; syncedMs: number; memory: MemoryFigures }
  | { kind: 'ready'; watchReadyMs: number; memory: MemoryFigures }
  | { kind: 'rescanned'; ms: number; memory: MemoryFigures }
  | { kind: 'touched'; hintMs: number; refreshMs: number }
  | { kind: 'done'; memory: MemoryFigures };

export type ParentMessage = 'rescan' | 'touch' | 'done';

const HOUR_MS = 3_600_000;

async function memory(): Promise<MemoryFigures> {
  const status = await readFile('/proc/self/status', 'utf8').catch(() => '');
  const kb = (field: string): number => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  const usage = process.memoryUsage();
  return { peakRssBytes: kb('VmHWM'), rssBytes: kb('VmRSS'), heapUsedBytes: usage.heapUsed, heapTotalBytes: usage.heapTotal, externalBytes: usage.external, arrayBuffersBytes: usage.arrayBuffers };
}

function send(message: ChildMessage): void {
  process.send?.(message);
}

function openRoot(root: string, stateDir: string): { store: StateStore; refresh: LocalRefresh; rootId: string } {
  const store = openStateStore(openStateDb(join(stateDir, 'state.db')));
  const row = store.repos.roots.upsert({ path: root, server: 'http://127.0.0.1:1', remotePath: '/', publishLive: false }, new Date().toISOString());
  const fs = new NodeFileSystem();
  const gate = new StabilityGate({ now: () => Date.now() + HOUR_MS });
  const refresh = new LocalRefresh(
    { id: row.id, path: root, remotePath: '/' },
    { fs, scanner: new LocalScanner({ fs }), gate, snapshots: store.repos.snapshots, issues: store.repos.issues, now: () => Date.now() },
  );
  return { store, refresh, rootId: row.id };
}

async function index(root: string, stateDir: string): Promise<void> {
  const { store, refresh, rootId } = openRoot(root, stateDir);
  const scanStarted = performance.now();
  await refresh.refresh();
  const scanMs = performance.now() - scanStarted;
  const { snapshots } = store.repos;
  // As after the uploads: each file's MD5 known, and a synced row beside its local one.
  const syncedStarted = performance.now();
  const local = snapshots.local(rootId);
  const entries = [...local.values()];
  local.clear();
  for (let start = 0; start < entries.length; start += 10_000) {
    snapshots.inTransaction(() => {
      for (const entry of entries.slice(start, start + 10_000)) {
        const md5 = entry.ino.toString(16).padStart(32, '0');
        snapshots.putLocal(rootId, { ...entry, md5 });
        snapshots.putSynced(rootId, { ...entry, md5, assetId: `asset-${entry.ino}` });
      }
    });
  }
  const syncedMs = performance.now() - syncedStarted;
  store.close();
  send({ kind: 'indexed', files: entries.length, scanMs, syncedMs, memory: await memory() });
}

async function watch(root: string, stateDir: string): Promise<void> {
  const { store, refresh } = openRoot(root, stateDir);
  let hinted: (() => void) | undefined;
  const watcher = new NativeWatcher({ root, rules: () => new IgnoreRules(), clock: systemClock, batch: { debounceMs: 100 } });
  const readyStarted = performance.now();
  await watcher.start((relPaths) => {
    refresh.hint(relPaths);
    hinted?.();
  });
  send({ kind: 'ready', watchReadyMs: performance.now() - readyStarted, memory: await memory() });
  let touches = 0;
  process.on('message', (message: ParentMessage) => {
    void (async () => {
      if (message === 'rescan') {
        refresh.hint(['']);
        const started = performance.now();
        await refresh.refresh();
        const ms = performance.now() - started;
        send({ kind: 'rescanned', ms, memory: await memory() });
      } else if (message === 'touch') {
        const started = performance.now();
        await new Promise<void>((resolve) => {
          hinted = resolve;
          writeFileSync(join(root, 'top-3', 'folder-42', `new-${touches++}.png`), 'new');
        });
        hinted = undefined;
        const hintMs = performance.now() - started;
        const refreshStarted = performance.now();
        await refresh.refresh();
        send({ kind: 'touched', hintMs, refreshMs: performance.now() - refreshStarted });
      } else {
        await watcher.close();
        const figures = await memory();
        store.close();
        send({ kind: 'done', memory: figures });
        process.disconnect();
      }
    })();
  });
}

const [mode, root, stateDir] = process.argv.slice(2);
if (root === undefined || stateDir === undefined) throw new Error('usage: local-scan-engine-child index|watch ROOT STATE_DIR');
if (mode === 'index') {
  await index(root, stateDir);
  process.disconnect();
} else {
  await watch(root, stateDir);
}
