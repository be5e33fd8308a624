/**
 * `npm run bench`: runs every benchmark and prints its figures beside the baseline measured in the
 * same run. Timings live here, never in tests: these machines are shared and noisy.
 * `npm run bench -- upload` runs only the benchmarks whose name contains "upload".
 * `--write-doc` also records each bench run (docs/benchmarks.json: output, date, commit, machine, load)
 * and renders docs/benchmarks.md's figures from the records, so they are never typed by hand.
 * `--render-doc` runs nothing: it renders the figures again from the records as they are (after a
 * change to how they are rendered).
 */
import { fileURLToPath } from 'node:url';
import { machineFacts, oneMinuteLoad, readRecords, writeRecords, type BenchRecord } from './support/bench-record.js';
import { renderFigures, writeFiguresInto } from './support/figures-doc.js';
import { benchLargeUpload } from './upload-large.js';
import { benchSearch, formatSearchBench } from './search.js';
import { benchMetadataEdit, formatMetadataEditBench } from './metadata-edit.js';
import { benchRemoteLatency, formatRemoteLatencyBench } from './remote-latency.js';
import { benchInitialDownload, formatInitialDownloadBench } from './download-initial.js';
import { benchLocalScan, formatLocalScanBench } from './local-scan.js';
import { benchEngineScan, formatEngineScanBench } from './local-scan-engine.js';
import { benchSyncLargeFile, benchSyncSmallFiles, formatSyncBench } from './sync-engine.js';
import { benchTransform, formatTransformBench } from './transform.js';
import { benchJobResults, formatJobResultsBench } from './job-results.js';
import { benchUiBundle, formatUiBundleBench } from './ui-bundle.js';
import { benchUiActivity, formatUiActivityBench } from './ui-activity.js';
import { benchUiStart, formatUiStartBench } from './ui-start.js';
import { benchPortalPasscode, formatPortalPasscodeBench } from './portal-passcode.js';
import { benchDropAbandoned, formatDropAbandonedBench } from './drop-abandoned.js';
import { benchPeers, formatPeersBench } from './peers.js';

const args = process.argv.slice(2);
const writeDoc = args.includes('--write-doc');
const renderOnly = args.includes('--render-doc');
const unknown = args.find((arg) => arg.startsWith('--') && arg !== '--write-doc' && arg !== '--render-doc');
if (unknown !== undefined) {
  process.stderr.write(`Unknown flag ${unknown}. Usage: npm run bench [-- NAME] [-- --write-doc | --render-doc]\n`);
  process.exit(2);
}
const filter = args.find((arg) => !arg.startsWith('--'));
const benches: { name: string; run: () => Promise<string[]> }[] = [
  {
    name: 'upload-1gib',
    run: async () => {
      const result = await benchLargeUpload();
      const mib = result.sizeBytes / 1024 / 1024;
      return [
        `${mib} MiB multipart upload (64 MiB parts, 4 in flight)`,
        `  baseline (bare Node PUT server: md5 + write):  ${result.baselineMBps.toFixed(0)} MB/s`,
        `  asset service (job + parts + completion):      ${result.serviceMBps.toFixed(0)} MB/s`,
        `  ratio ${result.ratio.toFixed(2)} (target ≥ 0.95)${result.ratio >= 0.95 ? '' : '  BELOW TARGET'}`,
        `  service phases: job ${result.phases.jobMs.toFixed(0)} ms, parts ${result.phases.partsMs.toFixed(0)} ms, completion ${result.phases.completionMs.toFixed(0)} ms`,
        `  CPU s (client + server): baseline ${(result.cpu.baselineClientMs / 1000).toFixed(1)} + ${(result.cpu.baselineServerMs / 1000).toFixed(1)}, service ${(result.cpu.serviceClientMs / 1000).toFixed(1)} + ${(result.cpu.serviceServerMs / 1000).toFixed(1)}`,
        `  service peak RSS ${result.serviceRssBytes === undefined ? 'n/a' : `${(result.serviceRssBytes / 1024 / 1024).toFixed(0)} MB`}`,
      ];
    },
  },
  { name: 'search-1m', run: async () => formatSearchBench(await benchSearch()) },
  {
    name: 'metadata-edit-10k',
    run: async () => formatMetadataEditBench(await benchMetadataEdit()),
  },
  {
    name: 'remote-latency',
    run: async () => formatRemoteLatencyBench(await benchRemoteLatency()),
  },
  {
    name: 'download-10k',
    run: async () => formatInitialDownloadBench(await benchInitialDownload()),
  },
  {
    name: 'transform',
    run: async () => formatTransformBench(await benchTransform()),
  },
  { name: 'job-results-1k', run: async () => formatJobResultsBench(await benchJobResults()) },
  {
    name: 'sync-10k-small',
    run: async () => formatSyncBench('10,000 PNGs of 4 KiB (noise pixels) in 100 folders, initial sync', await benchSyncSmallFiles(), 0.8),
  },
  {
    name: 'sync-1gib',
    run: async () => formatSyncBench('one 1 GiB file, initial sync', await benchSyncLargeFile(), 0.95),
  },
  { name: 'ui-bundle', run: async () => formatUiBundleBench(await benchUiBundle()) },
  { name: 'ui-start', run: async () => formatUiStartBench(await benchUiStart()) },
  { name: 'ui-activity-100k', run: async () => formatUiActivityBench(await benchUiActivity()) },
  { name: 'portal-passcode', run: async () => formatPortalPasscodeBench(await benchPortalPasscode()) },
  { name: 'drop-abandoned-10k', run: async () => formatDropAbandonedBench(await benchDropAbandoned()) },
  // Syncthing and rclone beside the engine; each skipped with a line when it is not installed.
  { name: 'peers-10k-small', run: async () => formatPeersBench(await benchPeers()) },
  // Last: it deletes 100,000 files at its end, and for a minute or more after that every file created
  // on this file system (ext4 without a journal skips recently freed inodes, scanning past each one)
  // costs far more, which the file-heavy benches above would pay on one side or the other.
  {
    name: 'local-scan-100k',
    run: async () => formatLocalScanBench(await benchLocalScan()),
  },
  // Last of all: it writes and deletes 1,000,000 files (about a minute), see above.
  { name: 'local-scan-1m', run: async () => formatEngineScanBench(await benchEngineScan()) },
];

const recordsFile = fileURLToPath(new URL('../docs/benchmarks.json', import.meta.url));
const docFile = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));
const records = readRecords(recordsFile);
const facts = machineFacts();
const names = benches.map((bench) => bench.name);

if (renderOnly) {
  writeFiguresInto(docFile, renderFigures([...records.values()], names));
  process.stdout.write(`rendered the figures of ${docFile} from ${records.size} records\n`);
  process.exit(0);
}

for (const bench of benches) {
  if (filter !== undefined && !bench.name.includes(filter)) continue;
  process.stdout.write(`# ${bench.name}\n`);
  const started = { date: new Date().toISOString(), load: oneMinuteLoad() };
  const lines = await bench.run();
  for (const line of lines) process.stdout.write(`${line}\n`);
  if (!writeDoc) continue;
  const record: BenchRecord = { name: bench.name, date: started.date, ...facts, load: { before: started.load, after: oneMinuteLoad() }, lines };
  records.set(bench.name, record);
  // After each bench, so a long run that stops half-way keeps what it measured.
  writeRecords(recordsFile, records, names);
  writeFiguresInto(docFile, renderFigures([...records.values()], names));
}
