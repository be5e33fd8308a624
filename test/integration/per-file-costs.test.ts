/**
 * What each small file costs, counted rather than timed: 1,000 small files synced up from one folder,
 * then down into another, against the real service through a counting proxy. Per file, over the whole
 * pass (its fixed costs spread over the thousand files): HTTP requests, SQL statements, write
 * transactions and rows written (with what triggers and full-text indexes write) on each side, fsyncs
 * and bytes written on each side, and the client's file-system calls that name a path. Each budget is
 * today's count with a little room; work added per file goes past it and fails here, with the counts and the statements that
 * grew, when it is made — not a bench run later. Lower a budget when the count comes down.
 */
import type Database from 'better-sqlite3';
import { mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeFileSystem } from '../../src/main/local/index.js';
import type { AssetApi } from '../../src/main/api/index.js';
import { ioMeter } from '../../src/service/io/io-meter.js';
import { fileNameIndex } from '../../src/service/search/file-name-index.js';
import { listeningUrl, startCountingProxy, type CountingProxy } from '../support/counting-proxy.js';
import { countingFileSystem, type WriteCounts } from '../support/counting-file-system.js';
import { startSyncHarness, type SyncHarness } from '../support/sync-harness.js';
import { startTestService, type TestService } from '../support/test-service.js';

const FILES = 1000;
const FOLDERS = 10;
/** No poll or listing on a timer during a pass: each pass asks the service what it always asks. */
const QUIET_FEED = { pollIntervalMs: 3_600_000, fullIntervalMs: 3_600_000 };

/** What one file costs (measured), or may cost at most (a budget). */
interface PerFile {
  requests: number;
  serviceStatements: number;
  serviceTransactions: number;
  /**
   * Rows the service's database wrote (SQLite's total_changes(): with what triggers write, and a
   * full-text index's own tables), which a count of statements does not see.
   */
  serviceRows: number;
  serviceSyncs: number;
  serviceBytes: number;
  clientStatements: number;
  clientTransactions: number;
  /** Rows the client's database wrote, triggers included. */
  clientRows: number;
  clientSyncs: number;
  /** Calls naming a path on the client (its FileSystem's, and the download's open of its temp file). */
  clientFileCalls: number;
  /** Bytes the engine writes to files beyond the files' own bytes (temporary names, markers). */
  clientExtraBytes: number;
}

const BUDGETS: Record<'up' | 'down', PerFile> = {
  // Measured 2026-12-07: 1.033 requests (one part PUT each, the rest shared), 11.31 and 7.18
  // statements, 0.27–0.40 transactions (commits are batched by time), no fsync: small files are kept
  // inline in the service's database, and an upload writes nothing to the local disk. The client's 7:
  // its local row, the upload journal's intent, upload and end (its job's id is one statement for the
  // batch; new-file-uploads.ts says why each write is kept), its synced row, its MD5 filled in, the
  // service's listing learning the asset. The scan's and the journal's reads are a folder or a batch
  // at a time, and a path with no "not synced" report is never looked up or cleared.
  up: {
    requests: 1.05,
    serviceStatements: 11.5,
    serviceTransactions: 0.5,
    // 13.09 rows: the statements' rows, and 2.04 of the file-name index, which takes names thousands to
    // a commit (file-name-index.ts); indexed at each insert, a file's name wrote 8.3 index rows.
    serviceRows: 13.5,
    serviceSyncs: 0,
    serviceBytes: 0,
    clientStatements: 7.4,
    clientTransactions: 0.5,
    clientRows: 8.2,
    clientSyncs: 0,
    // 1.06: each file opened once to be read (hashed and sent); the folders' listings are shared.
    clientFileCalls: 1.1,
    clientExtraBytes: 0,
  },
  // Measured 2026-12-07: 1.014 requests (one GET of the signed file URL each), 4.12 and 5.11
  // statements, 0.01 and 0.43–0.57 transactions, one fsync per file (before its rename into place).
  // The client's 5: the service's listing, the landing written ahead and finished, the local and synced rows.
  down: {
    requests: 1.05,
    serviceStatements: 4.4,
    serviceTransactions: 0.05,
    serviceRows: 2.2,
    serviceSyncs: 0,
    serviceBytes: 0,
    clientStatements: 5.4,
    clientTransactions: 0.75,
    clientRows: 5.2,
    clientSyncs: 1,
    // 3.10: the temp file opened, its target looked at, the rename. The date is set and the file
    // looked at through the handle that wrote it (was 5.10, with a utimes and an lstat by path).
    clientFileCalls: 3.2,
    clientExtraBytes: 0,
  },
};

// Files written in the last seconds before the pass: each is seen settling at first sight and looked
// at again once the stability wait is over, in the same pass (a designer's drop, a folder just copied
// in). Its files go to /Fresh/Folder N, one folder level deeper than "up" (looked up once per job chunk).
// Measured 2026-12-07: 11.47 and 7.25 statements; the second look reads its paths' rows in one
// statement each (local, synced, below), not three per file.
// 2.27 file calls: the first look's lstat and the read.
const FRESH_BUDGET: PerFile = { ...BUDGETS.up, serviceStatements: 11.7, clientStatements: 7.5, clientFileCalls: 2.4 };

/** Rows `db`'s connection has written since it opened, with those its triggers and virtual tables wrote. */
function rowsWritten(db: Database.Database): number {
  return (db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
}

/** Statements seen on one database: counted, and grouped by shape to say which grew. */
class StatementLog {
  count = 0;
  transactions = 0;
  private readonly shapes = new Map<string, number>();

  readonly record = (sql: string): void => {
    // Transactions are counted apart: how many files share one depends on timing, by design (batched commits).
    if (/^\s*BEGIN/i.test(sql)) this.transactions++;
    if (/^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b/i.test(sql)) return;
    this.count++;
    const shape = sql
      .replace(/'(?:[^']|'')*'/g, "'…'")
      .replace(/\b\d+(?:\.\d+)?\b/g, 'N')
      .replace(/\s+/g, ' ')
      .slice(0, 140);
    this.shapes.set(shape, (this.shapes.get(shape) ?? 0) + 1);
  };

  reset(): void {
    this.count = 0;
    this.transactions = 0;
    this.shapes.clear();
  }

  /** The most frequent shapes, most first. */
  top(n: number): string[] {
    return [...this.shapes].sort((a, b) => b[1] - a[1]).slice(0, n).map(([shape, times]) => `${(times / FILES).toFixed(2)}/file  ${shape}`);
  }
}


/** Downloads stream into files through the API (write-body.ts), not the FileSystem: counted here. */
function countingDownloads(counts: WriteCounts): (api: AssetApi) => AssetApi {
  return (api) => {
    const wrapped: AssetApi = Object.create(api) as AssetApi;
    wrapped.downloadToFile = async (url, tempPath, options) => {
      counts.filesOpened++;
      counts.pathCalls++;
      const result = await api.downloadToFile(url, tempPath, options);
      counts.bytesWritten += result.size - (options?.resumeFrom ?? 0);
      if (options?.fsync === true) counts.syncs++;
      return result;
    };
    return wrapped;
  };
}

describe('per-file costs of 1,000 small files, up and down', () => {
  let proxy: CountingProxy;
  let service: TestService;
  const serviceSql = new StatementLog();
  const uploaderSql = new StatementLog();
  const downloaderSql = new StatementLog();
  let uploader: SyncHarness;
  let downloader: SyncHarness;
  let fresher: SyncHarness;
  const fresherSql = new StatementLog();
  let fresherWrites: WriteCounts;
  let uploaderWrites: WriteCounts;
  let downloaderWrites: WriteCounts;
  let fileBytes = 0;

  beforeAll(async () => {
    proxy = await startCountingProxy();
    // Part and file URLs are built from publicUrl: every request of the engine passes the proxy.
    service = await startTestService({ publicUrl: proxy.url }, { onStatement: serviceSql.record });
    proxy.target = listeningUrl(service);
    const up = countingFileSystem(new NodeFileSystem());
    const down = countingFileSystem(new NodeFileSystem());
    uploaderWrites = up.counts;
    downloaderWrites = down.counts;
    uploader = await startSyncHarness(service, { remote: QUIET_FEED, fs: up.fs, onStatement: uploaderSql.record, wrapApi: countingDownloads(up.counts) });
    downloader = await startSyncHarness(service, { remote: QUIET_FEED, fs: down.fs, onStatement: downloaderSql.record, wrapApi: countingDownloads(down.counts) });
    // Its own place in the service: it sees none of the other files, and they see none of its.
    const fresh = countingFileSystem(new NodeFileSystem());
    fresherWrites = fresh.counts;
    fresher = await startSyncHarness(service, { remote: QUIET_FEED, remotePath: '/Fresh', fs: fresh.fs, onStatement: fresherSql.record });
    const written = new Date(Date.now() - 3_600_000);
    for (let index = 0; index < FILES; index++) {
      const folder = join(uploader.folder, `Folder ${index % FOLDERS}`);
      mkdirSync(folder, { recursive: true });
      const content = `small file ${index}\n`.repeat(4);
      fileBytes += Buffer.byteLength(content);
      writeFileSync(join(folder, `file ${index}.txt`), content);
      // Written an hour ago: every file is past the stability wait and goes at once, never on a second look.
      utimesSync(join(folder, `file ${index}.txt`), written, written);
    }
  });
  afterAll(async () => {
    await fresher.dispose();
    await uploader.dispose();
    await downloader.dispose();
    await service.dispose();
    await proxy.close();
  });

  /** Runs one pass of `harness` and answers what it cost per file. */
  const measure = async (harness: SyncHarness, clientSql: StatementLog, writes: WriteCounts, ownBytes: number): Promise<{ measured: PerFile; details: string }> => {
    const requestsBefore = proxy.requests;
    const routesBefore = new Map(proxy.routes);
    const io = { ...ioMeter };
    const before = { ...writes };
    // The file-name index takes new names in batches, on a timer: caught up before the pass and again
    // after it, so what it writes for this pass's files counts here, whenever its timer ran.
    const names = fileNameIndex(service.running.ctx.db);
    names.catchUpAll();
    const serviceRowsBefore = rowsWritten(service.running.ctx.db);
    const clientRowsBefore = rowsWritten(harness.db);
    serviceSql.reset();
    clientSql.reset();
    const result = await harness.once();
    expect(result.converged, JSON.stringify(result.reports)).toBe(true);
    names.catchUpAll();
    const perFile = (n: number): number => n / FILES;
    const measured: PerFile = {
      requests: perFile(proxy.requests - requestsBefore),
      serviceStatements: perFile(serviceSql.count),
      serviceTransactions: perFile(serviceSql.transactions),
      serviceRows: perFile(rowsWritten(service.running.ctx.db) - serviceRowsBefore),
      serviceSyncs: perFile(ioMeter.syncs - io.syncs),
      serviceBytes: perFile(ioMeter.bytesWritten - io.bytesWritten),
      clientStatements: perFile(clientSql.count),
      clientTransactions: perFile(clientSql.transactions),
      clientRows: perFile(rowsWritten(harness.db) - clientRowsBefore),
      clientSyncs: perFile(writes.syncs - before.syncs),
      clientFileCalls: perFile(writes.pathCalls - before.pathCalls),
      clientExtraBytes: perFile(writes.bytesWritten - before.bytesWritten - ownBytes),
    };
    const routes = [...proxy.routes].map(([route, total]) => [route, total - (routesBefore.get(route) ?? 0)] as const).filter(([, n]) => n > 0);
    // What the pass cost, for the one who reads a failure (and for setting the budgets).
    const details = [
      `per file: ${JSON.stringify(measured)}`,
      `requests: ${routes.map(([route, n]) => `${route} ${(n / FILES).toFixed(2)}`).join(', ')}`,
      'service statements:',
      ...serviceSql.top(20),
      'client statements:',
      ...clientSql.top(20),
    ].join('\n');
    return { measured, details };
  };


  const withinBudget = ({ measured, details }: { measured: PerFile; details: string }, budget: PerFile): void => {
    const over = (Object.keys(budget) as (keyof PerFile)[]).filter((key) => measured[key] > budget[key]).map((key) => `${key}: ${measured[key].toFixed(3)} per file, budget ${budget[key]}`);
    expect(over, `per-file work grew:\n${details}\n`).toEqual([]);
  };

  it('up: a new small file costs no more than its budget', async () => {
    withinBudget(await measure(uploader, uploaderSql, uploaderWrites, 0), BUDGETS.up);
    expect((await uploader.assets()).length).toBe(FILES);
  });

  // Runs after "up", whose files it downloads.
  it('down: a small file new in the service costs no more than its budget', async () => {
    // The engine writes each file's own bytes once; everything beyond them is its overhead.
    withinBudget(await measure(downloader, downloaderSql, downloaderWrites, fileBytes), BUDGETS.down);
    const landed = readdirSync(downloader.folder, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile() && entry.name.endsWith('.txt'));
    expect(landed).toHaveLength(FILES);
  });

  // Runs after "down": the downloader syncs the whole service, /Fresh too.
  it('up, freshly written: a small file seen settling, then again, costs no more than its budget', async () => {
    // Dated ahead of the clock: each file is fresh at first sight however long the writing takes, and
    // settles on the second look (the same signature, the stability wait later).
    const written = new Date(Date.now() + 600_000);
    for (let index = 0; index < FILES; index++) {
      const folder = join(fresher.folder, `Folder ${index % FOLDERS}`);
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, `fresh ${index}.txt`), `fresh file ${index}\n`.repeat(4));
      utimesSync(join(folder, `fresh ${index}.txt`), written, written);
    }
    withinBudget(await measure(fresher, fresherSql, fresherWrites, 0), FRESH_BUDGET);
    expect((await fresher.assets()).filter((asset) => asset.path.startsWith('/Fresh/'))).toHaveLength(FILES);
  });
});
