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
import type { ActivityEntry, AppEvent } from '../../shared/bridge/app-events.js';
import type { AppSettings, AppState, FolderView, NotSyncedView } from '../../shared/bridge/app-state.js';
import { BridgeError } from '../../shared/bridge/bridge-error.js';
import type { CopyResult } from '../../shared/bridge/copy-result.js';
import { iso, demoPresets, demoAssets, folder, busyState, calmState, firstRunState, historyEntry } from './demo-scenarios.js';
import type { QuickDownloadRequest, QuickDownloadView, QuickPreset, QuickSearchResult } from '../../shared/bridge/quick-download.js';

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
