/**
 * Benchmark: the abandoned-upload sweep (`UploadExecutor.dropAbandoned`) over a journal of 10,000 new
 * files still to upload (an offline ingest: every upload waits for the service), none abandoned — what
 * every pass that did work paid. Before: every new file's entry looked for on disk (an lstat of each
 * directory once and of each file), as the sweep did until issue 19's third round; it is run here as
 * it was. After: one query of the journal against the snapshots, and a disk check only of the entries
 * they no longer back. On a real disk (a temp dir) and a state database file, as the engine runs.
 * Run alone: `node --import tsx bench/drop-abandoned.ts`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApiClient, staticTokenProvider } from '../src/main/api/index.js';
import { foldersRepo } from '../src/main/db/folders-repo.js';
import { openStateDb } from '../src/main/db/open-state-db.js';
import { rootsRepo } from '../src/main/db/roots-repo.js';
import { snapshotsRepo } from '../src/main/db/snapshots-repo.js';
import { uploadJournal } from '../src/main/db/upload-journal.js';
import { NodeFileSystem, PathLocator } from '../src/main/local/index.js';
import { FolderMapper } from '../src/main/remote/folder-mapper.js';
import { locateFile } from '../src/main/sync/locate-file.js';
import { UploadExecutor } from '../src/main/sync/upload-executor.js';

export interface DropAbandonedBenchResult {
  entries: number;
  /** Median ms of one sweep, of `runs`. */
  beforeMs: number;
  afterMs: number;
  runs: number;
}

const FOLDERS = 100;

export async function benchDropAbandoned(entries = 10_000, runs = 7): Promise<DropAbandonedBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'asset-sync-drop-abandoned-'));
  const db = openStateDb(join(dir, 'state.db'));
  // Never called: with nothing abandoned the sweep asks the service nothing.
  const api = createApiClient({ server: 'http://127.0.0.1:9', tokens: staticTokenProvider('unused') });
  try {
    const rootPath = join(dir, 'root');
    const fs = new NodeFileSystem();
    const row = rootsRepo(db).upsert({ path: rootPath, server: 'http://127.0.0.1:9', remotePath: '/', publishLive: false }, new Date().toISOString());
    const root = { id: row.id, path: rootPath, remotePath: '/', publishLive: false };
    const snapshots = snapshotsRepo(db);
    const journal = uploadJournal(db);
    const files = Array.from({ length: entries }, (_, index) => `folder-${String(index % FOLDERS)}/file-${String(index)}.txt`);
    for (let folder = 0; folder < FOLDERS; folder++) mkdirSync(join(rootPath, `folder-${String(folder)}`), { recursive: true });
    for (const relPath of files) writeFileSync(join(rootPath, relPath), relPath);
    const now = new Date().toISOString();
    journal.inTransaction(() => {
      for (const relPath of files) {
        const local = { relPath, size: relPath.length, mtimeMs: 1, ino: 1, dev: 1, md5: null };
        snapshots.putLocal(root.id, local);
        journal.begin(root.id, 'NEW', relPath, local, null, now);
      }
    });
    const executor = new UploadExecutor({ api, fs, journal, folders: new FolderMapper(api, foldersRepo(db)), nowIso: () => now, commit: async () => undefined, syncedAt: () => undefined });

    /** The sweep's look at the disk as it was: every new file's entry, whether or not anything changed. */
    const sweepAsBefore = async (): Promise<number> => {
      const locator = new PathLocator(fs, root.path);
      let gone = 0;
      for (const entry of journal.all(root.id)) {
        if (entry.kind === 'NEW' && (await locateFile(fs, root.path, entry.relPath, locator).catch(() => undefined)) === undefined) gone++;
      }
      return gone;
    };
    const time = async (sweep: () => Promise<unknown>): Promise<number> => {
      const took: number[] = [];
      for (let run = 0; run < runs; run++) {
        const started = performance.now();
        await sweep();
        took.push(performance.now() - started);
      }
      return took.sort((a, b) => a - b)[Math.floor(runs / 2)] ?? Number.NaN;
    };
    if ((await sweepAsBefore()) !== 0 || (await executor.dropAbandoned(root)).length !== 0) throw new Error('the bench expected nothing abandoned');
    const beforeMs = await time(sweepAsBefore);
    const afterMs = await time(() => executor.dropAbandoned(root));
    return { entries, beforeMs, afterMs, runs };
  } finally {
    api.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatDropAbandonedBench(result: DropAbandonedBenchResult): string[] {
  return [
    `abandoned-upload sweep over ${result.entries} new files' journal entries, none abandoned (median of ${result.runs})`,
    `  before (each entry looked for on disk):   ${result.beforeMs.toFixed(1)} ms`,
    `  after (snapshots query, disk only if unbacked): ${result.afterMs.toFixed(1)} ms (${(result.beforeMs / result.afterMs).toFixed(0)}× less)`,
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const line of formatDropAbandonedBench(await benchDropAbandoned())) console.log(line);
}
