/**
 * Benchmark: download transformations. Images per second for 4000×3000 JPEGs resized to 1000 px (JPG)
 * through a download batch job — POST, the job rendering them, and every rendition fetched over HTTP as
 * soon as a poll shows it (as `asset-sync download` does) —
 * beside sharp alone doing the same rendering on the same files, with the same parallelism, in the same
 * run (target ≥ 0.9). Each round uses images the service has not seen (renditions are cached per file).
 * Then the time a PDF's preview takes: rendered bare (MuPDF on its worker thread + sharp, with the
 * longest the event loop was kept waiting meanwhile), and from the upload's answer to the preview being
 * on disk, made by the service's background queue.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join } from 'node:path';
import sharp from 'sharp';
import { startBenchService, type BenchService } from './support/in-process-service.js';
import { alternatingRounds } from './support/fair-rounds.js';
import { formatThreadCpu, threadCpu, threadCpuSince, type ThreadCpu } from './support/thread-cpu.js';
import { MainThreadProfiler } from './support/cpu-profile.js';
import { ConcurrencyLimit } from '../src/shared/concurrency-limit.js';
import { createApiClient, staticTokenProvider } from '../src/main/api/index.js';
import { fetchVerifiedFile } from '../src/main/app/fetch-verified-file.js';
import { RENDER_CONCURRENCY, renderTimeline, type RenderTimelineEvent } from '../src/service/transforms/transform-cache.js';
import { renderPreview } from '../src/service/previews/render-preview.js';
import { DocumentRenderer } from '../src/service/previews/document-renderer.js';

export interface TransformBenchResult {
  images: number;
  concurrency: number;
  baselinePerSecond: number;
  servicePerSecond: number;
  ratio: number;
  /** The median of each round's ratio (ours' images/s over the baseline's of the same round). */
  pairedRatio: number;
  /** CPU per image, ms (median over rounds, all threads): the work each side did, which load barely moves. */
  cpuPerImageMs: { baseline: number; ours: number; libvipsBaseline: number; libvipsOurs: number; mainBaseline: number; mainOurs: number };
  /** Every round of each side: wall ms, process CPU ms (client, service and libvips threads alike), and ours' phases. */
  rounds: { baseline: RoundFigures; ours: RoundFigures & { phases: OurPhases } }[];
  pdfPreviewBareMs: number;
  pdfPreviewServiceMs: number;
  /** The longest the event loop waited while those bare renders ran (the page renders on a worker). */
  pdfLoopDelayMaxMs: number;
  /** /proc/loadavg's 1-minute figure as the rounds began and ended (the machine is shared). */
  load: { before: string; after: string };
}

const loadAverage = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ')[0] ?? '?';

export interface RoundFigures {
  wallMs: number;
  cpuMs: number;
  threads: ThreadCpu;
}

/**
 * Where a round of ours went, ms from its start: the first render started and the last ended (the
 * service's render timeline), the last rendition seen in a poll, the job seen ended, the last
 * rendition fetched.
 */
export interface OurPhases {
  firstRenderMs: number;
  lastRenderMs: number;
  lastSeenMs: number;
  endedMs: number;
  fetchedMs: number;
}

const IMAGES_PER_ROUND = Number(process.env.BENCH_TRANSFORM_IMAGES ?? 8);
/**
 * Rounds of each side, alternating. On a shared 2-core machine one side's round can take twice the
 * other's for reasons of its neighbours alone, so the verdict is the median of the rounds' ratios (each
 * ours beside the baseline run next to it), with the best rounds' ratio and CPU per image beside it.
 */
const ROUNDS = Number(process.env.BENCH_TRANSFORM_ROUNDS ?? 5);
const OPERATIONS = [
  { type: 'RESIZE', width: 1000, height: 1000, fit: 'INSIDE' },
  { type: 'CONVERT', format: 'JPG', quality: 82 },
];

const DESCRIPTION = { type: 'CUSTOM', candidateTransformations: [{ criteria: { type: 'MATCH_ALL' }, transformation: { operations: OPERATIONS } }] };

let noise: Buffer | undefined;

/** A photo-like 4000×3000 JPEG: noise over a gradient, so it neither compresses nor decodes trivially. */
async function photo(seed: number): Promise<Buffer> {
  const gradient = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="3000"><defs><linearGradient id="g"><stop offset="0" stop-color="#${(0x203040 + seed * 0x010203).toString(16).slice(-6)}"/><stop offset="1" stop-color="#e0c080"/></linearGradient></defs><rect width="4000" height="3000" fill="url(#g)"/></svg>`,
  );
  // One noise layer for every photo (making it is most of the cost); the gradient under it makes each distinct.
  noise ??= await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 24 } } }).raw().toBuffer();
  return sharp(gradient).composite([{ input: noise, raw: { width: 4000, height: 3000, channels: 3 }, blend: 'overlay' }]).jpeg({ quality: 90 }).toBuffer();
}

async function api(bench: BenchService, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${bench.running.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${bench.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? null : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

async function waitForJob(bench: BenchService, path: string, id: string): Promise<any> {
  for (;;) {
    const job = (await api(bench, 'GET', `${path}/${id}`)).result;
    if (job.state !== 'QUEUED' && job.state !== 'RUNNING') return job;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Uploads a file as a new asset; answers its id. */
async function upload(bench: BenchService, name: string, bytes: Buffer): Promise<{ assetId: string; asset: any }> {
  const created = await api(bench, 'POST', '/asset-and-upload-batch-jobs', { items: [{ batchItemId: 'u', path: `/bench/${name}`, size: bytes.length }] });
  const job = await waitForJob(bench, '/asset-and-upload-batch-jobs', created.result.id);
  const { assetId, upload: assetUpload } = job.successes.u;
  const parts = [];
  for (const part of assetUpload.parts) {
    const response = await fetch(part.url, { method: 'PUT', body: bytes.subarray(part.byteRange.start, part.byteRange.end), headers: { 'content-type': 'application/octet-stream' } });
    parts.push({ partNumber: part.partNumber, eTag: response.headers.get('etag') ?? '' });
  }
  const completed = await api(bench, 'POST', '/asset-upload-completions', { assetId, uploadId: assetUpload.uploadId, parts });
  return { assetId, asset: completed.result };
}

async function inParallel<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let item = items[next++]; item !== undefined; item = items[next++]) await work(item);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

export async function benchTransform(): Promise<TransformBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'asset-sync-transform-bench-'));
  const bench = await startBenchService('asset-sync-transform-bench-data-');
  const client = createApiClient({ server: bench.running.url, tokens: staticTokenProvider(bench.token) });
  try {
    const images = ROUNDS * IMAGES_PER_ROUND;
    const files: string[] = [];
    const assetIds: string[] = [];
    for (let index = 0; index < images; index++) {
      const bytes = await photo(index);
      const file = join(dir, `photo-${index}.jpg`);
      writeFileSync(file, bytes);
      files.push(file);
      assetIds.push((await upload(bench, `photo-${index}.jpg`, bytes)).assetId);
    }
    const warmBytes = await photo(images);
    const warmFile = join(dir, 'photo-warm.jpg');
    writeFileSync(warmFile, warmBytes);
    const warmAssetId = (await upload(bench, 'photo-warm.jpg', warmBytes)).assetId;
    await bench.running.previewsIdle();

    const processCpuMs = (): number => {
      const usage = process.cpuUsage();
      return (usage.user + usage.system) / 1000;
    };
    const rounds: TransformBenchResult['rounds'] = [];
    const loadBefore = loadAverage();
    const figures = (round: number): TransformBenchResult['rounds'][number] =>
      (rounds[round] ??= { baseline: { wallMs: 0, cpuMs: 0, threads: {} }, ours: { wallMs: 0, cpuMs: 0, threads: {}, phases: { firstRenderMs: 0, lastRenderMs: 0, lastSeenMs: 0, endedMs: 0, fetchedMs: 0 } } });
    const renders: RenderTimelineEvent[] = [];
    const onRender = (event: unknown): void => {
      renders.push(event as RenderTimelineEvent);
    };
    subscribe(renderTimeline.name, onRender);
    // BENCH_CPU_PROFILE=dir: a main-thread CPU profile of each round of ours (summarise-profiles.ts reads them).
    const profileDir = process.env.BENCH_CPU_PROFILE;
    const profiler = profileDir === undefined ? undefined : new MainThreadProfiler(profileDir);
    // Both sides warm, untimed, on a photo of their own: the first download job of a process compiles
    // and loads what every later one reuses (the job's, the rendition route's and the client's code),
    // which put the first render of round 1 at ~300 ms after its start against 10–30 in later rounds,
    // while sharp, the baseline's only code, was already warm from making the photos. A service runs
    // for days; a round measures its steady pace.
    const warm = await client.requestDownloads([{ batchItemId: 'w', assetId: warmAssetId, assetFileId: null }], { transformationDescription: DESCRIPTION });
    const warmItem = warm.successes.w;
    if (warmItem === undefined) throw new Error('the warm-up job rendered nothing');
    await fetchVerifiedFile(client, mkdtempSync(join(dir, 'warm-')), warmItem);
    await sharp(warmFile).rotate().resize(1000, 1000, { fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 82 }).toFile(`${warmFile}.out.jpg`);
    await alternatingRounds(ROUNDS, {
      baseline: async (round) => {
        const batch = files.slice(round * IMAGES_PER_ROUND, (round + 1) * IMAGES_PER_ROUND);
        const started = performance.now();
        const cpuStarted = processCpuMs();
        const threadsStarted = threadCpu();
        await inParallel(batch, RENDER_CONCURRENCY, async (file) => {
          await sharp(file).rotate().resize(1000, 1000, { fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 82 }).toFile(`${file}.${round}.out.jpg`);
        });
        figures(round).baseline = { wallMs: performance.now() - started, cpuMs: processCpuMs() - cpuStarted, threads: threadCpuSince(threadsStarted) };
      },
      ours: async (round) => {
        const batch = assetIds.slice(round * IMAGES_PER_ROUND, (round + 1) * IMAGES_PER_ROUND);
        const out = mkdtempSync(join(dir, `ours-${round}-`));
        await profiler?.start();
        const started = performance.now();
        const cpuStarted = processCpuMs();
        const threadsStarted = threadCpu();
        renders.length = 0;
        // As `asset-sync download` does, with its own client (node:http, its job polling) and its own
        // fetch: each rendition fetched to a verified file as soon as a poll shows it, while the job
        // renders the rest, RENDER_CONCURRENCY at a time.
        const fetchSlots = new ConcurrencyLimit(RENDER_CONCURRENCY);
        const fetches: Promise<unknown>[] = [];
        let lastSeenMs = 0;
        const outcome = await client.requestDownloads(
          batch.map((assetId, index) => ({ batchItemId: String(index), assetId, assetFileId: null })),
          {
            transformationDescription: DESCRIPTION,
            onItem: (_key, item) => {
              lastSeenMs = performance.now() - started;
              // A rendering that failed hands the original over (never an error): that would not be this bench's work.
              if (!item.url.includes('/renditions/')) throw new Error('not every item was rendered');
              fetches.push(fetchSlots.run(() => fetchVerifiedFile(client, out, item)));
            },
          },
        );
        const endedMs = performance.now() - started;
        if (fetches.length !== batch.length || Object.keys(outcome.failures).length > 0) throw new Error('not every item was rendered');
        await Promise.all(fetches);
        const fetchedMs = performance.now() - started;
        const renderAt = (phase: RenderTimelineEvent['phase']): number[] => renders.filter((event) => event.phase === phase).map((event) => event.at - started);
        const phases = { firstRenderMs: Math.min(...renderAt('start')), lastRenderMs: Math.max(...renderAt('end')), lastSeenMs, endedMs, fetchedMs };
        figures(round).ours = { wallMs: fetchedMs, cpuMs: processCpuMs() - cpuStarted, threads: threadCpuSince(threadsStarted), phases };
        await profiler?.stop(`ours-${round}`);
      },
    });
    profiler?.close();

    unsubscribe(renderTimeline.name, onRender);
    const load = { before: loadBefore, after: loadAverage() };

    // A PDF preview: a one-page document with a photo on it, as brochures are.
    const mupdf = await import('mupdf');
    const document = new mupdf.PDFDocument();
    const picture = document.addImage(new mupdf.Image(await sharp(files[0]).resize(1600).jpeg().toBuffer()));
    const resources = document.newDictionary();
    const xobjects = document.newDictionary();
    xobjects.put('Im0', picture);
    resources.put('XObject', xobjects);
    document.insertPage(-1, document.addPage([0, 0, 595, 842], 0, resources, 'q 1 0 0 1 0 0 cm 0.2 0.3 0.8 rg 40 40 515 200 re f Q q 515 0 0 386 40 400 cm /Im0 Do Q'));
    const pdf = Buffer.from(document.saveToBuffer('').asUint8Array());
    document.destroy();
    const pdfFile = join(dir, 'brochure.pdf');
    writeFileSync(pdfFile, pdf);
    const bareTimes: number[] = [];
    const documents = new DocumentRenderer();
    // The worker's first page also loads MuPDF's WASM: once, when the service renders its first document.
    await renderPreview('document', { path: pdfFile }, 'application/pdf', join(dir, 'preview-warm.webp'), documents);
    const loopDelay = monitorEventLoopDelay({ resolution: 5 });
    loopDelay.enable();
    for (let run = 0; run < 5; run++) {
      const started = performance.now();
      await renderPreview('document', { path: pdfFile }, 'application/pdf', join(dir, `preview-${run}.webp`), documents);
      bareTimes.push(performance.now() - started);
    }
    loopDelay.disable();
    await documents.close();
    const serviceTimes: number[] = [];
    for (let run = 0; run < 5; run++) {
      // Distinct bytes each time (a trailing comment), so each is a new blob with a new preview.
      const bytes = Buffer.concat([pdf, Buffer.from(`\n%run ${run}\n`)]);
      const { asset } = await upload(bench, `brochure-${run}.pdf`, bytes);
      const started = performance.now();
      await bench.running.previewsIdle();
      serviceTimes.push(performance.now() - started);
      if (asset.currentAssetFile?.previewUrl == null) throw new Error('the PDF got no preview URL');
    }
    const baselineBest = Math.max(...rounds.map((round) => IMAGES_PER_ROUND / (round.baseline.wallMs / 1000)));
    const serviceBest = Math.max(...rounds.map((round) => IMAGES_PER_ROUND / (round.ours.wallMs / 1000)));
    const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
    const libvipsMs = (threads: ThreadCpu): number => (threads.libvips?.userMs ?? 0) + (threads.libvips?.systemMs ?? 0);
    const mainMs = (threads: ThreadCpu): number => (threads.main?.userMs ?? 0) + (threads.main?.systemMs ?? 0);
    const perImage = (values: number[]): number => median(values) / IMAGES_PER_ROUND;
    return {
      pairedRatio: median(rounds.map((round) => round.baseline.wallMs / round.ours.wallMs)),
      cpuPerImageMs: {
        baseline: perImage(rounds.map((round) => round.baseline.cpuMs)),
        ours: perImage(rounds.map((round) => round.ours.cpuMs)),
        libvipsBaseline: perImage(rounds.map((round) => libvipsMs(round.baseline.threads))),
        libvipsOurs: perImage(rounds.map((round) => libvipsMs(round.ours.threads))),
        mainBaseline: perImage(rounds.map((round) => mainMs(round.baseline.threads))),
        mainOurs: perImage(rounds.map((round) => mainMs(round.ours.threads))),
      },
      images: IMAGES_PER_ROUND,
      concurrency: RENDER_CONCURRENCY,
      baselinePerSecond: baselineBest,
      servicePerSecond: serviceBest,
      ratio: serviceBest / baselineBest,
      rounds,
      pdfPreviewBareMs: median(bareTimes),
      pdfPreviewServiceMs: median(serviceTimes),
      pdfLoopDelayMaxMs: loopDelay.max / 1e6,
      load,
    };
  } finally {
    client.close();
    await bench.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function formatPhases(phases: OurPhases): string {
  const ms = (value: number): string => value.toFixed(0);
  return [
    `first render ${ms(phases.firstRenderMs)}`,
    `last render ended ${ms(phases.lastRenderMs)}`,
    `last rendition seen ${ms(phases.lastSeenMs)} (poll lag ${ms(phases.lastSeenMs - phases.lastRenderMs)})`,
    `job seen ended ${ms(phases.endedMs)}`,
    `fetched ${ms(phases.fetchedMs)} (fetch tail ${ms(phases.fetchedMs - phases.lastSeenMs)})`,
  ].join(', ');
}

export function formatTransformBench(result: TransformBenchResult): string[] {
  return [
    `${result.images} JPEGs of 4000×3000 resized to 1000 px JPG per round, ${result.concurrency} at a time, ${ROUNDS} rounds of each side`,
    `  baseline (sharp alone, file to file, best round): ${result.baselinePerSecond.toFixed(1)} images/s`,
    `  download job through asset-sync download's client (best round): ${result.servicePerSecond.toFixed(1)} images/s`,
    `  ratio, median of the ${ROUNDS} rounds' ratios: ${result.pairedRatio.toFixed(2)} (target ≥ 0.90)${result.pairedRatio >= 0.9 ? '' : '  BELOW TARGET'}; best rounds' ratio ${result.ratio.toFixed(2)}; load average ${result.load.before} → ${result.load.after}`,
    `  CPU per image, median (all threads / libvips' alone): baseline ${result.cpuPerImageMs.baseline.toFixed(0)} / ${result.cpuPerImageMs.libvipsBaseline.toFixed(0)} ms, ours ${result.cpuPerImageMs.ours.toFixed(0)} / ${result.cpuPerImageMs.libvipsOurs.toFixed(0)} ms (CPU ratio ${(result.cpuPerImageMs.baseline / result.cpuPerImageMs.ours).toFixed(2)}); main thread alone ${result.cpuPerImageMs.mainBaseline.toFixed(1)} vs ${result.cpuPerImageMs.mainOurs.toFixed(1)} ms`,
    ...result.rounds.map(
      (round, index) =>
        `  round ${index + 1}: baseline ${round.baseline.wallMs.toFixed(0)} ms (CPU ${round.baseline.cpuMs.toFixed(0)} ms), ours ${round.ours.wallMs.toFixed(0)} ms (CPU ${round.ours.cpuMs.toFixed(0)} ms)\n    ours' phases, ms from its start: ${formatPhases(round.ours.phases)}\n    CPU by thread, user+system ms: baseline ${formatThreadCpu(round.baseline.threads)}; ours ${formatThreadCpu(round.ours.threads)}`,
    ),
    `PDF preview (A4 page with a photo, 1024 px WEBP), median of 5:`,
    `  rendered bare (MuPDF on its worker + sharp):   ${result.pdfPreviewBareMs.toFixed(0)} ms (event loop delayed at most ${result.pdfLoopDelayMaxMs.toFixed(0)} ms meanwhile)`,
    `  service, upload answered → preview on disk:    ${result.pdfPreviewServiceMs.toFixed(0)} ms`,
  ];
}
