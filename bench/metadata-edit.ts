/**
 * Benchmark: a metadata-edit batch job over 10,000 assets (selected by id, and by a folder criterion),
 * from POST to COMPLETED, beside a baseline of the same row changes made straight in SQLite in one
 * transaction in the same run (what the job does minus HTTP, validation, chunking and its journal).
 * Assets are seeded straight into the database; the service runs in-process.
 */
import { startBenchService } from './support/in-process-service.js';
import { assetSeeder } from '../test/support/seed-assets.js';

export interface MetadataEditBenchResult {
  assets: number;
  baselineMs: number;
  byIdsMs: number;
  byCriterionMs: number;
}

export async function benchMetadataEdit(assetCount = 10_000): Promise<MetadataEditBenchResult> {
  const bench = await startBenchService('asset-sync-edit-bench-');
  try {
    const { running, accountId, foldersId, token } = bench;
    const { ctx } = running;
    const caption = ctx.fields.create(accountId, { name: 'Caption', hasFixedOptions: false, hierarchical: false, multiValue: false }, ctx.nowIso());
    const folder = ctx.db.transaction(() => ctx.fieldOptions.ensurePath(accountId, foldersId, ['Campaign']))();
    const extra = ctx.db.transaction(() => ctx.fieldOptions.ensurePath(accountId, foldersId, ['Archive']))();
    const seeder = assetSeeder(ctx.db);
    const ids = ctx.db.transaction(() => Array.from({ length: assetCount }, () => seeder.insert({ accountId, state: 'LIVE', values: { [foldersId]: [folder] } })))();

    const api = async (method: string, path: string, body?: unknown): Promise<{ result: { id: string; state: string; failures?: object } }> => {
      const response = await fetch(`${running.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? null : JSON.stringify(body),
      });
      if (response.status !== 200) throw new Error(`${method} ${path}: ${await response.text()}`);
      return (await response.json()) as { result: { id: string; state: string } };
    };
    const runJob = async (selector: object, value: string): Promise<number> => {
      const started = performance.now();
      const created = await api('POST', '/asset-metadata-edit-batch-jobs', {
        selector,
        metadataFieldValueUpdates: [
          { fieldId: caption.id, type: 'BY_VALUES', values: [value] },
          { fieldId: foldersId, type: 'BY_IDS', values: [extra], operation: 'ADD' },
        ],
      });
      for (;;) {
        const job = (await api('GET', `/asset-metadata-edit-batch-jobs/${created.result.id}`)).result;
        if (job.state === 'COMPLETED') break;
        if (job.state === 'FAILED') throw new Error('the job failed');
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return performance.now() - started;
    };

    const deleteValues = ctx.db.prepare('DELETE FROM asset_values WHERE asset_id = ? AND field_id = ?');
    const insertValue = ctx.db.prepare('INSERT INTO asset_values (asset_id, field_id, ord, value) VALUES (?, ?, ?, ?)');
    const touch = ctx.db.prepare('UPDATE assets SET date_last_modified = ? WHERE id = ?');
    const started = performance.now();
    ctx.db.transaction(() => {
      const now = new Date().toISOString();
      for (const id of ids) {
        deleteValues.run(id, caption.id);
        insertValue.run(id, caption.id, 0, 'baseline');
        deleteValues.run(id, foldersId);
        insertValue.run(id, foldersId, 0, folder);
        insertValue.run(id, foldersId, 1, extra);
        touch.run(now, id);
      }
    })();
    const baselineMs = performance.now() - started;
    const byIdsMs = await runJob({ type: 'BY_IDS', assetIds: ids }, 'by ids');
    const byCriterionMs = await runJob({ type: 'BY_CRITERION', criterion: { type: 'FIELD_EQUALS', field: { type: 'FIELD', fieldId: foldersId }, value: folder } }, 'by criterion');
    return { assets: assetCount, baselineMs, byIdsMs, byCriterionMs };
  } finally {
    await bench.close();
  }
}

export function formatMetadataEditBench(result: MetadataEditBenchResult): string[] {
  const rate = (ms: number): string => `${((result.assets / ms) * 1000).toFixed(0)} assets/s`;
  return [
    `metadata edit (Caption REPLACE + Folders ADD) over ${result.assets} assets`,
    `  baseline (the same row changes in one SQLite transaction): ${result.baselineMs.toFixed(0)} ms (${rate(result.baselineMs)})`,
    `  job selected BY_IDS, POST → COMPLETED:                     ${result.byIdsMs.toFixed(0)} ms (${rate(result.byIdsMs)})`,
    `  job selected BY_CRITERION (a folder):                      ${result.byCriterionMs.toFixed(0)} ms (${rate(result.byCriterionMs)})`,
  ];
}
