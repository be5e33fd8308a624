/**
 * Quick download, the app's side: search assets by file name and keywords, read the service's
 * presets, and fetch one asset's file — as it is or through a preset — into the downloads folder with
 * the same resumable, verified machinery as `asset-sync download` (src/main/app/). Each download
 * is pushed as `quick-download` events (at most one progress event per `progressMs`) and, once in
 * place, remembered as a recent download for the tray. It never writes over an existing file: a name
 * that is taken gets `name (2).ext`. It offers for a file only the presets the service says transform
 * it, says "Original" when the original is what arrived, and names a rendition for its preset.
 *
 * Created by the app controller, which passes in the signed-in API and where things are kept.
 */
import { mkdir } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { ApiClient } from '../api/index.js';
import type { Asset } from '../../shared/api/resources.js';
import { fetchVerifiedFile, searchCriterion } from './fetch-verified-file.js';
import type { QuickDownloadRequest, QuickDownloadView, QuickPreset, QuickSearchResult, RecentQuickDownload } from '../../shared/bridge/quick-download.js';
import { toBridgeError } from '../../shared/bridge/bridge-error.js';
import { AppError } from './app-error.js';
import { thumbnailUrl } from './thumbnail-url.js';

/** How many recent downloads are remembered (the tray shows them all). */
export const RECENT_LIMIT = 8;
const SEARCH_MAX = 100;
const TEXT_MAX = 200;

export interface QuickDownloadsDeps {
  /** The signed-in account's API (throws NOT_SIGNED_IN without one). */
  api(): ApiClient;
  /** The folder downloads land in, as the settings say now. */
  folder(): string;
  /** The remembered recent downloads, newest first, and how to keep a new list. */
  recent(): RecentQuickDownload[];
  remember(recent: RecentQuickDownload[]): void;
  /** Shows a file in the file manager. */
  reveal?: (path: string) => Promise<void>;
  now(): number;
  /** A download moved on. */
  onDownload(view: QuickDownloadView): void;
  /** Something the state shows changed (presets, recent downloads). */
  changed(): void;
  /** Least time between two progress events of one download (default 200 ms). */
  progressMs?: number;
}

/** A result's thumbnail box is 48 CSS px: 128 device px covers it on a 2× screen. */
const RESULT_THUMBNAIL_PX = 128;

function resultOf(asset: Asset, presets: Map<string, string[]> | undefined): QuickSearchResult[] {
  const file = asset.currentAssetFile;
  if (file === null) return [];
  const previewUrl = thumbnailUrl(file, RESULT_THUMBNAIL_PX);
  return [{ assetId: asset.id, filename: file.filename, size: file.size, fileType: file.fileType, dimensions: file.dimensions, previewUrl, presetIds: presets?.get(asset.id) ?? null }];
}

/** What of a preset's name stays out of a file name: what some disk refuses, control characters, brackets. */
const NOT_IN_NAMES = /[/\\:*?"<>|()[\]\p{Cc}]+/gu;

/**
 * The name a rendition lands under: the asset's own name, the preset's in brackets, the rendition's
 * extension — "photo-7 (Web 1000 px JPG).jpg" — so it never takes the name a later original would have.
 */
export function renditionName(assetName: string, presetName: string, renditionFilename: string): string {
  const extension = extname(renditionFilename);
  const stem = assetName.slice(0, assetName.length - extname(assetName).length) || assetName;
  const label = presetName.replace(NOT_IN_NAMES, ' ').replace(/\s+/g, ' ').trim();
  return label === '' ? `${stem}${extension}` : `${stem} (${label})${extension}`;
}

export class QuickDownloads {
  private presetList: QuickPreset[] = [];
  private readonly downloads = new Map<number, QuickDownloadView>();
  private readonly aborts = new Set<AbortController>();
  private nextId = 1;

  constructor(private readonly deps: QuickDownloadsDeps) {}

  /** The presets as last read (the state's copy). */
  presets(): QuickPreset[] {
    return this.presetList;
  }

  async search(request: { text: string; limit: number }): Promise<QuickSearchResult[]> {
    const text = typeof request.text === 'string' ? request.text.trim() : '';
    if (text === '' || text.length > TEXT_MAX) throw new AppError('INVALID_REQUEST', `Search for 1 to ${TEXT_MAX} characters of a file name or keyword.`);
    if (!Number.isInteger(request.limit) || request.limit < 1 || request.limit > SEARCH_MAX) throw new AppError('INVALID_REQUEST', `limit must be a whole number from 1 to ${SEARCH_MAX}.`);
    const api = this.deps.api();
    const page = await api.searchAssets({ criterion: searchCriterion(text), sorts: [{ field: { type: 'FIXED', fieldName: 'FILENAME' }, order: 'ASC' }], from: 0, pageSize: request.limit });
    const assetIds = page.results.map((envelope) => envelope.result.id);
    // Which presets apply is the service's to say; one that cannot say leaves every preset offered.
    const presets = assetIds.length === 0 ? undefined : await api.presetsForAssets(assetIds).catch(() => undefined);
    return page.results.flatMap((envelope) => resultOf(envelope.result, presets));
  }

  async refreshPresets(): Promise<QuickPreset[]> {
    const presets = await this.deps.api().listPresetTransformations();
    this.presetList = presets.map((preset) => ({ id: preset.id, name: preset.name }));
    this.deps.changed();
    return this.presetList;
  }

  /** Forgets the presets (signed out: they belonged to that account). */
  clearPresets(): void {
    this.presetList = [];
  }

  async download(request: QuickDownloadRequest): Promise<QuickDownloadView> {
    if (typeof request.assetId !== 'string' || request.assetId === '') throw new AppError('INVALID_REQUEST', 'Choose an asset to download.');
    const presetId = request.presetId ?? null;
    if (presetId !== null && (typeof presetId !== 'string' || presetId === '')) throw new AppError('INVALID_REQUEST', 'presetId is a preset\'s id, or null for the original.');
    const api = this.deps.api();
    const askedName = presetId === null ? 'Original' : await this.presetNameOf(presetId);
    const view: QuickDownloadView = { id: this.nextId++, assetId: request.assetId, filename: '', presetId, presetName: askedName, note: null, status: 'running', bytesDone: 0, bytesTotal: null, path: null, error: null };
    this.downloads.set(view.id, view);
    const abort = new AbortController();
    this.aborts.add(abort);
    this.deps.onDownload({ ...view });
    try {
      // The asset's own name, for the window while the job runs and for the tray afterwards.
      const asset = await api.getAsset(request.assetId);
      const assetName = asset.currentAssetFile?.filename ?? request.assetId;
      view.filename = assetName;
      this.deps.onDownload({ ...view });
      const outcome = await api.requestDownloads([{ batchItemId: '0', assetId: request.assetId, assetFileId: null }], presetId === null ? {} : { transformationDescription: { type: 'PRESET', presetTransformationId: presetId } });
      const failure = outcome.failures['0'];
      if (failure !== undefined) throw failure;
      const item = outcome.successes['0'];
      if (item === undefined) throw new AppError('NOT_FOUND', `The service gave no file for asset ${request.assetId}.`);
      // A preset that does not apply to the file hands the original over: the same bytes as the asset's file.
      const asIs = presetId === null || item.checksum === asset.currentAssetFile?.checksum;
      if (presetId !== null && asIs) {
        view.presetId = null;
        view.presetName = 'Original';
        view.note = `${askedName} does not apply to this file, so it arrived as it is.`;
      }
      view.bytesTotal = item.size;
      const folder = this.deps.folder();
      await mkdir(folder, { recursive: true });
      let lastEvent = this.deps.now();
      const fetched = await fetchVerifiedFile(api, folder, asIs ? item : { ...item, filename: renditionName(assetName, askedName, item.filename) }, {
        signal: abort.signal,
        onProgress: (bytes) => {
          view.bytesDone += bytes;
          if (this.deps.now() - lastEvent < (this.deps.progressMs ?? 200)) return;
          lastEvent = this.deps.now();
          this.deps.onDownload({ ...view });
        },
      });
      view.status = 'done';
      view.path = fetched.path;
      // The name it landed as: the preset's format, and ` (2)` when the name was taken.
      view.filename = basename(fetched.path);
      view.bytesDone = item.size;
      this.rememberRecent({ assetId: view.assetId, filename: assetName, presetId: view.presetId, presetName: view.presetName, at: new Date(this.deps.now()).toISOString() });
      return { ...view };
    } catch (error) {
      view.status = 'failed';
      view.error = toBridgeError(error);
      throw error;
    } finally {
      this.aborts.delete(abort);
      this.deps.onDownload({ ...view });
    }
  }

  async reveal(request: { downloadId: number }): Promise<void> {
    const view = this.downloads.get(request.downloadId);
    if (view?.path == null) throw new AppError('NOT_FOUND', `There is no finished quick download ${String(request.downloadId)}.`);
    if (this.deps.reveal === undefined) throw new AppError('OPEN_FAILED', `Showing files is not available here; the file is ${view.path}.`);
    await this.deps.reveal(view.path);
  }

  /** Stops the downloads in flight (their `.part` files stay, so a retry resumes them). */
  close(): void {
    for (const abort of this.aborts) abort.abort();
  }

  private async presetNameOf(presetId: string): Promise<string> {
    const known = this.presetList.find((preset) => preset.id === presetId) ?? (await this.refreshPresets()).find((preset) => preset.id === presetId);
    if (known === undefined) throw new AppError('NOT_FOUND', `The service has no preset ${presetId}; choose another one.`);
    return known.name;
  }

  private rememberRecent(entry: RecentQuickDownload): void {
    this.deps.remember([entry, ...this.deps.recent().filter((recent) => recent.assetId !== entry.assetId)].slice(0, RECENT_LIMIT));
    this.deps.changed();
  }
}
