/**
 * `asset-sync download`: fetches assets' current files into a folder — as they are, through a preset,
 * or as one zip — picked by id or by a search on file name and keywords. Every file is downloaded to a
 * hidden `.part` file named for its content (name and checksum), so running the command again after an
 * interruption resumes it with `Range`; it takes its name only once its size and MD5 match what the
 * service announced, and never replaces a different file of the same name (it gets `name (2).ext`).
 * Progress goes to stderr, the paths of the files to stdout. The fetching itself is shared with the
 * app's quick download (src/main/app/fetch-verified-file.ts).
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { createApiClient, type ApiClient } from '../api/index.js';
import { fetchVerifiedFile, searchCriterion, type WantedFile } from '../app/fetch-verified-file.js';
import { ConcurrencyLimit } from '../../shared/concurrency-limit.js';
import { SyncError } from '../model/sync-error.js';
import { createTokenProvider, readTokens } from '../auth/index.js';
import { CliError } from '../../platform/cli/cli-error.js';
import { parseFlags, urlFlag } from '../../platform/cli/parse-flags.js';
import { stateDirOf } from '../headless/client-dirs.js';
import type { CommandIo } from '../../platform/cli/command-io.js';
import { formatBytes, plural } from './progress-line.js';

export const downloadHelp = `Usage: asset-sync download ASSET_ID… [options]
       asset-sync download --search TEXT [options]

Downloads assets' current files into a folder, as they are or through a preset. Run it again after
an interruption and it resumes; each file is checked against the size and MD5 the service gives.
  --search TEXT    the assets whose file name or keywords contain TEXT (staged, pending or live; at most 1000)
  --preset NAME    a preset by name or id, e.g. "Web (1000 px JPG)"; files it does not apply to come as they are
  --original       the files as they are (the default)
  --zip            one zip of them all instead of one file each
  --out DIR        where the files go (default: the current directory; created when missing)
  --server URL     the asset service (default: the one you signed in to)
  --state DIR      Asset Sync's state directory (where the sign-in is kept)`;

const SEARCH_LIMIT = 1000;

class Progress {
  private done = 0;
  private bytes = 0;
  private totalBytes = 0;
  constructor(
    private readonly io: CommandIo,
    private files: number,
  ) {}
  /** A file the job has handed over: its bytes join the total. */
  expect(size: number): void {
    this.totalBytes += size;
  }
  /** The number of files, once the job has said which items failed (or that it is one zip). */
  setFiles(files: number): void {
    this.files = files;
  }
  add(bytes: number): void {
    this.bytes += bytes;
    this.io.live?.(`↓ ${this.done}/${plural(this.files, 'file')} · ${formatBytes(this.bytes)} of ${formatBytes(this.totalBytes)}`);
  }
  fileDone(path: string, note: string): void {
    this.done++;
    this.io.live?.('');
    this.io.err(`${path}${note}`);
  }
}

/**
 * Files fetched at once. Each GET of a web-sized rendition is mostly waiting (a loopback round trip and
 * the service reading its file), so a batch of them one after the other spends most of its time idle;
 * a few at a time keep the link busy without flooding the service.
 */
const FETCH_CONCURRENCY = 4;

/**
 * Fetches files as they are added, FETCH_CONCURRENCY at a time, and prints each path in the order
 * added. Files of one name go one after the other in that order, so which keeps the name (and which
 * gets `name (2)`) never depends on timing, and two items of the same bytes never write one `.part`
 * file at once. The first failure stops the rest and is the one `finish` reports.
 */
class FetchQueue {
  private readonly failed = new AbortController();
  private readonly signal: AbortSignal;
  private firstError: Error | undefined;
  private readonly slots = new ConcurrencyLimit(FETCH_CONCURRENCY);
  private readonly lastOfName = new Map<string, Promise<unknown>>();
  private readonly paths: Promise<string>[] = [];
  private printed: Promise<void> = Promise.resolve();

  constructor(
    private readonly api: ApiClient,
    private readonly dir: string,
    private readonly progress: Progress,
    private readonly io: CommandIo,
    signal: AbortSignal,
  ) {
    this.signal = AbortSignal.any([signal, this.failed.signal]);
  }

  add(item: WantedFile): void {
    this.progress.expect(item.size);
    const path = (this.lastOfName.get(item.filename) ?? Promise.resolve()).then(() => this.slots.run(() => fetchOne(this.api, this.dir, item, this.progress, this.signal)));
    this.lastOfName.set(
      item.filename,
      path.catch((error: unknown) => {
        this.firstError ??= error instanceof Error ? error : new Error(String(error));
        this.failed.abort();
      }),
    );
    this.paths.push(path);
    // Printed in the order added, each once it and those before it are there; nothing after a failure.
    this.printed = this.printed.then(async () => {
      if (this.firstError === undefined) this.io.out(await path);
    });
    this.printed.catch(() => undefined);
  }

  /** Waits for every file added; throws the first failure. */
  async finish(): Promise<void> {
    await Promise.allSettled([...this.paths, this.printed]);
    if (this.firstError !== undefined) throw this.firstError;
  }
}

async function fetchOne(api: ApiClient, dir: string, wanted: WantedFile, progress: Progress, signal: AbortSignal): Promise<string> {
  let fetched;
  try {
    fetched = await fetchVerifiedFile(api, dir, wanted, { signal, onProgress: (bytes) => progress.add(bytes) });
  } catch (error) {
    if (error instanceof SyncError && error.code === 'CHECKSUM_MISMATCH') throw new CliError('FAILED', `${error.message}; run the command again.`);
    throw error;
  }
  progress.fileDone(fetched.path, fetched.alreadyThere ? ' (already there)' : fetched.resumedFrom > 0 ? ` (resumed at ${formatBytes(fetched.resumedFrom)})` : '');
  return fetched.path;
}

async function assetIdsOf(api: ApiClient, positionals: string[], search: string | undefined): Promise<string[]> {
  if (search === undefined) return positionals;
  const page = await api.searchAssets({ criterion: searchCriterion(search), sorts: [{ field: { type: 'FIXED', fieldName: 'FILENAME' }, order: 'ASC' }], from: 0, pageSize: SEARCH_LIMIT });
  if (page.totalResults > SEARCH_LIMIT) throw new CliError('USAGE', `--search "${search}" matches ${page.totalResults} assets; narrow it to at most ${SEARCH_LIMIT}.`);
  return page.results.map((envelope) => envelope.result.id);
}

async function presetIdOf(api: ApiClient, name: string): Promise<string> {
  const presets = await api.listPresetTransformations();
  const found = presets.find((preset) => preset.id === name) ?? presets.find((preset) => preset.name.toLowerCase() === name.toLowerCase());
  if (found === undefined) {
    throw new CliError('NOT_FOUND', `No preset "${name}". The service offers: ${presets.map((preset) => `"${preset.name}"`).join(', ') || 'none'}.`);
  }
  return found.id;
}

export async function downloadCommand(args: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseFlags('download', args, {
    search: { type: 'string' },
    preset: { type: 'string' },
    original: { type: 'boolean' },
    zip: { type: 'boolean' },
    out: { type: 'string' },
    server: { type: 'string' },
    state: { type: 'string' },
  }, { positionals: Number.POSITIVE_INFINITY });
  if (values.help === true) {
    io.out(downloadHelp);
    return 0;
  }
  if ((positionals.length > 0) === (values.search !== undefined)) {
    throw new CliError('USAGE', 'asset-sync download needs asset ids or --search TEXT, not both (see `asset-sync download --help`).');
  }
  if (values.search?.trim() === '') throw new CliError('USAGE', '--search must not be empty.');
  if (values.preset !== undefined && values.original === true) throw new CliError('USAGE', '--preset and --original exclude each other.');
  const stateDir = stateDirOf(values.state, io.env);
  const server = urlFlag('server', values.server) ?? (await readTokens(stateDir).catch(() => undefined))?.server;
  if (server === undefined) throw new CliError('USAGE', 'asset-sync download needs --server URL (or sign in first with `asset-sync login --server URL`).');
  const dir = resolve(values.out ?? '.');
  mkdirSync(dir, { recursive: true });

  const api = createApiClient({ server, tokens: createTokenProvider({ stateDir, env: io.env }), env: io.env });
  const abort = new AbortController();
  void io.untilInterrupted().then(() => abort.abort());
  try {
    const assetIds = [...new Set(await assetIdsOf(api, positionals, values.search))];
    if (assetIds.length === 0) {
      io.err(`No asset matches "${values.search ?? ''}".`);
      return 1;
    }
    const transformationDescription = values.preset === undefined ? undefined : { type: 'PRESET', presetTransformationId: await presetIdOf(api, values.preset) };
    const progress = new Progress(io, values.zip === true ? 1 : assetIds.length);
    const queue = new FetchQueue(api, dir, progress, io, abort.signal);
    // Each file is fetched as soon as the job hands it over, while the job still renders the rest,
    // in the order asked: item i once every item before it has come or failed (a failed
    // item holds none of the later ones back; its error is reported at the end).
    const arrived = new Map<number, WantedFile | undefined>();
    let next = 0;
    const settle = (key: string, item: WantedFile | undefined): void => {
      const index = Number(key);
      if (arrived.has(index)) return;
      arrived.set(index, item);
      for (; arrived.has(next); next++) {
        const file = arrived.get(next);
        if (file !== undefined) queue.add(file);
      }
    };
    const onItem = (key: string, item: WantedFile): void => settle(key, item);
    const onItemFailed = (key: string): void => settle(key, undefined);
    let outcome;
    try {
      outcome = await api.requestDownloads(
        assetIds.map((assetId, index) => ({ batchItemId: String(index), assetId, assetFileId: null })),
        { transformationDescription, zip: values.zip === true, ...(values.zip === true ? {} : { onItem, onItemFailed }) },
      );
    } catch (error) {
      // Files already fetching are let finish (or fail) before the command ends with the job's error.
      await queue.finish().catch(() => undefined);
      throw error;
    }
    if (outcome.zip === undefined) {
      // From a service that shows items only at the end (the hosted one), they all come now.
      assetIds.forEach((_, index) => settle(String(index), outcome.successes[String(index)]));
      progress.setFiles(Object.keys(outcome.successes).length);
    } else if (Object.keys(outcome.successes).length > 0) {
      queue.add({ url: outcome.zip.zipUrl, filename: `assets-${outcome.zip.checksum.slice(0, 12)}.zip`, size: outcome.zip.size, checksum: outcome.zip.checksum });
    }
    try {
      await queue.finish();
    } finally {
      io.live?.('');
      // The failed items last, after every file that could be fetched: each with its asset, why and code.
      for (const [key, error] of Object.entries(outcome.failures)) io.err(`${assetIds[Number(key)] ?? key}: ${error.message} [${error.code}]`);
    }
    return Object.keys(outcome.failures).length === 0 ? 0 : 1;
  } finally {
    api.close();
  }
}

