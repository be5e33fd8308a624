/**
 * Benchmark: what a job's per-item commits cost as it grows. A job of 1,000 items, each committed on
 * its own (as a download job with a transformation commits each rendition as it is made), its input a
 * download job's (batchItemId, assetId, assetFileId per item), each result the size of a download item (a signed URL, name, size, checksum, type). Reports the bytes this
 * process wrote (/proc/self/io `wchar`: SQLite's WAL and database writes) and the wall time of the job,
 * and the GET of the finished job. Results stored as one JSON text per job grow each commit's write
 * with the job (O(n²) bytes over it); stored as rows, each commit writes its item.
 */
import { readFileSync } from 'node:fs';
import { startBenchService } from './support/in-process-service.js';
import { JobRunner } from '../src/service/jobs/job-runner.js';
import { jobsRepo, toJob } from '../src/service/jobs/jobs-repo.js';

export interface JobResultsBenchResult {
  items: number;
  bytesWritten: number;
  jobMs: number;
  /** Bytes of the job's answer (its JSON), and ms to build it from the database. */
  answerBytes: number;
  answerMs: number;
}

const ITEMS = 1000;

function bytesWrittenSoFar(): number {
  const line = readFileSync('/proc/self/io', 'utf8').split('\n').find((entry) => entry.startsWith('wchar:'));
  return Number(line?.split(/\s+/)[1] ?? 0);
}

export async function benchJobResults(): Promise<JobResultsBenchResult> {
  const bench = await startBenchService('asset-sync-job-results-bench-');
  try {
    const { ctx } = bench.running;
    const jobs = jobsRepo(ctx.db);
    // A runner of its own on the service's database, for a job kind that commits one item at a time.
    const runner = new JobRunner(ctx, jobs);
    runner.register<{ items: { batchItemId: string; assetId: string; assetFileId: null }[] }, string>({
      type: 'JobResultsBenchJob',
      chunkSize: 1,
      items: (input) => input.items.map((item) => ({ key: item.batchItemId, item: item.batchItemId })),
      runItem: (item) => ({
        url: `${ctx.config.publicUrl ?? 'http://127.0.0.1:1'}/files/0191d7c8-0000-7000-8000-${item.padStart(12, '0')}/renditions/${'ab'.repeat(32)}?expires=1764201600&signature=${'cd'.repeat(32)}`,
        filename: `photo-${item}.jpg`,
        size: 123456,
        checksum: 'ef'.repeat(16),
        contentType: 'image/jpeg',
      }),
    });
    const admin = ctx.accounts.userByEmail(ctx.config.adminEmail);
    if (admin === undefined) throw new Error('no admin');
    await bench.running.jobsIdle();
    const row = jobs.create(bench.accountId, admin.id, 'JobResultsBenchJob', { items: Array.from({ length: ITEMS }, (_, index) => ({ batchItemId: String(index), assetId: `0191d7c8-1111-7000-8000-${String(index).padStart(12, '0')}`, assetFileId: null })) }, ctx.nowIso());
    const written = bytesWrittenSoFar();
    const started = performance.now();
    runner.kick();
    await runner.idle();
    const jobMs = performance.now() - started;
    const bytesWritten = bytesWrittenSoFar() - written;
    // The answer a GET of the finished job builds (read, assemble, serialise): median of 21.
    const answerTimes: number[] = [];
    let answer = '';
    for (let run = 0; run < 21; run++) {
      const answerStarted = performance.now();
      const done = jobs.get(bench.accountId, row.id) ?? row;
      answer = JSON.stringify(toJob(done, jobs.results(done)));
      answerTimes.push(performance.now() - answerStarted);
    }
    const answerMs = answerTimes.sort((a, b) => a - b)[10] ?? 0;
    await runner.close();
    if (!answer.includes('"state":"COMPLETED"')) throw new Error('the job did not complete');
    return { items: ITEMS, bytesWritten, jobMs, answerBytes: answer.length, answerMs };
  } finally {
    await bench.close();
  }
}

export function formatJobResultsBench(result: JobResultsBenchResult): string[] {
  return [
    `a job of ${result.items.toLocaleString('en')} items, each committed on its own (results of a download item's size)`,
    `  bytes written: ${(result.bytesWritten / 1024 / 1024).toFixed(1)} MiB (${(result.bytesWritten / result.items / 1024).toFixed(1)} KiB per item); job ${result.jobMs.toFixed(0)} ms`,
    `  the finished job's answer: ${(result.answerBytes / 1024).toFixed(0)} KiB JSON, built in ${result.answerMs.toFixed(1)} ms (median of 21)`,
  ];
}
