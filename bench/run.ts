/**
 * `npm run bench`: runs every benchmark and prints its figures beside the baseline measured in the
 * same run. Timings live here, never in tests: these machines are shared and noisy.
 * `npm run bench -- upload` runs only the benchmarks whose name contains "upload".
 */
import { benchLargeUpload } from './upload-large.js';

const filter = process.argv[2];
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
        `  ratio ${result.ratio.toFixed(2)} (target ≥ 0.80)${result.ratio >= 0.8 ? '' : '  BELOW TARGET'}`,
        `  service peak RSS ${result.serviceRssBytes === undefined ? 'n/a' : `${(result.serviceRssBytes / 1024 / 1024).toFixed(0)} MB`}`,
      ];
    },
  },
];

for (const bench of benches) {
  if (filter !== undefined && !bench.name.includes(filter)) continue;
  process.stdout.write(`# ${bench.name}\n`);
  for (const line of await bench.run()) process.stdout.write(`${line}\n`);
}
