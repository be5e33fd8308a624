/**
 * Benchmark: `POST /asset-searches` over 100,000 assets in ~200 folders, filtered by folder and sorted by
 * DATE_LAST_MODIFIED (DESC), beside two baselines run on the same database in the same process:
 * a hand-written SQL query for the same page and count, and the compiler's own SQL run bare (no HTTP, no
 * rendering). Assets are inserted straight into SQLite in a temp data dir (uploading 100k files would
 * measure uploads, not search); the service runs in-process. Target: p50 < 50 ms.
 */
import { startBenchService } from './support/in-process-service.js';
import { compileAssetQuery } from '../src/service/search/asset-query.js';
import { assetSearchRunner } from '../src/service/search/run-asset-search.js';
import { searchAccount } from '../src/service/search/search-account.js';
import { assetSeeder } from '../test/support/seed-assets.js';

export interface Percentiles {
  p50: number;
  p95: number;
}

export interface SearchBenchResult {
  assets: number;
  folders: number;
  requests: number;
  pageSize: number;
  averageHits: number;
  handSql: Percentiles;
  compiledSql: Percentiles;
  service: Percentiles;
  serviceWithSubfolders: Percentiles;
}

function percentiles(samples: number[]): Percentiles {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { p50: at(0.5), p95: at(0.95) };
}

async function time(count: number, run: (index: number) => Promise<void> | void): Promise<number[]> {
  const samples: number[] = [];
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    await run(index);
    samples.push(performance.now() - started);
  }
  return samples;
}

export async function benchSearch(assetCount = Number(process.env.BENCH_SEARCH_ASSETS ?? 100_000), requests = 200, pageSize = 100): Promise<SearchBenchResult> {
  const bench = await startBenchService('asset-sync-search-bench-');
  try {
    const { running, accountId, foldersId, token } = bench;
    const { ctx } = running;

    // 20 top folders with 10 subfolders each; every asset sits in one subfolder. About 91 % are LIVE
    // (every 11th is STAGED: 11 shares no factor with the 200 folders, so each folder gets some of both).
    const tops = Array.from({ length: 20 }, (_, index) => `Top ${index}`);
    const { topIds, leafIds } = ctx.db.transaction(() => ({
      topIds: tops.map((top) => ctx.fieldOptions.ensurePath(accountId, foldersId, [top])),
      leafIds: tops.flatMap((top) => Array.from({ length: 10 }, (_, index) => ctx.fieldOptions.ensurePath(accountId, foldersId, [top, `Sub ${index}`]))),
    }))();
    const seeder = assetSeeder(ctx.db);
    const year = Date.UTC(2026, 0, 1);
    ctx.db.transaction(() => {
      for (let index = 0; index < assetCount; index++) {
        seeder.insert({
          accountId,
          state: index % 11 === 0 ? 'STAGED' : 'LIVE',
          filename: `file-${index}.jpg`,
          fileType: 'IMAGE',
          dateLastModified: new Date(year + ((index * 7919) % 31_536_000) * 1000).toISOString(),
          values: { [foldersId]: [leafIds[index % leafIds.length] ?? ''] },
        });
      }
    })();

    const leaf = (index: number): string => leafIds[(index * 37) % leafIds.length] ?? '';
    const sorts = [{ field: { type: 'FIXED', fieldName: 'DATE_LAST_MODIFIED' }, order: 'DESC' }];
    const criterionFor = (optionId: string, includeSubfolders = false) => ({ type: 'FIELD_EQUALS', field: { type: 'FIELD', fieldId: foldersId }, value: optionId, includeSubfolders });

    const handPage = ctx.db.prepare(
      `SELECT a.* FROM assets a JOIN asset_values v ON v.asset_id = a.id
        WHERE v.field_id = ? AND v.value = ? AND a.account_id = ? AND a.state = 'LIVE'
        ORDER BY a.date_last_modified DESC, a.id DESC LIMIT ?`,
    );
    const handCount = ctx.db.prepare(
      `SELECT count(*) FROM assets a JOIN asset_values v ON v.asset_id = a.id WHERE v.field_id = ? AND v.value = ? AND a.account_id = ? AND a.state = 'LIVE'`,
    );
    const account = searchAccount(ctx.fields, { accountId, folders: null });
    const runner = assetSearchRunner(ctx.db);
    const search = async (criterion: object): Promise<number> => {
      const response = await fetch(`${running.url}/asset-searches`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ from: 0, pageSize, criterion, sorts }),
      });
      const body = (await response.json()) as { totalResults?: number; results?: unknown[] };
      if (response.status !== 200 || body.results?.length !== Math.min(pageSize, body.totalResults ?? 0)) throw new Error(`search failed: ${JSON.stringify(body).slice(0, 300)}`);
      return body.totalResults ?? 0;
    };

    let hits = 0;
    await time(20, async (index) => {
      await search(criterionFor(leaf(index)));
    });
    const handSql = await time(requests, (index) => {
      handCount.pluck().get(foldersId, leaf(index), accountId);
      handPage.all(foldersId, leaf(index), accountId, pageSize);
    });
    const compiledSql = await time(requests, (index) => {
      const query = compileAssetQuery(account, criterionFor(leaf(index)), sorts);
      runner.count(query);
      runner.page(query, 0, pageSize);
    });
    const service = await time(requests, async (index) => {
      hits += await search(criterionFor(leaf(index)));
    });
    const serviceWithSubfolders = await time(requests, async (index) => {
      await search(criterionFor(topIds[index % topIds.length] ?? '', true));
    });
    return {
      assets: assetCount,
      folders: topIds.length + leafIds.length,
      requests,
      pageSize,
      averageHits: hits / requests,
      handSql: percentiles(handSql),
      compiledSql: percentiles(compiledSql),
      service: percentiles(service),
      serviceWithSubfolders: percentiles(serviceWithSubfolders),
    };
  } finally {
    await bench.close();
  }
}
