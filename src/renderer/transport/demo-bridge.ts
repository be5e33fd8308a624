/**
 * An in-memory app behind the bridge, for the UI alone: screenshots of every state, the browser tests
 * of the views, and the UI benches. Loaded only with `?demo=<scenario>` (connect-bridge.ts). It obeys
 * commands the way the real app would report them (a resolved conflict disappears, a paused folder says
 * paused) but does no syncing: it is a stage set, not a second engine.
 *
 * Scenarios: `first-run`, `empty` (signed in, no folder), `calm` (all up to date), `busy` (every folder
 * state and something in every view), `activity-100k`, `loading` (the state never comes), `broken`
 * (the app cannot be reached). connect-bridge.ts also shows `calm` as `stopped` (the app stopped).
 */
import type { AddFolderRequest, AppBridge, ConflictChoice, CopyItem, PauseSpan, UpdateFolderRequest } from '../../shared/bridge/app-bridge.js';
import type { ActivityEntry, ActivityKind, AppEvent } from '../../shared/bridge/app-events.js';
import type { AppSettings, AppState, ConflictView, FolderActivity, FolderView, HeldDeletionsView, NotSyncedView } from '../../shared/bridge/app-state.js';
import { BridgeError } from '../../shared/bridge/bridge-error.js';
import type { CopyResult } from '../../shared/bridge/copy-result.js';
import type { QuickDownloadRequest, QuickDownloadView, QuickPreset, QuickSearchResult } from '../../shared/bridge/quick-download.js';

const iso = (offsetSeconds: number): string => new Date(Date.now() + offsetSeconds * 1000).toISOString();

const defaultSettings: AppSettings = {
  publishLive: false,
  uploadBytesPerSecond: null,
  downloadBytesPerSecond: null,
  launchAtLogin: true,
  startWithLocalLibrary: false,
  notifications: true,
  downloadFolder: null,
};

const demoPresets: QuickPreset[] = [
  { id: 'web', name: 'Web (1000 px JPG)' },
  { id: 'thumbnail', name: 'Thumbnail (300 px WEBP)' },
  { id: 'print', name: 'Print (TIFF)' },
  { id: 'social', name: 'Social (1080×1080 crop)' },
];

const demoAssets: QuickSearchResult[] = ['Harbour at dawn.jpg', 'Harbour night.jpg', 'Brand guide 2026.pdf', 'Logo primary.svg', 'Team offsite.mov', 'Campaign hero.psd'].map((filename, index) => ({
  assetId: `asset-${index + 1}`,
  filename,
  size: 1_200_000 + index * 734_003,
  fileType: filename.endsWith('.mov') ? 'VIDEO' : filename.endsWith('.pdf') ? 'DOCUMENT' : 'IMAGE',
  dimensions: filename.endsWith('.jpg') ? { width: 4000, height: 3000 } : null,
  previewUrl: null,
  // The demo service's presets make raster images: a PDF, a movie or a Photoshop file arrives as it is.
  presetIds: /\.(jpg|svg)$/.test(filename) ? demoPresets.map((preset) => preset.id) : [],
}));

function folder(id: string, path: string, remotePath: string, activity: FolderActivity, extra: Partial<FolderView> = {}): FolderView {
  return {
    id,
    path,
    remotePath,
    publishLive: false,
    activity,
    attention: { conflicts: 0, notSynced: 0, heldDeletions: 0 },
    localFiles: 1204,
    syncedFiles: 1204,
    serviceUrl: `http://127.0.0.1:7480/folders${remotePath}`,
    ...extra,
  };
}

/** A tiny SVG image as a data-free preview: a coloured square with a letter, served as a blob URL. */
function previewUrl(colour: string, letter: string): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="120"><rect width="160" height="120" fill="${colour}"/><text x="80" y="76" font-size="44" text-anchor="middle" fill="#fff" font-family="sans-serif">${letter}</text></svg>`;
  return URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
}

function busyState(): AppState {
  const brand = folder('brand', '/Users/ana/Asset Sync/Brand', '/Brand', {
    kind: 'syncing',
    progress: {
      send: { filesDone: 128, filesPlanned: 412, bytesDone: 1_840_000_000, bytesPlanned: 4_210_000_000 },
      receive: { filesDone: 3, filesPlanned: 9, bytesDone: 12_000_000, bytesPlanned: 40_000_000 },
      bytesPerSecond: 18_400_000,
      etaSeconds: 131,
    },
  }, { attention: { conflicts: 2, notSynced: 0, heldDeletions: 0 }, localFiles: 3120, syncedFiles: 2711 });
  const campaigns = folder('campaigns', '/Users/ana/Asset Sync/Campaigns 2026', '/Campaigns/2026', { kind: 'attention' }, {
    attention: { conflicts: 0, notSynced: 3, heldDeletions: 0 },
    publishLive: true,
  });
  const photos = folder('photos', '/Volumes/Studio/Photography', '/Photography', { kind: 'offline', waiting: 2431, nextTryAt: iso(28) }, { localFiles: 18_402, syncedFiles: 15_971 });
  const archive = folder('archive', '/Users/ana/Asset Sync/Archive', '/Archive', { kind: 'paused', until: null, waiting: 14 }, { attention: { conflicts: 0, notSynced: 0, heldDeletions: 1204 }, syncedFiles: 1190 });
  const usb = folder('usb', '/Volumes/USB/Handoff', '/Handoff', {
    kind: 'stopped',
    reason: 'MISSING_FOLDER',
    message: 'The folder /Volumes/USB/Handoff is not there; nothing was deleted.',
    fix: 'Reconnect the drive, or remove this folder from Asset Sync.',
  }, { serviceUrl: null });
  const fonts = folder('fonts', '/Users/ana/Asset Sync/Fonts', '/Fonts', { kind: 'scanning' });
  const conflicts: ConflictView[] = [
    {
      id: 7,
      folderId: 'brand',
      relPath: 'Logos/wordmark.png',
      copyPath: 'Logos/wordmark (conflict 2026-03-03 094112).png',
      detectedAt: iso(-420),
      mine: { size: 482_113, modifiedAt: iso(-900), modifiedBy: null, previewUrl: previewUrl('#3867d6', 'M') },
      theirs: { size: 501_877, modifiedAt: iso(-1300), modifiedBy: { kind: 'person', name: 'Jonas Weber' }, previewUrl: previewUrl('#20bf6b', 'T') },
    },
    {
      id: 8,
      folderId: 'brand',
      relPath: 'Guidelines/brand-book.pdf',
      copyPath: 'Guidelines/brand-book (conflict 2026-03-03 094500).pdf',
      detectedAt: iso(-200),
      mine: { size: 12_400_000, modifiedAt: iso(-600), modifiedBy: null, previewUrl: null },
      theirs: { size: 12_380_112, modifiedAt: iso(-640), modifiedBy: { kind: 'person', name: 'Mia Chen' }, previewUrl: null },
    },
  ];
  const notSynced: NotSyncedView[] = [
    { folderId: 'campaigns', relPath: 'Spring/hero-final.psd', kind: 'file', code: 'UNREADABLE', reason: 'You don’t have permission to read this file.', fix: 'Check its sharing or permissions, then Retry.', detail: 'cannot read the file: EACCES', attempts: 3, retryAt: null },
    { folderId: 'campaigns', relPath: 'Spring/brief.pdf ', kind: 'file', code: 'INVALID_NAME', reason: 'The file name ends with a space, which the service can’t store.', fix: 'Remove the space at the end of the name.', detail: 'name starts or ends with white space', attempts: 1, retryAt: null },
    { folderId: 'campaigns', relPath: 'Video/Old cuts', kind: 'folder', code: 'UNREADABLE', reason: 'You don’t have permission to open this folder, so nothing in it syncs.', fix: 'Check its sharing or permissions, then Retry.', detail: 'cannot list the folder: EACCES', attempts: 1, retryAt: iso(300) },
  ];
  const heldDeletions: HeldDeletionsView[] = [
    { folderId: 'archive', deletedOnComputer: 1204, deletedInService: 0, count: 1204, sample: Array.from({ length: 40 }, (_, index) => `2019/Shoot ${String(index + 1).padStart(2, '0')}/IMG_${4000 + index}.jpg`) },
  ];
  return {
    revision: 1,
    overall: 'attention',
    account: { kind: 'signed-in', server: 'https://assets.acme.example', email: 'ana@acme.example', name: 'Ana Lima', local: false },
    connection: { kind: 'online' },
    paused: null,
    folders: [brand, campaigns, photos, archive, usb, fonts],
    conflicts,
    notSynced,
    notSyncedTotal: notSynced.length,
    heldDeletions,
    settings: { ...defaultSettings, uploadBytesPerSecond: 5_000_000 },
    quickDownload: { folder: '/Users/ana/Downloads', recent: [{ assetId: 'asset-1', filename: 'Harbour at dawn.jpg', presetId: 'web', presetName: 'Web (1000 px JPG)', at: iso(-3600) }], presets: demoPresets },
    host: { kind: 'headless', platform: 'linux', secureStorage: false, canOpenPaths: true, version: '0.1.0' },
  };
}

function calmState(): AppState {
  const state = busyState();
  return {
    ...state,
    overall: 'up-to-date',
    folders: state.folders.slice(0, 3).map((view, index) => ({
      ...view,
      activity: { kind: 'up-to-date', lastSyncedAt: iso(-60 * (index * 7 + 2)) },
      attention: { conflicts: 0, notSynced: 0, heldDeletions: 0 },
      syncedFiles: view.localFiles,
    })),
    conflicts: [],
    notSynced: [],
    notSyncedTotal: 0,
    heldDeletions: [],
  };
}

function firstRunState(): AppState {
  return {
    ...calmState(),
    overall: 'no-account',
    account: { kind: 'none' },
    folders: [],
  };
}

const kinds: ActivityKind[] = ['upload', 'upload', 'download', 'upload', 'move', 'trash', 'copy-in', 'conflict-copy'];
const names = ['hero', 'wordmark', 'icon-set', 'banner', 'poster', 'storyboard', 'moodboard', 'mockup'];
const exts = ['.png', '.psd', '.jpg', '.pdf', '.ai', '.mov'];

/** Entry `n` of a long history, newest at n = 0; a few at the top still running. */
function historyEntry(id: number, total: number): ActivityEntry {
  const n = total - id;
  const size = ((id * 7919) % 50_000) * 1000 + 2000;
  const running = n < 3;
  // Only transfers run and have a size; a move, a conflict copy or a file sent to the Trash has none.
  const kind = running ? 'upload' : (kinds[id % kinds.length] ?? 'upload');
  const sized = kind === 'upload' || kind === 'download' || kind === 'copy-in';
  const name = `${names[id % names.length] ?? 'file'}-${id}${exts[id % exts.length] ?? '.png'}`;
  return {
    id,
    folderId: ['brand', 'campaigns', 'photos'][id % 3] ?? 'brand',
    relPath: `Shoot ${Math.floor(id / 40)}/${kind === 'conflict-copy' ? name.replace(/(\.\w+)$/, ' (conflict 2026-12-07 101500)$1') : name}`,
    kind,
    from: kind === 'move' ? `Inbox/${name}` : kind === 'conflict-copy' ? `Shoot ${Math.floor(id / 40)}/${name}` : null,
    status: running ? 'running' : id % 97 === 0 ? 'failed' : 'done',
    bytesDone: running ? Math.round(size * (0.2 + 0.3 * n)) : sized ? size : 0,
    bytesTotal: sized ? size : null,
    at: new Date(Date.now() - n * 9000).toISOString(),
    error: id % 97 === 0 && !running ? { name: 'ApiError', code: 'SERVICE_UNREACHABLE', message: 'The service did not answer; it will be tried again.' } : null,
  };
}

class DemoBridge implements AppBridge {
  private state: AppState;
  private readonly listeners = new Set<(event: AppEvent) => void>();
  private readonly historySize: number;
  private readonly live: ActivityEntry[] = [];
  private readonly never: boolean;
  private readonly broken: boolean;

  constructor(scenario: string) {
    this.never = scenario === 'loading';
    this.broken = scenario === 'broken';
    this.historySize = scenario === 'activity-100k' ? 100_000 : scenario === 'busy' || scenario === 'calm' ? 240 : 0;
    switch (scenario) {
      case 'first-run':
        this.state = firstRunState();
        break;
      case 'empty':
        this.state = { ...calmState(), folders: [], overall: 'no-folders' };
        break;
      case 'calm':
      case 'activity-100k':
        this.state = calmState();
        break;
      default:
        this.state = busyState();
    }
  }

  private publish(change: (state: AppState) => AppState): void {
    const next = change(this.state);
    this.state = { ...next, revision: this.state.revision + 1, overall: overallOf(next) };
    for (const listener of this.listeners) listener({ type: 'state', state: this.state });
  }

  private folder(folderId: string): FolderView {
    const found = this.state.folders.find((view) => view.id === folderId);
    if (found === undefined) throw new BridgeError('NOT_FOUND', `There is no synced folder ${folderId}.`);
    return found;
  }

  private mapFolders(folderId: string | undefined, change: (view: FolderView) => FolderView): void {
    if (folderId !== undefined) this.folder(folderId);
    this.publish((state) => ({ ...state, folders: state.folders.map((view) => (folderId === undefined || view.id === folderId ? change(view) : view)) }));
  }

  async getState(): Promise<AppState> {
    if (this.broken) throw new BridgeError('TRANSPORT_CLOSED', 'The Asset Sync app is not running. Start it again, then reload this page.');
    if (this.never) return new Promise(() => undefined);
    return this.state;
  }

  async listActivity(query: { before?: number; limit: number }): Promise<ActivityEntry[]> {
    const newest = this.historySize;
    const top = query.before === undefined ? newest : query.before - 1;
    const page: ActivityEntry[] = query.before === undefined ? [...this.live] : [];
    for (let id = top; id >= 1 && page.length < query.limit; id -= 1) page.push(historyEntry(id, this.historySize));
    return page;
  }

  async addFolder(request: AddFolderRequest): Promise<void> {
    if (!request.path.startsWith('/') && !/^[A-Za-z]:\\/.test(request.path)) throw new BridgeError('INVALID_REQUEST', 'Give the folder’s full path, starting with / (or a drive letter on Windows).');
    this.publish((state) => ({
      ...state,
      folders: [...state.folders, folder(`f${state.folders.length + 1}`, request.path, request.remotePath, { kind: 'scanning' }, { publishLive: request.publishLive, localFiles: 0, syncedFiles: 0 })],
    }));
  }

  async removeFolder(request: { folderId: string }): Promise<void> {
    this.folder(request.folderId);
    this.publish((state) => ({ ...state, folders: state.folders.filter((view) => view.id !== request.folderId) }));
  }

  async updateFolder(request: UpdateFolderRequest): Promise<void> {
    this.mapFolders(request.folderId, (view) => ({ ...view, remotePath: request.remotePath ?? view.remotePath, publishLive: request.publishLive ?? view.publishLive }));
  }

  async pause(request: { folderId?: string; span: PauseSpan }): Promise<void> {
    const until = request.span === 'one-hour' ? iso(3600) : null;
    this.mapFolders(request.folderId, (view) => ({ ...view, activity: { kind: 'paused', until, waiting: 0 } }));
    if (request.folderId === undefined) this.publish((state) => ({ ...state, paused: { until } }));
  }

  async resume(request: { folderId?: string }): Promise<void> {
    this.mapFolders(request.folderId, (view) => (view.activity.kind === 'paused' ? { ...view, activity: { kind: 'up-to-date', lastSyncedAt: iso(0) } } : view));
    if (request.folderId === undefined) this.publish((state) => ({ ...state, paused: null }));
  }

  async syncNow(request: { folderId?: string }): Promise<void> {
    this.mapFolders(request.folderId, (view) => (view.activity.kind === 'up-to-date' ? { ...view, activity: { kind: 'up-to-date', lastSyncedAt: iso(0) } } : view));
  }

  async resolveConflict(request: { conflictId: number; keep: ConflictChoice }): Promise<void> {
    const conflict = this.state.conflicts.find((view) => view.id === request.conflictId);
    if (conflict === undefined) throw new BridgeError('NOT_FOUND', 'That conflict is already resolved.');
    this.publish((state) => ({
      ...state,
      conflicts: state.conflicts.filter((view) => view.id !== request.conflictId),
      folders: state.folders.map((view) => (view.id === conflict.folderId ? { ...view, attention: { ...view.attention, conflicts: Math.max(0, view.attention.conflicts - 1) } } : view)),
    }));
  }

  async retry(request: { folderId: string; relPath?: string }): Promise<void> {
    this.folder(request.folderId);
    const keep = (item: NotSyncedView): boolean => item.folderId !== request.folderId || (request.relPath !== undefined && item.relPath !== request.relPath);
    this.publish((state) => {
      const notSynced = state.notSynced.filter(keep);
      return {
        ...state,
        notSynced,
        notSyncedTotal: notSynced.length,
        folders: state.folders.map((view) => ({ ...view, attention: { ...view.attention, notSynced: notSynced.filter((item) => item.folderId === view.id).length } })),
      };
    });
  }

  async confirmDeletions(request: { folderId: string }): Promise<void> {
    this.clearHeld(request.folderId);
  }

  async restoreDeletions(request: { folderId: string }): Promise<void> {
    this.clearHeld(request.folderId);
  }

  private clearHeld(folderId: string): void {
    this.folder(folderId);
    this.publish((state) => ({
      ...state,
      heldDeletions: state.heldDeletions.filter((held) => held.folderId !== folderId),
      folders: state.folders.map((view) => (view.id === folderId ? { ...view, attention: { ...view.attention, heldDeletions: 0 } } : view)),
    }));
  }

  async copyIn(request: { folderId: string; relDir: string; items: CopyItem[] }): Promise<CopyResult> {
    this.folder(request.folderId);
    for (const item of request.items) {
      const entry: ActivityEntry = {
        id: this.historySize + this.live.length + 1,
        folderId: request.folderId,
        relPath: item.kind === 'bytes' ? item.relPath : item.path,
        kind: 'copy-in',
        status: 'done',
        from: null,
        bytesDone: item.kind === 'bytes' ? item.body.size : 0,
        bytesTotal: item.kind === 'bytes' ? item.body.size : null,
        at: iso(0),
        error: null,
      };
      this.live.unshift(entry);
      for (const listener of this.listeners) listener({ type: 'activity', entry });
    }
    return { copied: request.items.length, renamed: [] };
  }

  async signIn(request: { server: string }): Promise<{ authorizeUrl: string }> {
    if (!/^https?:\/\/[^/]+/.test(request.server)) throw new BridgeError('INVALID_REQUEST', 'Give the server’s address, like https://assets.example.com.');
    const authorizeUrl = `${request.server.replace(/\/$/, '')}/oauth/authorize?client_id=asset-sync`;
    this.publish((state) => ({ ...state, account: { kind: 'signing-in', server: request.server, authorizeUrl } }));
    return { authorizeUrl };
  }

  async useLocalLibrary(): Promise<void> {
    const calm = calmState();
    this.publish((state) => ({
      ...state,
      account: { kind: 'signed-in', server: 'http://127.0.0.1:7480', email: 'you@this-computer', name: 'Local library', local: true },
      folders: calm.folders.slice(0, 1).map((view) => ({ ...view, path: '/Users/ana/Asset Sync', remotePath: '/', activity: { kind: 'scanning' } })),
    }));
  }

  async signOut(): Promise<void> {
    this.publish((state) => ({ ...state, account: { kind: 'none' } }));
  }

  async updateSettings(patch: Partial<AppSettings>): Promise<AppSettings> {
    this.publish((state) => ({ ...state, settings: { ...state.settings, ...patch } }));
    return this.state.settings;
  }

  async openPath(request: { folderId: string; relPath?: string; reveal?: boolean }): Promise<void> {
    this.folder(request.folderId);
  }

  async openConflictVersion(request: { conflictId: number }): Promise<void> {
    if (!this.state.conflicts.some((view) => view.id === request.conflictId)) throw new BridgeError('NOT_FOUND', 'That conflict is already resolved.');
  }

  async searchAssets(request: { text: string; limit: number }): Promise<QuickSearchResult[]> {
    const text = request.text.trim().toLowerCase();
    return demoAssets.filter((asset) => asset.filename.toLowerCase().includes(text)).slice(0, request.limit);
  }

  async listPresets(): Promise<QuickPreset[]> {
    return demoPresets;
  }

  private nextDownload = 1;

  async quickDownload(request: QuickDownloadRequest): Promise<QuickDownloadView> {
    const asset = demoAssets.find((candidate) => candidate.assetId === request.assetId);
    if (asset === undefined) throw new BridgeError('NOT_FOUND', `There is no asset ${request.assetId}.`);
    const preset = demoPresets.find((candidate) => candidate.id === request.presetId && asset.presetIds?.includes(candidate.id) === true);
    const presetName = preset?.name ?? 'Original';
    const view: QuickDownloadView = { id: this.nextDownload++, assetId: asset.assetId, filename: asset.filename, presetId: preset?.id ?? null, presetName, note: null, status: 'done', bytesDone: asset.size, bytesTotal: asset.size, path: `${this.state.quickDownload.folder}/${asset.filename}`, error: null };
    for (const listener of this.listeners) listener({ type: 'quick-download', download: view });
    const recent = { assetId: asset.assetId, filename: asset.filename, presetId: preset?.id ?? null, presetName, at: new Date().toISOString() };
    this.publish((state) => ({ ...state, quickDownload: { ...state.quickDownload, recent: [recent, ...state.quickDownload.recent.filter((entry) => entry.assetId !== asset.assetId)].slice(0, 8) } }));
    return view;
  }

  async revealDownload(): Promise<void> {
    // A stage set: there is no file manager to show.
  }

  subscribe(listener: (event: AppEvent) => void): () => void {
    this.listeners.add(listener);
    if (!this.never && !this.broken) queueMicrotask(() => listener({ type: 'state', state: this.state }));
    return () => this.listeners.delete(listener);
  }
}

/** The overall word, the way the app would sum it up. */
function overallOf(state: AppState): AppState['overall'] {
  if (state.account.kind === 'none' || state.account.kind === 'signing-in') return 'no-account';
  if (state.account.kind === 'signed-out') return 'signed-out';
  if (state.folders.length === 0) return 'no-folders';
  if (state.conflicts.length > 0 || state.notSyncedTotal > 0 || state.heldDeletions.length > 0) return 'attention';
  const kinds = new Set(state.folders.map((view) => view.activity.kind));
  if (kinds.has('stopped') || kinds.has('error') || kinds.has('attention')) return 'attention';
  if (kinds.has('offline')) return 'offline';
  if (state.paused !== null) return 'paused';
  if (kinds.has('syncing') || kinds.has('scanning')) return 'syncing';
  if (kinds.has('waiting') || state.folders.some((view) => view.activity.kind === 'paused' && view.activity.waiting > 0)) return 'waiting';
  return 'up-to-date';
}

export function createDemoBridge(scenario: string): AppBridge {
  return new DemoBridge(scenario);
}
