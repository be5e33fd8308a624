/**
 * Benchmark: asset searches over a million assets (bench/support/seed-search-library.ts), in the shapes
 * real clients send, each beside two baselines run on the same database in the same process: the
 * hand-written SQL that answers the same question directly (the floor: the page, and the count when the page is full), and the
 * compiler's own SQL run bare (compile, page, and the count where the routes count; no HTTP, no rendering). The service runs in-process; assets are inserted
 * straight into its database. Targets: a search (a page of at most 100 hits: folder, keyword, poll, quick
 * search) answers with p50 < 10 ms; a listing page of 1,000 assets (listing start and next) answers with
 * p50 at most 1.5× its hand-written SQL's, the floor of reading that page at all.
 *
 * Shapes:
 * - folder: a field filter, FIELD_EQUALS on one folder, DATE_LAST_MODIFIED DESC, page of 100 (+ count).
 * - keyword: a field filter on a text field, FIELD_EQUALS KEYWORDS, DATE_LAST_MODIFIED DESC, page of 100.
 * - listing start / next: the sync engine's full listing of a root (remote-feed.ts): a scroll search,
 *   synced states AND FIELD_IN the root's folders with includeSubfolders, ASSET_ID ASC, pages of 1,000;
 *   "start" opens the scroll (count + first page), "next" continues one from the middle.
 * - poll: the sync engine's poll (asset-changes.ts): all states, the root's folders, changed since ten
 *   minutes before the newest change, DATE_LAST_MODIFIED ASC, pages of 1,000.
 * - quick search: quick downloads' text search (fetch-verified-file.ts): FILENAME or KEYWORDS containing
 *   a text, staged/pending/live, FILENAME ASC, page of 40 (+ count); the text is a noun and an
 *   adjective of the file names (~100 hits).
 */
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { Statement } from 'better-sqlite3';
import { DATABASE_FILE } from '../src/service/data-dir/secure-data-dir.js';
import { MainThreadProfiler } from './support/cpu-profile.js';
import { threadCpu } from './support/thread-cpu.js';
import { startBenchService } from './support/in-process-service.js';
import { fileNameText, seedSearchLibrary, type SearchLibrary } from './support/seed-search-library.js';
import { compileAssetQuery } from '../src/service/search/asset-query.js';
import { assetSearchRunner } from '../src/service/search/run-asset-search.js';
import { searchAccount } from '../src/service/search/search-account.js';
import type { Cursor } from '../src/service/search/keyset.js';
import { searchCriterion } from '../src/main/app/fetch-verified-file.js';
import { folderCriterion, allOf, stateCriterion, changedSinceCriterion, SYNCED_STATES, POLLED_STATES } from '../src/main/remote/remote-criteria.js';

export interface Percentiles {
  p50: number;
  p95: number;
}

/** How a shape is judged: a search by its p50, a listing page of 1,000 by its p50 over its hand-written SQL's. */
export type ShapeKind = 'search' | 'listing';

export interface ShapeResult {
  name: string;
  kind: ShapeKind;
  averageHits: number;
  handSql: Percentiles;
  compiledSql: Percentiles;
  service: Percentiles;
  /**
   * Main-thread CPU ms per request (the service's and its in-process client's), of the compiled SQL bare
   * and of the service: wall time moves with the shared machine's load, CPU time barely does.
   */
  cpuMs?: { compiledSql: number; service: number };
}

export interface SearchBenchResult {
  assets: number;
  seedMs: number;
  /** The library was seeded by an earlier run (BENCH_KEEP). */
  reused?: boolean;
  requests: number;
  shapes: ShapeResult[];
}

/** A search's p50 target (a page of at most 100 hits). */
export const SEARCH_TARGET_MS = 10;
/** A listing page's p50 target, over its hand-written SQL's p50. */
export const LISTING_TARGET_RATIO = 1.5;

function percentiles(samples: number[]): Percentiles {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { p50: at(0.5), p95: at(0.95) };
}

/** Up to `count` runs, stopping after `budgetMs` (at least 5 runs): a slow shape is still measured. */
async function time(count: number, run: (index: number) => Promise<void> | void, budgetMs = 10_000): Promise<number[]> {
  const samples: number[] = [];
  const until = performance.now() + budgetMs;
  for (let index = 0; index < count && (index < 5 || performance.now() < until); index++) {
    const started = performance.now();
    await run(index);
    samples.push(performance.now() - started);
  }
  return samples;
}

type Params = unknown[];
interface Shape {
  name: string;
  kind: ShapeKind;
  /** The request body (paged search) or scroll body for request `index`. */
  body(index: number): { from?: number; pageSize: number; criterion: object; sorts: object[] };
  /** Hand-written SQL: the count and page statements and their parameters for request `index`. */
  hand(index: number): { count: [Statement, Params] | undefined; page: [Statement, Params] };
  /** `next` continues a scroll from a cursor in its middle instead of starting one. */
  scroll?: 'start' | 'next';
}

/** Roots whose listing is continued (a scroll id is a cursor: continuing one again gives the same page). */
const SCROLLS = 10;

const placeholders = (count: number): string => Array.from({ length: count }, () => '?').join(', ');

function shapes(ctx: { db: import('better-sqlite3').Database }, accountId: string, library: SearchLibrary, cursors: Map<number, Cursor>): Shape[] {
  const { db } = ctx;
  const { foldersId, keywordsId, tops, keywords } = library;
  const leaves = tops.flatMap((top) => top.subs);
  const leaf = (index: number): string => leaves[(index * 37) % leaves.length] ?? '';
  const top = (index: number): { id: string; subs: string[] } => tops[(index * 7) % tops.length] ?? { id: '', subs: [] };
  const rootFolders = (index: number): string[] => [top(index).id, ...top(index).subs];
  const byModified = [{ field: { type: 'FIXED', fieldName: 'DATE_LAST_MODIFIED' }, order: 'DESC' }];
  const byId = [{ field: { type: 'FIXED', fieldName: 'ASSET_ID' }, order: 'ASC' }];
  const since = new Date(library.newestMs - 10 * 60_000).toISOString();
  const text = (index: number): string => fileNameText(library, (index * 7919) % library.assets);
  const folderCount = rootFolders(0).length;

  const byValue = (states: string, scope = 'a.'): string =>
    `FROM assets a JOIN asset_values v ON v.asset_id = a.id WHERE v.field_id = ? AND v.value = ? AND ${scope}account_id = ? AND ${scope}state IN (${states})`;
  // `+`: the page starts from the value's assets, not from the account's LIVE assets in date order (which
  // SQLite prefers once the id's covering index of migration 0024 exists, to skip the sort).
  const folderPage = db.prepare(`SELECT a.* ${byValue("'LIVE'", '+a.')} ORDER BY a.date_last_modified DESC, a.id DESC LIMIT 100`);
  const folderCount_ = db.prepare(`SELECT count(*) ${byValue("'LIVE'")}`);
  const inRoot = `a.id IN (SELECT asset_id FROM asset_values WHERE field_id = ? AND value IN (${placeholders(folderCount)}))`;
  const synced = "'STAGED', 'PENDING_APPROVAL', 'LIVE'";
  // `+`: the scope is checked on the root's assets, not used as an index key (else SQLite walks the
  // account's every asset by state).
  const listingWhere = `FROM assets a WHERE ${inRoot} AND +a.account_id = ? AND +a.state IN (${synced})`;
  // The count reads each asset's account and state from the id's covering index (migration 0024), not its row.
  const listingCount = db.prepare(`SELECT count(*) ${listingWhere.replace('FROM assets a', 'FROM assets a INDEXED BY assets_id_scope')}`);
  const listingFirst = db.prepare(`SELECT a.* ${listingWhere} ORDER BY a.id LIMIT 1000`);
  // Past the cursor in the folders' (field, value, asset) index too, not only on the assets.
  const listingNext = db.prepare(
    `SELECT a.* FROM assets a WHERE a.id IN (SELECT asset_id FROM asset_values WHERE asset_id > @after AND field_id = @field AND value IN (${placeholders(folderCount)}))
       AND +a.account_id = @account AND +a.state IN (${synced}) AND a.id > @after ORDER BY a.id LIMIT 1000`,
  );
  // `likelihood`: "since T" matches few assets, so SQLite starts from the date indexes (migration 0023)
  // instead of the root's every asset, as the compiler tells it.
  const pollWhere = `FROM assets a WHERE ${inRoot} AND +a.account_id = ? AND (likelihood(a.date_last_modified >= ?, 0.000001) OR likelihood(a.date_last_file_added >= ?, 0.000001))`;
  const pollCount = db.prepare(`SELECT count(*) ${pollWhere}`);
  const pollPage = db.prepare(`SELECT a.* ${pollWhere} ORDER BY a.date_last_modified, a.id LIMIT 1000`);
  // Candidates from the trigram indexes (migration 0021), then the exact tests; `+` keeps SQLite from
  // starting at the account's or the field's every row instead.
  const quickWhere = `FROM assets a JOIN asset_files f ON f.id = a.current_file_id
    WHERE a.id IN (SELECT g.asset_id FROM asset_files g WHERE g.rowid IN (SELECT rowid FROM file_name_trigrams WHERE filename LIKE @like)
                   UNION SELECT v.asset_id FROM asset_values v WHERE v.rowid IN (SELECT rowid FROM value_trigrams WHERE value LIKE @like) AND +v.field_id = @keywords)
      AND +a.account_id = @account AND +a.state IN (${synced})
      AND (f.filename LIKE @like OR EXISTS (SELECT 1 FROM asset_values k WHERE k.asset_id = a.id AND +k.field_id = @keywords AND k.value LIKE @like))`;
  const quickCount = db.prepare(`SELECT count(*) ${quickWhere}`);
  const quickPage = db.prepare(`SELECT a.* ${quickWhere} ORDER BY f.filename COLLATE NOCASE, a.id LIMIT 40`);

  return [
    {
      name: 'folder (FIELD_EQUALS, by date, 100)',
      kind: 'search',
      body: (index) => ({ from: 0, pageSize: 100, criterion: { type: 'FIELD_EQUALS', field: { type: 'FIELD', fieldId: foldersId }, value: leaf(index) }, sorts: byModified }),
      hand: (index) => ({ count: [folderCount_, [foldersId, leaf(index), accountId]], page: [folderPage, [foldersId, leaf(index), accountId]] }),
    },
    {
      name: 'keyword (FIELD_EQUALS KEYWORDS, by date, 100)',
      kind: 'search',
      body: (index) => ({ from: 0, pageSize: 100, criterion: { type: 'FIELD_EQUALS', field: { type: 'FIXED', fieldName: 'KEYWORDS' }, value: keywords[(index * 11) % keywords.length] }, sorts: byModified }),
      hand: (index) => {
        const params = [keywordsId, keywords[(index * 11) % keywords.length], accountId];
        return { count: [folderCount_, params], page: [folderPage, params] };
      },
    },
    {
      name: 'listing start (scroll, root of 21 folders, 1000)',
      kind: 'listing',
      scroll: 'start',
      body: (index) => ({ pageSize: 1000, criterion: allOf(stateCriterion(SYNCED_STATES), folderCriterion(foldersId, rootFolders(index))), sorts: byId }),
      hand: (index) => {
        const params = [foldersId, ...rootFolders(index), accountId];
        return { count: [listingCount, params], page: [listingFirst, params] };
      },
    },
    {
      name: 'listing next (scroll page 5 of ~9)',
      kind: 'listing',
      scroll: 'next',
      body: (index) => ({ pageSize: 1000, criterion: allOf(stateCriterion(SYNCED_STATES), folderCriterion(foldersId, rootFolders(index % SCROLLS))), sorts: byId }),
      hand: (index) => ({ count: undefined, page: [listingNext, [{ field: foldersId, account: accountId, after: cursors.get(index % SCROLLS)?.id ?? '' }, ...rootFolders(index % SCROLLS)]] }),
    },
    {
      name: 'poll (changed in 10 min, root, 1000)',
      kind: 'search',
      body: (index) => ({ from: 0, pageSize: 1000, criterion: allOf(stateCriterion(POLLED_STATES), folderCriterion(foldersId, rootFolders(index)), changedSinceCriterion(since)), sorts: [{ ...byModified[0], order: 'ASC' }] }),
      hand: (index) => {
        const params = [foldersId, ...rootFolders(index), accountId, since, since];
        return { count: [pollCount, params], page: [pollPage, params] };
      },
    },
    {
      name: 'quick search (FILENAME or KEYWORDS contain, 40)',
      kind: 'search',
      body: (index) => ({ from: 0, pageSize: 40, criterion: searchCriterion(text(index)), sorts: [{ field: { type: 'FIXED', fieldName: 'FILENAME' }, order: 'ASC' }] }),
      hand: (index) => {
        const params = [{ account: accountId, like: `%${text(index)}%`, keywords: keywordsId }];
        return { count: [quickCount, params], page: [quickPage, params] };
      },
    },
  ];
}

export async function benchSearch(assetCount = Number(process.env.BENCH_SEARCH_ASSETS ?? 1_000_000), requests = 50): Promise<SearchBenchResult> {
  // BENCH_KEEP=dir: the service's data dir, kept after the run; a later run with the same dir and
  // asset count searches the library seeded there instead of seeding it again.
  const bench = await startBenchService('asset-sync-search-bench-', process.env.BENCH_KEEP || undefined);
  try {
    const { running, accountId, token } = bench;
    const { ctx } = running;
    const library = seedSearchLibrary(ctx, accountId, assetCount);
    // A library seeded just now is in the page cache; one seeded by an earlier run may not be (other
    // benches since have filled the memory), and the first shape would time the disk. Read back once,
    // both are searched warm, as a service that has been running searches.
    if (library.reused) await readThrough(join(running.ctx.config.dataDir, DATABASE_FILE));
    const account = searchAccount(ctx.fields, { accountId, folders: null });
    const runner = assetSearchRunner(ctx.db);
    const post = async (path: string, body: object): Promise<{ totalResults: number; results: unknown[]; scrollId?: string }> => {
      const response = await fetch(`${running.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const answer = (await response.json()) as { totalResults: number; results: unknown[]; scrollId?: string };
      if (response.status !== 200 || !Array.isArray(answer.results)) throw new Error(`${path} failed: ${JSON.stringify(answer).slice(0, 300)}`);
      return answer;
    };

    // The scroll ids and cursors of page 5 of each root's listing, made before timing "next".
    // BENCH_CPU_PROFILE=dir: a main-thread CPU profile of each shape's service requests (summarise-profiles.ts reads them).
    const profileDir = process.env.BENCH_CPU_PROFILE;
    const profiler = profileDir === undefined ? undefined : new MainThreadProfiler(profileDir);
    const cursors = new Map<number, Cursor>();
    const scrollIds = new Map<number, string>();
    const result: ShapeResult[] = [];
    for (const shape of shapes(ctx, accountId, library, cursors)) {
      if (shape.scroll === 'next') {
        for (let index = 0; index < SCROLLS; index++) {
          const body = shape.body(index);
          const query = compileAssetQuery(account, body.criterion, body.sorts);
          let cursor: Cursor | undefined;
          for (let page = 0; page < 4; page++) cursor = runner.pageAfter(query, cursor, body.pageSize).last;
          if (cursor !== undefined) cursors.set(index, cursor);
          let answer = await post('/asset-scroll-searches', body);
          for (let page = 1; page < 4; page++) answer = await post('/asset-scroll-search-scrolls', { scrollId: answer.scrollId });
          scrollIds.set(index, answer.scrollId ?? '');
        }
      }
      const request = async (index: number): Promise<number> => {
        const body = shape.body(index);
        if (shape.scroll === 'next') return (await post('/asset-scroll-search-scrolls', { scrollId: scrollIds.get(index % SCROLLS) })).results.length;
        return (await post(shape.scroll === 'start' ? '/asset-scroll-searches' : '/asset-searches', body)).totalResults;
      };
      const handSql = await time(requests, (index) => {
        const { count, page } = shape.hand(index);
        // Counted as the routes count: only when the page is full.
        const rows = page[0].all(...page[1]);
        if (count !== undefined && rows.length >= shape.body(index).pageSize) count[0].pluck().get(...count[1]);
      });
      const mainCpuMs = (): number => {
        const main = threadCpu().main;
        return main === undefined ? NaN : main.userMs + main.systemMs;
      };
      const compiledCpuFrom = mainCpuMs();
      const compiledSql = await time(requests, (index) => {
        const body = shape.body(index);
        const query = compileAssetQuery(account, body.criterion, body.sorts);
        // What the routes run: the count only where the page cannot tell the total.
        if (shape.scroll === undefined) runner.pageWithTotal(query, 0, body.pageSize);
        else if (shape.scroll === 'start') runner.firstPageWithTotal(query, body.pageSize);
        else runner.pageAfter(query, cursors.get(index % SCROLLS), body.pageSize);
      });
      const compiledCpuMs = (mainCpuMs() - compiledCpuFrom) / compiledSql.length;
      // Warmed just before it is timed, on a new connection: the last one may have idled out while the
      // baselines ran, and the first request on it would fail.
      await request(0).catch(() => request(0));
      await time(
        10,
        async (index) => {
          await request(index);
        },
        2000,
      );
      let hits = 0;
      await profiler?.start();
      const serviceCpuFrom = mainCpuMs();
      const service = await time(requests, async (index) => {
        hits += await request(index);
      });
      const serviceCpuMs = (mainCpuMs() - serviceCpuFrom) / service.length;
      await profiler?.stop(shape.name.split(' (')[0]?.replace(/\W+/g, '-') ?? 'shape');
      result.push({ name: shape.name, kind: shape.kind, averageHits: hits / service.length, handSql: percentiles(handSql), compiledSql: percentiles(compiledSql), service: percentiles(service), cpuMs: { compiledSql: compiledCpuMs, service: serviceCpuMs } });
    }
    profiler?.close();
    return { assets: assetCount, seedMs: library.seedMs, reused: library.reused, requests, shapes: result };
  } finally {
    await bench.close();
  }
}

/** The shape's p50 over its hand-written SQL's. */
const ratio = (shape: ShapeResult): number => shape.service.p50 / shape.handSql.p50;
const meetsTarget = (shape: ShapeResult): boolean => (shape.kind === 'search' ? shape.service.p50 < SEARCH_TARGET_MS : ratio(shape) <= LISTING_TARGET_RATIO);

export function formatSearchBench(result: SearchBenchResult): string[] {
  const ms = (p: Percentiles): string => `p50 ${p.p50.toFixed(1)}, p95 ${p.p95.toFixed(1)}`;
  const below = (met: boolean): string => (met ? '' : '  BELOW TARGET');
  const searches = result.shapes.filter((shape) => shape.kind === 'search');
  const listings = result.shapes.filter((shape) => shape.kind === 'listing');
  const slowest = Math.max(...searches.map((shape) => shape.service.p50));
  const worstRatio = Math.max(...listings.map(ratio));
  return [
    `${result.assets} assets (2,000 folders, 2 keywords each), ${result.reused === true ? 'seeded by an earlier run (BENCH_KEEP)' : `seeded in ${(result.seedMs / 1000).toFixed(1)} s`}; ${result.requests} requests per shape; ms`,
    ...result.shapes.flatMap((shape) => [
      `  ${shape.name}, ~${shape.averageHits.toFixed(0)} hits`,
      `    baseline (hand-written SQL): ${ms(shape.handSql)}; compiled SQL bare: ${ms(shape.compiledSql)}; service (HTTP): ${ms(shape.service)}; ratio p50 ${ratio(shape).toFixed(1)}×${below(meetsTarget(shape))}`,
      ...(shape.cpuMs === undefined || Number.isNaN(shape.cpuMs.service)
        ? []
        : [`    main-thread CPU per request: compiled SQL bare ${shape.cpuMs.compiledSql.toFixed(1)}, service ${shape.cpuMs.service.toFixed(1)} (+${(shape.cpuMs.service - shape.cpuMs.compiledSql).toFixed(1)}, with its in-process client)`]),
    ]),
    `  slowest search p50 ${slowest.toFixed(1)} ms (target < ${SEARCH_TARGET_MS} ms for each search of at most 100 hits)${below(slowest < SEARCH_TARGET_MS)}`,
    `  listing pages: worst ratio ${worstRatio.toFixed(2)}× (target ≤ ${LISTING_TARGET_RATIO}× the hand-written SQL for each page of 1,000)${below(worstRatio <= LISTING_TARGET_RATIO)}`,
  ];
}

/** Reads `file` once from start to end, so its pages are in the page cache. */
async function readThrough(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(8 << 20);
    while ((await handle.read(buffer, 0, buffer.length, null)).bytesRead > 0);
  } finally {
    await handle.close();
  }
}
